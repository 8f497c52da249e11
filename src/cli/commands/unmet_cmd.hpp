// `unmet` (apt-cache unmet): the versions with a dependency nothing in the
// cache can satisfy.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> unmet_options();
int run_unmet(Context& ctx);

}  // namespace aptus::cli
