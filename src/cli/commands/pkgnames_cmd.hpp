// `pkgnames` (apt-cache pkgnames [PREFIX]): the package names, one a line.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_pkgnames(Context& ctx);

}  // namespace aptus::cli
