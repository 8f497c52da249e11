// `list`: packages by name glob, as apt list prints them (or --json).
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> list_options();
int run_list(Context& ctx);

}  // namespace aptus::cli
