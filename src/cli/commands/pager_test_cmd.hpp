#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

// Hidden `internal-pager-test N [stderr] [hold]`: the read commands' output
// path (progress, then the pager, then content) with N numbered lines, so the
// pager can be tested end to end through a terminal before those commands exist.
int run_internal_pager_test(Context& ctx);

}  // namespace aptus::cli
