// dpkg's selections (hold, install, deinstall, purge), set as apt-mark sets
// them: dpkg refuses a selection for a package it has never seen, so such a
// package that is to be held or installed first gets a placeholder record
// (`dpkg --merge-avail`), then `dpkg --set-selections` takes them all.
#pragma once

#include <string>
#include <vector>

#include "aptus/config/config.hpp"

namespace aptus::system {

struct DpkgSelection {
    std::string package;       // the name
    std::string architecture;  // the version's ("all" included): it names the package for dpkg
    std::string want;          // "hold", "install", "deinstall" or "purge"
    bool known_to_dpkg = false;  // installed: dpkg has a record of it
};

// Runs Dir::Bin::dpkg with DPkg::Options, as apt-mark does; dpkg's messages
// go to our stderr (and its output to our stdout). Throws apt-mark's
// "Executing dpkg failed. Are you root?" when dpkg fails.
void set_dpkg_selections(const config::Config& config, const std::vector<DpkgSelection>& selections);

}  // namespace aptus::system
