// The installed set as apt-get -s walks the dpkg steps of a plan: after each
// unpack or removal, which packages have a Depends, Pre-Depends, Conflicts
// or Breaks the set does not meet ("broken"). apt prints them after every
// simulated step ("Remv foo [1] [bar:amd64 ]"), so a script can see where
// an order leaves the system inconsistent. Only what a step touches is
// looked at again, so a long plan costs little.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "aptus/solver/universe.hpp"

namespace aptus::system {

class SimulatedState {
public:
    // Starts from the installed versions. `planned`: every version the plan
    // may install (their relations are read up front).
    SimulatedState(const solver::Universe& u, const std::vector<uint32_t>& planned);

    // The package now has this version (an unpack) or none (a removal).
    void install(uint32_t version);
    void remove(uint32_t package);

    bool broken(uint32_t package) const { return broken_[package] != 0; }
    size_t broken_count() const { return broken_count_; }
    // The broken packages, in universe order.
    std::vector<uint32_t> broken_packages() const;
    // Of a broken package: the relations the set does not meet, each as
    // (kind, the first alternative's target) — what apt names for it.
    std::vector<std::pair<solver::DepKind, solver::Target>> unmet(uint32_t package) const;

private:
    bool evaluate(uint32_t package) const;
    void refresh(uint32_t package);
    void touched(uint32_t package, uint32_t old_version);
    void index(uint32_t version);

    const solver::Universe& u_;
    std::vector<uint32_t> state_;   // by package: its version, or none
    std::vector<uint8_t> broken_;   // by package
    size_t broken_count_ = 0;
    // By name: packages whose versions name it in a relation. A map: the
    // installed system names a few thousand of the ~100,000 names.
    std::unordered_map<uint32_t, std::vector<uint32_t>> users_;
    std::vector<uint8_t> indexed_;  // by version
};

}  // namespace aptus::system
