// `xvcg` and `dotty` (apt-cache xvcg / dotty): the dependency graph of the
// packages named (every package without names) for xvcg or GraphViz.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_xvcg(Context& ctx);
int run_dotty(Context& ctx);

}  // namespace aptus::cli
