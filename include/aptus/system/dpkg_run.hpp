// Driving dpkg as apt does: the ordered operations become dpkg calls
// (consecutive operations of one action in one call), with the hooks of
// DPkg::Pre-Invoke, DPkg::Pre-Install-Pkgs and DPkg::Post-Invoke around
// them, progress read from dpkg's --status-fd, dpkg's own output copied to
// the caller and appended to term.log (dpkg on a pty of its own when our
// stdout is a terminal, as with apt). The rules and where aptus differs
// from apt are in ARCHITECTURE.md (system module, "The dpkg driver").
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/dpkg_order.hpp"

namespace aptus::system {

struct DpkgOperation {
    DpkgAction action;
    std::string package;  // "name:arch"
    // Unpack/Configure: the version that comes; Remove/Purge: the one that goes.
    std::string version;
    std::string archive;  // Unpack: the absolute path of the .deb
    // Remove/Purge of an Essential (or Protected) package the user allowed
    // (--allow-remove-essential): that dpkg call gets --force-remove-essential.
    bool essential = false;
    // The coming version's Multi-Arch ("same", "foreign", "allowed"; empty is
    // "none"): only DPkg::Pre-Install-Pkgs hooks of version 3 see it.
    std::string multi_arch;
};

struct DpkgObserver {
    // Steps done / total steps as apt counts them, 0..100, never 100 before
    // the end; action_text is apt's ("Unpacking foo (amd64)", "Configuring foo").
    std::function<void(double percent, std::string_view action_text)> progress;
    // dpkg's own output (stdout and stderr, as it comes). When unset it is
    // written to our stdout. Either way it is appended to term.log.
    std::function<void(std::string_view bytes)> output;
    // Rows at the bottom of the terminal the caller keeps for itself (the
    // progress bar's): dpkg's pty is that much shorter than the terminal.
    int reserved_rows = 0;
};

// Runs the hooks and dpkg for `ops` (in order). `lock`, when given, is the
// frontend lock the caller holds: dpkg then gets DPKG_FRONTEND_LOCKED and
// the inner lock for the time of each call. Without it dpkg locks for itself.
// Throws aptus::Error: "Sub-process /usr/bin/dpkg returned an error code (1)"
// (the path as configured in Dir::Bin::dpkg) when dpkg fails, apt's
// "Sub-process <hook> returned an error code (N)" when a Pre-Invoke hook
// does, "Failure running script <hook>" for Pre-Install-Pkgs. SIGINT,
// SIGTERM, SIGQUIT and SIGHUP do not stop a running dpkg call; an
// interrupt stops the run before the next unpack or removal call
// ("Operation was interrupted before it could finish").
void run_dpkg(const config::Config& config, const std::vector<DpkgOperation>& ops, const DpkgObserver& observer,
              DpkgLock* lock = nullptr);

// The argument lists run_dpkg would give dpkg, one per call, without the
// "--status-fd N" pair (which names a descriptor of the moment). For tests
// and for -o Debug::pkgDPkgPM style dry runs.
std::vector<std::vector<std::string>> dpkg_command_lines(const config::Config& config,
                                                         const std::vector<DpkgOperation>& ops);

}  // namespace aptus::system
