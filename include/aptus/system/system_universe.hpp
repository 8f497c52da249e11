// The system as the solver sees it: a solver::Universe built from the binary
// cache, the dpkg status and the policy. One builder serves two scopes: every
// version in the cache (what install, upgrade, why-not reason about) or only
// the installed ones (what autoremove marking needs, a few hundred versions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::system {

struct SystemUniverse {
    solver::Universe universe;
    std::vector<uint32_t> cache_version;     // universe version -> cache version index
    std::vector<uint32_t> universe_version;  // cache version index -> universe version, or cache::kNone
    std::vector<uint32_t> universe_package;  // cache package index -> universe package, or cache::kNone

    // The universe version of a cache version, when it is in the universe.
    std::optional<uint32_t> version_of(uint32_t cache_version_index) const;
    // The universe package of a cache package, when one of its versions is.
    std::optional<uint32_t> package_of(uint32_t cache_package_index) const;
};

// Every version in the cache, installed and available: relations, provides,
// multi-arch, essential/protected, automatic marks (extended_states), holds
// (dpkg selection `hold`), each version's pin priority and each package's
// candidate as `candidates` computed them.
SystemUniverse system_universe(const cache::Cache& cache, const Candidates& candidates);

// Only the installed versions, each its own candidate at priority 100.
SystemUniverse installed_universe(const cache::Cache& cache);

// Puts the universe's architectures in the configured order
// (APT::Architectures, the native one first): where several architectures
// of one package would do, apt takes them in that order.
void order_architectures(solver::Universe& u, const std::vector<std::string>& configured);

// Writes `request` on the system as an EDSP 0.5 scenario to `path`
// (atomically, uncompressed; a compressed file name is refused), so a
// request can be replayed with aptus-solver or any of apt's solvers. This
// is what apt's `Dir::Log::Solver` does for its own requests.
void dump_edsp_request(const SystemUniverse& su, const solver::Request& request, const std::string& path);

}  // namespace aptus::system
