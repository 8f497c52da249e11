// `policy`: priorities of package files and versions, as apt-cache policy.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> policy_options();
int run_policy(Context& ctx);

}  // namespace aptus::cli
