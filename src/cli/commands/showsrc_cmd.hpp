// `showsrc` (apt showsrc, apt-cache showsrc): the Sources records of source
// packages named on the command line or building the binaries named there.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> showsrc_options();
int run_showsrc(Context& ctx);

}  // namespace aptus::cli
