// `update`: fetch, verify and store the package lists (as apt update), then
// rebuild the cache and say how many packages can be upgraded.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> update_options();
int run_update(Context& ctx);

}  // namespace aptus::cli
