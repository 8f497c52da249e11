#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> why_options();

// `why PKG`: the strongest chain of relations that keeps an installed
// package, from a manually installed (or essential, protected) one.
int run_why(Context& ctx);

// `why-not PKG`: the facts that keep a package's candidate off the system.
int run_why_not(Context& ctx);

}  // namespace aptus::cli
