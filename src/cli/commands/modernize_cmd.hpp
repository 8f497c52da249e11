#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> modernize_options();
int run_modernize_sources(Context& ctx);

}  // namespace aptus::cli
