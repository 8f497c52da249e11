// What the program prints besides command output: diagnostics, help, version.
#pragma once

#include "aptus/base/diagnostics.hpp"

namespace aptus::cli {

// "N: ..." and "W: ..." lines on stderr, in the order they were found.
void render(const Diagnostics& diags);
void print_help();
void print_version();

}  // namespace aptus::cli
