// --mark-auto (APT::Get::Mark-Auto): the packages an install names are
// recorded as automatically installed, as apt-get install --mark-auto does;
// the plan itself is the same.
#pragma once

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/commands/plan_cmd.hpp"
#include "aptus/request/request.hpp"

namespace aptus::cli {

// With APT::Get::Mark-Auto set: every change of a package `request` names
// to install becomes automatic, and none of them is made manual.
void apply_mark_auto(const config::Config& config, const system::SystemUniverse& su, const cache::Cache& cache,
                     request::CommandRequest& request, Plan& plan);

}  // namespace aptus::cli
