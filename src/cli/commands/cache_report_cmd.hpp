// apt-cache's reports on the cache itself: `stats` (counts and sizes),
// `dump` (every package, version and file) and `gencaches` (build the
// cache, print nothing).
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_stats(Context& ctx);
int run_dump(Context& ctx);
int run_gencaches(Context& ctx);

}  // namespace aptus::cli
