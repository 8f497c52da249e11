#include "aptus/system/source_package.hpp"

#include <algorithm>
#include <map>

#include "aptus/acquire/print_uris.hpp"
#include "aptus/acquire/repository_path.hpp"
#include "aptus/base/error.hpp"
#include "aptus/deb/package_word.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/policy/policy.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"
#include "aptus/system/system.hpp"

namespace aptus::system {
namespace {

// Where a Sources record lists its files, the strongest first: each file
// keeps the strongest hash any of them gives it.
struct HashField {
    std::string_view name;
    acquire::HashAlgo algo;
};
constexpr HashField kHashFields[] = {{"Checksums-Sha512", acquire::HashAlgo::Sha512},
                                     {"Checksums-Sha256", acquire::HashAlgo::Sha256},
                                     {"Checksums-Sha1", acquire::HashAlgo::Sha1},
                                     {"Files", acquire::HashAlgo::Md5}};

// apt's word for a source file in its Get: line.
std::string kind_of(std::string_view name) {
    if (name.ends_with(".dsc")) return "dsc";
    if (name.find(".diff.") != std::string_view::npos || name.ends_with(".diff")) return "diff";
    return "tar";
}

}  // namespace

namespace {

// What every word is chosen against: read once for all of them.
struct Lookup {
    const cache::Cache& cache;
    const config::Config& config;
    const Candidates* candidates;
    std::vector<sources::IndexTarget> targets;
    std::vector<policy::FileFacts> facts;
};

// The highest version; of equal ones the first read.
const cache::SourcePackage* highest(const cache::Cache& cache, const std::vector<const cache::SourcePackage*>& records) {
    const cache::SourcePackage* best = records.front();
    for (const cache::SourcePackage* s : records) {
        int c = deb::compare_versions(cache.str(s->version), cache.str(best->version));
        if (c > 0 || (c == 0 && std::pair(s->index_file, s->offset) < std::pair(best->index_file, best->offset)))
            best = s;
    }
    return best;
}

// The binary package a word names: its native one (where "all" packages
// are filed), else the first with versions.
const cache::Package* binary_package(const cache::Cache& cache, const std::string& name, const std::string& arch) {
    auto id = cache.find_name(name);
    if (!id) return nullptr;
    const cache::Package* any = nullptr;
    for (const cache::Package& p : cache.packages_of(*id)) {
        if (p.version_count == 0) continue;
        if (!arch.empty()) {
            if (cache.str(p.architecture) == arch ||
                (arch == "all" && cache.str(p.architecture) == cache.native_architecture()))
                return &p;
            continue;
        }
        if (cache.str(p.architecture) == cache.native_architecture()) return &p;
        if (!any) any = &p;
    }
    return any;
}

bool in_target(const Lookup& ctx, const cache::Version& v, const policy::Policy& target) {
    for (const cache::VersionFile& vf : ctx.cache.files_of(v))
        if (ctx.cache.index_files()[vf.index_file].kind == cache::IndexKind::Packages &&
            target.is_target_release(ctx.facts[vf.index_file]))
            return true;
    return false;
}

// apt's choice when the word names a binary package: the version named
// (=version), else its version in the release (/release, -t), else its
// candidate; the source is that version's Source field (name and version).
const cache::Version* binary_version(const Lookup& ctx, const cache::Package& p, const SourceRequest& request,
                                     const std::string& release, const policy::Policy& target) {
    const cache::Cache& cache = ctx.cache;
    if (!request.version.empty()) {
        for (const cache::Version& v : cache.versions_of(p))
            if (cache.str(v.version) == request.version) return &v;
        return nullptr;
    }
    if (!release.empty()) {
        const cache::Version* best = nullptr;
        for (const cache::Version& v : cache.versions_of(p))
            if (in_target(ctx, v, target) &&
                (!best || deb::compare_versions(cache.str(v.version), cache.str(best->version)) > 0))
                best = &v;
        return best;
    }
    return ctx.candidates ? ctx.candidates->candidate(p) : nullptr;
}

// The record of that source name and version, of the release where it has one.
const cache::SourcePackage* source_record(const Lookup& ctx, std::string_view name, std::string_view version,
                                          const std::string& release, const policy::Policy& target) {
    const cache::SourcePackage* first = nullptr;
    for (const cache::SourcePackage& s : ctx.cache.find_sources(name)) {
        if (ctx.cache.str(s.version) != version) continue;
        if (release.empty() || target.is_target_release(ctx.facts[s.index_file])) return &s;
        if (!first) first = &s;
    }
    return first;
}

SourceChoice choose_one(const Lookup& ctx, const SourceRequest& request, bool only_source) {
    // (only_source: --only-source, or the word's "src:")
    const cache::Cache& cache = ctx.cache;
    // The release the word names, else the target release (-t).
    const std::string release =
        !request.release.empty() ? request.release : ctx.config.find("APT::Default-Release");
    const policy::Policy in_release({}, release);
    const cache::SourcePackage* best = nullptr;
    only_source = only_source || request.only_source;
    if (!only_source) {
        const cache::Package* p = binary_package(cache, request.name, request.arch);
        // An architecture named is a binary package's, and must be there.
        auto fail = [&](const std::string& what) {
            throw Error(what).add_followup("Unable to find a source package for " + request.word);
        };
        if (!p && !request.arch.empty())
            fail("Can not find a package for architecture '" + request.arch + "'");
        const cache::Version* v = p ? binary_version(ctx, *p, request, release, in_release) : nullptr;
        if (p && !v && !request.arch.empty()) {
            const std::string full = request.name + ":" + request.arch;
            if (!request.version.empty()) fail("Can not find a package '" + full + "' with version '" + request.version + "'");
            if (!release.empty()) fail("Can not find a package '" + full + "' with release '" + release + "'");
        }
        // A bare name takes the candidate's source package, at its highest
        // version (apt: only the name comes from the binary then).
        const bool exact = !request.version.empty() || !release.empty() || !request.arch.empty();
        if (v && exact) best = source_record(ctx, cache.str(v->source_name), cache.str(v->source_version), release, in_release);
        if (v && !exact) {
            std::vector<const cache::SourcePackage*> named;
            for (const cache::SourcePackage& s : cache.find_sources(cache.str(v->source_name))) named.push_back(&s);
            if (!named.empty()) best = highest(cache, named);
        }
    }
    if (!best) {
        // The records of the name, else of a binary package built from them.
        std::vector<const cache::SourcePackage*> records;
        for (const cache::SourcePackage& s : cache.find_sources(request.name)) records.push_back(&s);
        if (records.empty() && !only_source)
            for (const cache::SourcePackage& s : cache.sources()) {
                bool lists = false;
                for_each_binary_name(cache.str(s.binaries),
                                     [&](std::string_view n) { lists = lists || n == request.name; });
                if (lists) records.push_back(&s);
            }
        // A version named is looked for in every release.
        if (!request.version.empty())
            std::erase_if(records,
                          [&](const cache::SourcePackage* s) { return cache.str(s->version) != request.version; });
        else if (!release.empty())
            std::erase_if(records, [&](const cache::SourcePackage* s) {
                return !in_release.is_target_release(ctx.facts[s->index_file]);
            });
        if (records.empty()) {
            Error e(request.version.empty()
                        ? "Unable to find a source package for " + request.word
                        : "Can not find version '" + request.version + "' of package '" + request.name + "'");
            if (!request.version.empty())
                e.add_followup("Unable to find a source package for " +
                               (request.missing_version_name.empty() ? request.word : request.missing_version_name));
            throw e;
        }
        best = highest(cache, records);
    }
    // apt's notes: the source package taken for a binary's name, and the
    // version a release picked.
    std::vector<std::string> notes;
    if (cache.str(best->name) != request.name)
        notes.push_back("Picking '" + std::string(cache.str(best->name)) + "' as source package instead of '" +
                        request.name + "'");
    if (!release.empty() && request.version.empty())
        notes.push_back("Selected version '" + std::string(cache.str(best->version)) + "' (" + release + ") for " +
                        std::string(cache.str(best->name)));

    const cache::IndexFile& index = cache.index_files()[best->index_file];
    const std::string index_path(cache.str(index.path));
    const sources::IndexTarget* target = sources::target_of_list_file(ctx.targets, index_path);
    if (!target) throw Error("The sources no longer name " + index_path + "; run update");

    SourceChoice out;
    out.notes = std::move(notes);
    out.package = std::string(cache.str(best->name));
    out.version = std::string(cache.str(best->version));
    out.trusted = index.flags & cache::kIndexTrusted;
    std::string label = target->description;  // "URI suite/component Sources"
    if (size_t sp = label.rfind(' '); sp != std::string::npos) label.resize(sp);
    out.label = label + " " + out.package + " " + out.version;

    out.record = std::string(cache.stanza(*best));
    deb::TagFileReader reader(cache.stanza(*best), index_path, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza st;
    if (!reader.next(st)) throw Error(index_path + ": the record of " + out.package + " " + out.version + " could not be read");
    std::string directory(trim(st.value_or_empty("Directory")));
    if (!directory.empty() && !acquire::is_repository_path(directory))
        throw Error(index_path + ": the Directory of " + out.package + " " + out.version +
                    " names a place outside the repository: '" + directory + "'");
    std::string repo = target->option("Repo-URI");
    if (!repo.empty() && repo.back() != '/') repo += '/';
    const bool http = repo.starts_with("http:") || repo.starts_with("https:");

    std::map<std::string, size_t> at;  // file name -> index in out.files
    for (const HashField& h : kHashFields) {
        const deb::Field* f = st.find(h.name);
        if (!f) continue;
        const std::string text = deb::field_text(f->value);
        for (size_t pos = 0; pos < text.size();) {
            size_t nl = std::min(text.find('\n', pos), text.size());
            std::vector<std::string_view> w = split_words(std::string_view(text).substr(pos, nl - pos));
            pos = nl + 1;
            if (w.size() != 3) continue;
            const std::string name(w[2]);
            if (name.find('/') != std::string::npos || name == "." || name == "..")
                throw Error(index_path + ": " + out.package + " " + out.version + " lists a file that is no plain name: '" +
                            name + "'");
            auto [it, fresh] = at.try_emplace(name, out.files.size());
            if (!fresh) continue;  // a stronger hash came first
            SourceFile file;
            file.name = name;
            file.kind = kind_of(name);
            try {
                file.size = std::stoull(std::string(w[1]));
            } catch (const std::exception&) {
                throw Error(index_path + ": " + out.package + " " + out.version + " gives " + name + " no valid size");
            }
            file.hash = h.algo;
            file.hash_hex = std::string(w[0]);
            const std::string path = directory.empty() ? name : directory + "/" + name;
            file.uri = repo + (http ? acquire::http_quoted_path(path) : path);
            file.print_uri = repo + acquire::uri_encode_path(path);
            out.files.push_back(std::move(file));
        }
    }
    if (out.files.empty())
        throw Error(index_path + ": " + out.package + " " + out.version + " lists no files");
    // apt lists the .dsc first.
    std::stable_partition(out.files.begin(), out.files.end(), [](const SourceFile& f) { return f.kind == "dsc"; });
    return out;
}

}  // namespace

SourceRequest parse_source_request(std::string_view word) {
    SourceRequest r;
    r.word = std::string(word);
    if (word.starts_with("src:")) {
        r.only_source = true;
        word.remove_prefix(4);
    }
    const deb::PackageWord w = deb::parse_package_word(word);
    r.name = w.name;
    r.arch = w.arch;
    r.version = w.version;
    r.release = w.release;
    return r;
}

std::vector<SourceChoice> choose_sources(const cache::Cache& cache, const config::Config& config,
                                         std::span<const SourceRequest> requests, bool only_source,
                                         const Candidates* candidates) {
    Diagnostics ignored;  // reported when the cache was opened
    const Lookup ctx{cache, config, candidates, sources::index_targets(sources::read_sources(config, ignored), config, ignored),
                      file_facts(cache)};
    std::vector<SourceChoice> out;
    for (const SourceRequest& r : requests) out.push_back(choose_one(ctx, r, only_source));
    return out;
}

}  // namespace aptus::system
