#include "aptus/system/changelog.hpp"

#include <sys/stat.h>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/deb/tagfile.hpp"

namespace aptus::system {
namespace {

struct SourceOf {
    std::string name, version;
};

SourceOf source_of(const cache::Cache& c, const cache::Version& v) {
    SourceOf s{std::string(c.str(v.source_name)), std::string(c.str(v.source_version))};
    if (s.name.empty()) s.name = std::string(c.name_of(c.package_of(v)));
    if (s.version.empty()) s.version = std::string(c.str(v.version));
    return s;
}

// "main/libb/libbar/libbar_1.0": the component, the pool's prefix ("lib"
// and one more letter for lib*), the source and its version without epoch.
std::string change_path(std::string_view component, const SourceOf& s) {
    std::string prefix = s.name.substr(0, s.name.starts_with("lib") && s.name.size() > 3 ? 4 : 1);
    std::string_view version = s.version;
    if (size_t colon = version.find(':'); colon != std::string_view::npos) version.remove_prefix(colon + 1);
    std::string path = std::string(component);
    if (size_t slash = path.rfind('/'); slash != std::string::npos) path = path.substr(slash + 1);  // "updates/main"
    return path + "/" + prefix + "/" + s.name + "/" + s.name + "_" + std::string(version);
}

// The Changelogs field of a Release file ("" when it has none or cannot be read).
std::string release_changelogs(const std::string& path) {
    std::string text;
    try {
        text = read_file(path);
    } catch (const Error&) {
        return "";
    }
    try {
        if (deb::starts_clearsigned(text)) text = deb::clearsigned_text(text, path);
        deb::TagFileReader reader(text, path);
        deb::Stanza st;
        if (reader.next(st)) return std::string(trim(st.value_or_empty("Changelogs")));
    } catch (const Error&) {
    }
    return "";
}

// The installed package's own changelog, unless it says it was cut short.
std::string local_changelog(const config::Config& config, std::string_view package) {
    const std::string dir = config.find_dir("Dir") + "usr/share/doc/" + std::string(package) + "/";
    for (const char* name : {"changelog.Debian.gz", "changelog.gz", "changelog.Debian", "changelog"}) {
        const std::string path = dir + name;
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        std::string text;
        try {
            text = read_decompressed(path);
        } catch (const Error&) {
            continue;
        }
        if (text.find("# To read the complete changelog use `apt changelog") != std::string::npos) return "";
        return path;
    }
    return "";
}

}  // namespace

std::string changelog_unavailable(const cache::Cache& cache, const cache::Version& version) {
    const SourceOf s = source_of(cache, version);
    return "Changelog unavailable for " + s.name + "=" + s.version;
}

ChangelogSource changelog_source(const cache::Cache& cache, const config::Config& config, const cache::Version& version) {
    const cache::Package& p = cache.package_of(version);
    ChangelogSource out;
    const SourceOf source = source_of(cache, version);
    out.file_name = source.name + ".changelog";

    // The first repository file of the version with a Release: its facts.
    const cache::IndexFile* index = nullptr;
    const cache::Release* release = nullptr;
    for (const cache::VersionFile& f : cache.files_of(version)) {
        const cache::IndexFile& i = cache.index_files()[f.index_file];
        if (i.kind != cache::IndexKind::Packages || i.release == cache::kNone) continue;
        index = &i;
        release = &cache.releases()[i.release];
        break;
    }
    const std::string origin = release ? std::string(cache.str(release->origin)) : "";
    const std::string label = release ? std::string(cache.str(release->label)) : "";

    if (cache.current_version(p) == &version) {
        const bool online = config.find_bool("Acquire::Changelogs::AlwaysOnline", true) ||
                            (!origin.empty() && config.find_bool("Acquire::Changelogs::AlwaysOnline::Origin::" + origin, false));
        if (!online)
            if (std::string local = local_changelog(config, cache.name_of(p)); !local.empty()) {
                out.uri = "copy://" + local;
                return out;
            }
    }

    std::string tmpl;
    auto from_config = [&](const std::string& key) {
        if (tmpl.empty()) tmpl = config.find(key);
    };
    if (release) {
        if (!label.empty()) from_config("Acquire::Changelogs::URI::Override::Label::" + label);
        if (!origin.empty()) from_config("Acquire::Changelogs::URI::Override::Origin::" + origin);
        bool refused = false;
        if (tmpl.empty()) {
            tmpl = release_changelogs(std::string(cache.str(release->path)));
            refused = tmpl == "no";
            if (refused) tmpl.clear();
        }
        if (!refused) {
            if (!label.empty()) from_config("Acquire::Changelogs::URI::Label::" + label);
            if (!origin.empty()) from_config("Acquire::Changelogs::URI::Origin::" + origin);
        }
    }
    const std::string marker = "@CHANGEPATH@";
    const size_t at = tmpl.find(marker);
    if (at == std::string::npos || !index) {
        out.uri = "changelog:/" + out.file_name;
        out.unavailable = changelog_unavailable(cache, version);
        return out;
    }
    out.uri = tmpl.substr(0, at) + change_path(cache.str(index->component), source) + tmpl.substr(at + marker.size());
    return out;
}

}  // namespace aptus::system
