// Carrying out a plan the user accepted: the .debs fetched into the archives
// dir, the dpkg work ordered and run, then the state apt keeps (the
// Auto-Installed marks, history.log). The caller holds the dpkg lock from
// before it read the system until this returns, as apt does.
#pragma once

#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/command.hpp"
#include "cli/commands/plan_cmd.hpp"

namespace aptus::cli {

struct Execution {
    const system::SystemUniverse& su;
    const cache::Cache& cache;
    const Plan& plan;
    system::DpkgLock& lock;
    // Named by the request, installed and automatic until now: manual after it.
    const std::vector<const cache::Package*>& now_manual;
};

// The dpkg lock for a command that changes the system, taken as apt takes
// it: waiting as DPkg::Lock::Timeout allows, with apt's "Waiting for cache
// lock: <reason>..." line (rewritten in place on a terminal, a line a
// second elsewhere). Throws apt's errors as DpkgLock does.
system::DpkgLock take_dpkg_lock(const config::Config& config);

// Downloads, then (unless APT::Get::Download-Only) runs dpkg and writes the
// state. Returns the exit status; throws aptus::Error for what ends the run
// (a failed download, dpkg failing: with the `dpkg --configure -a` advice
// when dpkg left work unfinished).
int execute_plan(const config::Config& config, const Execution& run);

// Clears the automatic mark of `packages` in extended_states.
void write_manual_marks(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Package*>& packages);

// Packages dpkg left unpacked, half-configured or waiting for triggers
// ("name:arch", as the dpkg operations name them), which apt counts as "not
// fully installed or removed" and configures in its next run. Read from the
// cache's install states (the cache is rebuilt whenever the status changes).
std::vector<std::string> unfinished_packages(const cache::Cache& cache);

}  // namespace aptus::cli
