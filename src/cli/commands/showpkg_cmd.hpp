// `showpkg` (apt-cache showpkg): apt's debugging view of package records:
// versions with their files and descriptions, reverse dependencies,
// dependencies, provides and reverse provides.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_showpkg(Context& ctx);

}  // namespace aptus::cli
