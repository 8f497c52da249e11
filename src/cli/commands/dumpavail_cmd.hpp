// `dumpavail` (apt-cache dumpavail): the candidate of every package as a
// Packages file (what dpkg --merge-avail reads).
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_dumpavail(Context& ctx);

}  // namespace aptus::cli
