#include "aptus/request/version_select.hpp"

#include "aptus/request/apt_records.hpp"
#include "aptus/request/package_pattern.hpp"
#include "aptus/system/volatile_sources.hpp"

namespace aptus::request {

const cache::Package* find_word_package(const cache::Cache& cache, const PackageWord& w) {
    // ":all" and ":native" name the native package, ":any" the one apt
    // prefers, as a bare name does.
    if (w.arch == "all" || w.arch == "native") return cache.find_package(w.name, cache.native_architecture());
    if (!w.arch.empty() && w.arch != "any") return cache.find_package(w.name, w.arch);
    if (const auto* p = cache.find_package(w.name, cache.native_architecture())) return p;
    auto name = cache.find_name(w.name);
    if (!name) return nullptr;
    auto pkgs = cache.packages_of(*name);
    return pkgs.empty() ? nullptr : &pkgs.front();
}

bool in_release(const cache::Cache& cache, const cache::Version& v, std::string_view rel) {
    for (const auto& f : cache.files_of(v)) {
        const auto& file = cache.index_files()[f.index_file];
        // The dpkg status is the archive "now" to apt ("pkg/now": the installed version).
        if (file.kind == cache::IndexKind::Status) {
            if (rel == "now") return true;
            continue;
        }
        if (file.release == cache::kNone) continue;
        const auto& r = cache.releases()[file.release];
        if (cache.str(r.suite) == rel || cache.str(r.codename) == rel) return true;
    }
    return false;
}

void select_versions(const cache::Cache& cache, const system::Candidates& candidates, std::string_view word,
                     Select how, Selection& out, std::vector<std::string>& notices) {
    // A .deb named by its path (system/volatile_sources.hpp added it): its version.
    if (system::is_path_word(word)) {
        if (const cache::Version* v = system::volatile_version(cache, word)) out.versions.push_back(v);
        else notices.push_back("Unable to locate package " + std::string(word));
        return;
    }
    // An apt search pattern: every package it selects, as if named (a bad
    // one throws apt's error). ?garbage selects nothing here: the read
    // commands do not compute the autoremove set.
    if (is_pattern_word(word)) {
        const PatternContext ctx{cache, candidates, nullptr};
        for (const PatternMatch& m : packages_matching(ctx, PackagePattern::parse(word)))
            select_versions(cache, candidates,
                            m.package ? full_name(cache, *m.package) : std::string(cache.str(cache.names()[m.name].name)),
                            how, out, notices);
        return;
    }
    PackageWord w = parse_package_word(word);
    const cache::Package* p = find_word_package(cache, w);
    if (!p) {
        auto name = cache.find_name(w.name);
        // A foreign "name:arch" apt has a record for, without versions
        // (an i386 package depends on it), is virtual as a bare name is.
        bool foreign = !w.arch.empty() && w.arch != "any" && w.arch != "all" && w.arch != "native" &&
                       w.arch != cache.native_architecture();
        if (name && (w.arch.empty() || (foreign && apt_has_record(cache, *name, w.arch)))) {
            std::string shown = foreign ? w.name + ":" + w.arch : w.name;
            out.virtual_names.push_back(shown);
            out.virtual_order.push_back(shown);
            notices.push_back(how == Select::Candidate
                                  ? "Can't select candidate version from package " + shown + " as it has no candidate"
                                  : "Can't select versions from package '" + shown + "' as it is purely virtual");
            return;
        }
        notices.push_back("Unable to locate package " + std::string(word));
        return;
    }
    auto versions = cache.versions_of(*p);
    if (!w.version.empty() || !w.release.empty()) {
        for (const auto& v : versions) {
            bool match = w.version.empty() ? in_release(cache, v, w.release) : cache.str(v.version) == w.version;
            if (match) {
                out.versions.push_back(&v);
                return;
            }
        }
        notices.push_back(w.version.empty() ? "Release '" + w.release + "' for '" + w.name + "' was not found"
                                             : "Version '" + w.version + "' for '" + w.name + "' was not found");
        out.virtuals.push_back(p);
        out.virtual_order.push_back(full_name(cache, *p));
        return;
    }
    if (how == Select::All) {
        if (versions.empty()) {
            notices.push_back("Can't select versions from package '" + full_name(cache, *p) + "' as it is purely virtual");
            out.virtuals.push_back(p);
            out.virtual_order.push_back(full_name(cache, *p));
            return;
        }
        for (const auto& v : versions) out.versions.push_back(&v);
        return;
    }
    const cache::Version* c = candidates.candidate(*p);
    if (!c) {
        notices.push_back("Can't select candidate version from package " + full_name(cache, *p) + " as it has no candidate");
        out.virtuals.push_back(p);
        out.virtual_order.push_back(full_name(cache, *p));
        return;
    }
    out.versions.push_back(c);
}

std::string full_name(const cache::Cache& cache, const cache::Package& p) {
    std::string name(cache.name_of(p));
    std::string_view arch = cache.str(p.architecture);
    if (arch != cache.native_architecture() && arch != "all") name += ":" + std::string(arch);
    return name;
}

const cache::VersionFile* record_file(const cache::Cache& cache, const cache::Version& v) {
    const cache::VersionFile* fallback = nullptr;
    for (const auto& f : cache.files_of(v)) {
        if (cache.index_files()[f.index_file].kind != cache::IndexKind::Status) return &f;
        if (!fallback) fallback = &f;
    }
    return fallback;
}

}  // namespace aptus::request
