// `search`: packages whose name or description matches every term, as apt
// search prints them (or --json).
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> search_options();
int run_search(Context& ctx);

}  // namespace aptus::cli
