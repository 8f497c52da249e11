// `aptus clean`, `aptus autoclean` and `aptus distclean`, as apt-get's.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_clean(Context& ctx);
int run_autoclean(Context& ctx);
// clean, and the lists too (acquire/lists_clean.hpp says which stay).
int run_distclean(Context& ctx);

}  // namespace aptus::cli
