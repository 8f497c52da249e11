// The front end of install/execute.hpp: apt's lines while a plan is carried
// out (Get:, the progress line, dpkg's bar), and the dpkg lock taken as apt
// takes it.
#pragma once

#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/install/execute.hpp"
#include "aptus/system/dpkg_lock.hpp"

namespace aptus::cli {

// The dpkg lock for a command that changes the system, taken as apt takes
// it: waiting as DPkg::Lock::Timeout allows, with apt's "Waiting for cache
// lock: <reason>..." line (rewritten in place on a terminal, a line a
// second elsewhere). Throws apt's errors as DpkgLock does.
system::DpkgLock take_dpkg_lock(const config::Config& config);

// install::execute_plan with apt's output; returns the exit status: 100
// after dpkg failed (with the `dpkg --configure -a` advice). Throws other
// errors (a failed download).
int execute_plan(const config::Config& config, const install::Execution& run);

// install::write_manual_marks, its problems shown as warnings.
void write_manual_marks(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Package*>& packages);

}  // namespace aptus::cli
