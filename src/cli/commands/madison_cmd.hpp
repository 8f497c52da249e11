// `madison` (apt-cache madison): every version of the packages named and
// every source record, one line per index file that has it.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

// --json: the same records as data.
std::span<const OptionSpec> madison_options();
int run_madison(Context& ctx);

}  // namespace aptus::cli
