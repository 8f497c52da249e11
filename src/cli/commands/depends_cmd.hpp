// `depends` and `rdepends` (apt-cache depends / rdepends): a version's
// dependencies or a package's reverse dependencies, with the providers
// that can satisfy each; --recurse, --installed, --important.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> depends_options();
int run_depends(Context& ctx);
int run_rdepends(Context& ctx);

}  // namespace aptus::cli
