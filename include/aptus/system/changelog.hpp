// Where `apt-get changelog` gets a version's changelog from, as apt decides
// it: a URI made from a template with @CHANGEPATH@ (component/prefix/source/
// source_version, the epoch left out: "main/libb/libbar/libbar_1.0") taken,
// first found, from Acquire::Changelogs::URI::Override::Label::<label>, then
// ::Override::Origin::<origin>, the Release file's Changelogs field ("no":
// none), Acquire::Changelogs::URI::Label::<label>, ::Origin::<origin> (apt's
// defaults name Debian's and Ubuntu's services). An installed version whose
// own changelog is under /usr/share/doc/<package>/ is read from there
// (copy:) when Acquire::Changelogs::AlwaysOnline (or its ::Origin::<origin>
// form) is false, unless that file says it was cut short (apt's "apt
// changelog" line).
#pragma once

#include <string>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"

namespace aptus::system {

struct ChangelogSource {
    std::string file_name;  // "<source>.changelog", as apt names the download
    std::string uri;        // where it comes from; apt's "changelog:/<file_name>" when nowhere
    // When there is nowhere: apt's "Changelog unavailable for <source>=<version>".
    std::string unavailable;
};

ChangelogSource changelog_source(const cache::Cache& cache, const config::Config& config, const cache::Version& version);

// "Changelog unavailable for <source>=<version>": apt's reason, also after
// a failed fetch.
std::string changelog_unavailable(const cache::Cache& cache, const cache::Version& version);

}  // namespace aptus::system
