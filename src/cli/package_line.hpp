// What list and search print for one version: apt's
// "name/suite,suite version arch [status]" line, its JSON twin, and apt's
// progress lines ("Listing...") that come before the pager starts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/system/candidates.hpp"
#include "cli/color.hpp"

namespace aptus::cli {

enum class ListStatus {
    None,
    Installed,
    InstalledAutomatic,
    InstalledAutoRemovable,  // automatic, and nothing installed needs it any more
    InstalledLocal,       // no source offers the installed version
    InstalledUpgradable,  // the installed version; the candidate is newer
    Upgradable,           // the candidate; an older version is installed
    ResidualConfig,       // only configuration files are left
};

struct VersionView {
    const cache::Cache& cache;
    const system::Candidates& candidates;
    // Cache package indices that autoremove would take, ascending
    // (system::auto_removable_packages); nullptr: not asked.
    const std::vector<uint32_t>* auto_removable = nullptr;

    bool is_auto_removable(const cache::Package& p) const;

    // The suites (Archive) of the files offering `v`, "now" for the dpkg
    // status, in the cache's file order, as apt joins them with ','.
    std::vector<std::string> suites(const cache::Version& v) const;
    // apt prints one architecture for all versions of a package: the
    // installed version's, else the candidate's ("all" or the package's).
    std::string_view shown_architecture(const cache::Package& p) const;
    bool upgradable(const cache::Package& p) const;
    ListStatus status(const cache::Version& v) const;
    // The bracketed text, "" for None.
    std::string status_text(const cache::Version& v) const;
    // apt's line, without the newline.
    std::string line(const cache::Version& v, const Colors& colors) const;
    // APT::Cmd::format's line (with APT::Cmd::use-format): ${Package},
    // ${Architecture}, ${Version}, ${installed:Version}, ${candidate:Version},
    // ${Origin}, ${Description} and ${db::Status-Abbrev} replaced.
    std::string formatted(const cache::Version& v, std::string format) const;
    nlohmann::ordered_json json(const cache::Version& v) const;
};

// apt's progress lines on stdout: on a terminal "Listing..." is replaced
// when done (erased, as apt 3.0 does, or "... Done" with
// APT::Internal::OpProgress::EraseLines false); when quiet is 1 (the default
// on a pipe) or stdout is no terminal it is printed once with a newline;
// quiet 2 prints nothing.
class Progress {
public:
    Progress(const config::Config& config, bool silent);
    void start(std::string_view what);
    void done();

private:
    int quiet_;
    bool erase_;
    bool silent_;
    bool tty_;  // a terminal whose line is redrawn (not with quiet::NoUpdate)
    std::string current_;
};

}  // namespace aptus::cli
