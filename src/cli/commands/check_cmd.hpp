// `aptus check`, as apt-get check: the installed system's broken
// dependencies in apt's report, exit 100 when there are any.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_check(Context& ctx);

}  // namespace aptus::cli
