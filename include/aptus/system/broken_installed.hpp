// What is broken in the installed system as it is now (apt-get check): every
// installed version whose Depends/Pre-Depends no installed version meets, or
// whose Conflicts/Breaks an installed version hits, with each of its
// important relations that is not met, as apt's report of broken packages
// lists them. Plain values; the front end prints them.
#pragma once

#include <string>
#include <vector>

#include "aptus/system/system_universe.hpp"

namespace aptus::system {

struct BrokenTarget {
    std::string name;      // "foo", "foo:i386", "foo:any" (apt's full name of the target package)
    std::string relation;  // "(>= 1.0)" or ""
    // What apt says after it: nothing for a virtual name, else the installed
    // version or why there is none.
    // ToBeInstalled and NotGoingToBeInstalled describe the state a request's
    // marking leaves (broken_after_failed_request).
    enum class State { Virtual, Installed, NotInstalled, NotInstallable, ToBeInstalled, NotGoingToBeInstalled } state =
        State::Virtual;
    std::string installed_version;  // State::Installed, State::ToBeInstalled
};

struct BrokenRelation {
    std::string kind;  // apt's names: "Depends", "PreDepends", "Conflicts", "Breaks", "Recommends"
    std::vector<BrokenTarget> alternatives;
};

struct BrokenPackage {
    std::string name;  // "foo", or "foo:arch" when not of the native architecture
    std::vector<BrokenRelation> relations;
    bool installed = false;  // the broken version is the installed one (not one a request brings)
};

// The broken installed packages, by name. `install_recommends`: an unmet
// Recommends is listed too (never the reason a package is broken).
std::vector<BrokenPackage> broken_installed(const SystemUniverse& su, bool install_recommends);

// What of it a request leaves broken (apt's check after marking what was
// named, before any solver: named removals gone, named installs at their
// candidate). Empty when nothing is broken now.
std::vector<BrokenPackage> broken_after_request(const SystemUniverse& su, const solver::Request& request,
                                                bool install_recommends);

// What apt-get lists under "The following packages have unmet
// dependencies:" when a request cannot be met: apt's marking of the request
// (named removals gone, named installs at their candidate, their
// dependencies marked through the first alternative that can be installed)
// and every version it leaves with an important relation unmet, each
// target described against that state. `follow_dependencies` false: the
// named ones alone, as apt leaves them for an external solver.
// `spare_held`: a dependency is not followed to an upgrade that would break
// a held package (what apt's marking leaves for solver3, which runs no
// problem resolver after it to force that upgrade).
std::vector<BrokenPackage> broken_after_failed_request(const SystemUniverse& su, const solver::Request& request,
                                                       bool install_recommends, bool follow_dependencies = true,
                                                       bool spare_held = false);

}  // namespace aptus::system
