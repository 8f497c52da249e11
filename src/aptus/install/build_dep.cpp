#include "aptus/install/build_dep.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/request/version_select.hpp"
#include "aptus/system/source_package.hpp"
#include "aptus/system/volatile_sources.hpp"

namespace aptus::install {
namespace {

enum class PathKind { None, File, Directory };

// apt takes an argument for a path when it has a '/' in it (or is "." or
// ".."), and it exists: "foo.dsc" alone names a source package.
// "./foo.dsc/experimental" is the file, its relations met from the release.
PathKind path_kind(std::string_view arg) {
    if (arg.find('/') == std::string_view::npos && arg != "." && arg != "..") return PathKind::None;
    struct stat st {};
    if (::stat(system::split_path_word(arg).path.c_str(), &st) != 0) return PathKind::None;
    return S_ISDIR(st.st_mode) ? PathKind::Directory : PathKind::File;
}

// The relations of one source stanza as satisfy's words.
BuildDeps from_stanza(const deb::Stanza& st, const config::Config& config) {
    BuildDeps out;
    // A .dsc and debian/control say Source; a Sources index says Package.
    out.source = std::string(trim(st.value_or_empty("Source")));
    if (out.source.empty()) out.source = std::string(trim(st.value_or_empty("Package")));
    const bool arch_only = config.find_bool("APT::Get::Arch-Only");
    const bool indep_only = config.find_bool("APT::Get::Indep-Only");
    bool any = false;
    auto take = [&](const char* field, bool conflicts, bool wanted) {
        // Empty items (",debhelper (>= 7),", as debian/control files have
        // them) are skipped, as apt and dpkg skip them.
        std::string value;
        for_each_list_item(deb::field_text(st.value_or_empty(field)), [&](std::string_view item) {
            value += (value.empty() ? "" : ", ") + std::string(item);
        });
        if (value.empty()) return;
        any = true;
        if (wanted) out.words.push_back(conflicts ? "Conflicts: " + value : value);
    };
    take("Build-Depends", false, true);
    take("Build-Depends-Arch", false, !indep_only);
    take("Build-Depends-Indep", false, !arch_only);
    take("Build-Conflicts", true, true);
    take("Build-Conflicts-Arch", true, !indep_only);
    take("Build-Conflicts-Indep", true, !arch_only);
    if (!any) out.notes.push_back(out.source + " has no build depends.");
    // APT::Build-Essential as apt reads a list: the key's own value split at
    // commas when it has one ("," for none), else its entries.
    std::vector<std::string> essential;
    if (const std::string value = config.find("APT::Build-Essential"); !value.empty())
        for_each_list_item(value, [&](std::string_view item) { essential.emplace_back(item); });
    else
        essential = config.find_list("APT::Build-Essential");
    // They run on the build machine: ":native" when no architecture is
    // named (a cross build's host architecture has nothing to do with them).
    for (const std::string& e : essential)
        if (!trim(e).empty()) out.words.push_back(e.find(':') == std::string::npos ? e + ":native" : e);
    return out;
}

BuildDeps from_file(const std::string& path, std::string_view what, const config::Config& config) {
    std::string text;
    try {
        text = read_file(path);
    } catch (const Error& e) {
        throw Error("Unable to read " + std::string(what) + ": " + e.what());
    }
    if (deb::starts_clearsigned(text)) text = deb::clearsigned_text(text, path);
    // A .dsc or debian/control may have comment lines, even a paragraph of
    // them before the source's (dpkg reads them so): the first stanza with
    // a Source field is the source's.
    deb::TagFileReader reader(text, path, deb::TagFileOptions{.allow_comments = true});
    deb::Stanza st;
    while (reader.next(st))
        if (st.get("Source")) return from_stanza(st, config);
    throw Error("Unable to find a source package for " + std::string(what));
}

}  // namespace

std::optional<std::string> build_dep_path_note(std::string_view arg) {
    switch (path_kind(arg)) {
        case PathKind::File:
            return "Note, using file '" + system::split_path_word(arg).path + "' to get the build dependencies";
        case PathKind::Directory:
            return "Note, using directory '" + system::split_path_word(arg).path + "' to get the build dependencies";
        case PathKind::None: break;
    }
    return std::nullopt;
}

std::vector<BuildDeps> read_build_deps(const cache::Cache& cache, const config::Config& config,
                                       std::span<const std::string> args, const system::Candidates* candidates) {
    std::vector<BuildDeps> out;
    std::vector<system::SourceRequest> by_name;
    std::vector<size_t> slot;  // where each name's answer goes in `out`
    for (const std::string& arg : args) {
        const system::PathWord given = system::split_path_word(arg);
        switch (path_kind(arg)) {
            case PathKind::File:
                out.push_back(from_file(given.path, given.path, config));
                out.back().placeholder = "builddeps:" + out.back().source;
                out.back().release = given.release;
                out.back().from_file = true;
                continue;
            case PathKind::Directory:
                out.push_back(from_file(given.path + "/debian/control", given.path, config));
                out.back().placeholder = "builddeps:" + given.path;
                out.back().release = given.release;
                out.back().from_file = true;
                continue;
            case PathKind::None: break;
        }
        by_name.push_back(system::parse_source_request(arg));
        slot.push_back(out.size());
        out.emplace_back();
    }
    if (by_name.empty()) return out;
    const std::vector<system::SourceChoice> chosen =
        system::choose_sources(cache, config, by_name, config.find_bool("APT::Get::Only-Source"), candidates);
    for (size_t i = 0; i < chosen.size(); ++i) {
        deb::TagFileReader reader(chosen[i].record, chosen[i].package);
        deb::Stanza st;
        if (!reader.next(st)) throw Error("Unable to find a source package for " + by_name[i].word);
        BuildDeps deps = from_stanza(st, config);
        // apt's notes on the choice ("Selected version ..."), before its own.
        deps.notes.insert(deps.notes.begin(), chosen[i].notes.begin(), chosen[i].notes.end());
        if (deps.source.empty()) deps.source = chosen[i].package;
        deps.release = by_name[i].release;  // "name/release" (not -t: that is the policy's)
        deps.placeholder = "builddeps:" + deps.source;
        out[slot[i]] = std::move(deps);
    }
    return out;
}

}  // namespace aptus::install
