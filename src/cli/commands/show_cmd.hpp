// `show` (apt show): the records of the candidate version, or of every
// version with -a, in apt's field order with apt's added fields.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> show_options();
int run_show(Context& ctx);

}  // namespace aptus::cli
