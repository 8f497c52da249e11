// The order of the dpkg work a solved plan needs: which package is unpacked,
// configured or removed when, so that dpkg accepts every step and essential
// packages stay usable throughout. A pure function over solver::Universe
// versions; the install command and the dpkg driver turn the steps into
// dpkg calls, and apt-get -s's Inst/Conf/Remv lines follow the same order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/solver/universe.hpp"

namespace aptus::system {

enum class DpkgAction : uint8_t { Unpack, Configure, Remove, Purge };

std::string_view dpkg_action_name(DpkgAction a);  // "unpack", "configure", "remove", "purge"

// A solver::Universe version: the new one for Unpack/Configure, the installed
// one for Remove/Purge.
struct DpkgStep {
    DpkgAction action;
    uint32_t version;
    bool operator==(const DpkgStep&) const = default;
};

// Universe versions, as solver::Solution gives them: `install` the versions
// that come (new, upgrade, downgrade, reinstall); `remove` and `purge` the
// installed versions whose package goes away.
struct DpkgWork {
    std::vector<uint32_t> install;
    std::vector<uint32_t> remove;
    std::vector<uint32_t> purge;
};

// Every install gets one Unpack and one Configure, every removal one Remove
// or Purge (none for an installed version its package's install replaces:
// dpkg upgrades in place). The rules are in ARCHITECTURE.md (system module).
std::vector<DpkgStep> order_dpkg_work(const solver::Universe& universe, const DpkgWork& work);

// Replays `steps` over the installed state of `universe` (each package
// not-installed, unpacked or configured) and returns one line per broken
// rule, empty when the order is right: every install unpacked then
// configured exactly once and every removal done once; a version's
// Pre-Depends configured when it is unpacked and its Depends when it is
// configured (configured by this plan, or installed and not touched yet;
// within a dependency cycle, unpacked members count, and so do those a run
// of consecutive Configure steps — one dpkg call — configures); no
// Conflicts between two packages present at once, and nothing configured
// while a package that Breaks it is on disk (what the unpacked package
// Breaks is unconfigured, as dpkg --auto-deconfigure does, and must be
// configured again or removed); nothing removed while a configured package
// still needs it, unless the removed package Breaks that package's coming
// version; Multi-Arch: same siblings configured at one version; nothing
// left unconfigured.
std::vector<std::string> validate_dpkg_order(const solver::Universe& universe, const DpkgWork& work,
                                             const std::vector<DpkgStep>& steps);

}  // namespace aptus::system
