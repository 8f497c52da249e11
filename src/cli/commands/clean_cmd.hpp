// `aptus clean` and `aptus autoclean`, as apt-get's.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_clean(Context& ctx);
int run_autoclean(Context& ctx);

}  // namespace aptus::cli
