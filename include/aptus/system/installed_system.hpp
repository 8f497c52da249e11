// Questions about the installed system that need no solving: which
// automatically installed packages nothing keeps any more (apt list's
// [installed,auto-removable]). Only installed versions take part
// (installed_universe()), because a package is kept only through what is
// installed.
#pragma once

#include <cstdint>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::system {

// The autoremove settings of a request from the configuration:
// APT::NeverAutoRemove, APT::AutoRemove::RecommendsImportant/SuggestsImportant.
void apply_autoremove_settings(const config::Config& config, solver::Request& request);

// What the configuration adds to a request read from an EDSP scenario, as
// `aptus internal-solver` (aptus-solver) applies it before solving: the
// autoremove settings, APT::Solver::RemoveManual, and APT::Install-Recommends,
// APT::Install-Suggests and APT::Solver::Strict-Pinning where set.
void apply_solver_settings(const config::Config& config, solver::Request& request);

// Cache package indices of the installed, automatically installed packages
// that no manual, essential or protected package reaches any more, ascending.
std::vector<uint32_t> auto_removable_packages(const cache::Cache& cache, const config::Config& config);

}  // namespace aptus::system
