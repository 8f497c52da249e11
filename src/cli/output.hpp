// What the program prints besides command output: diagnostics, help, version.
#pragma once

#include <string_view>

#include "aptus/base/diagnostics.hpp"

namespace aptus::cli {

// "N: ..." and "W: ..." lines on stderr, in the order they were found.
void render(const Diagnostics& diags);
// `program` is the name aptus was started under (see main.cpp): "aptus"
// gets the help generated from the command table; apt-get, apt-cache,
// apt-mark, apt-config and apt get apt's version line ("apt <version>
// (<arch>)") and a usage summary of that program.
void print_help(std::string_view program = "aptus");
void print_version(std::string_view program = "aptus");

}  // namespace aptus::cli
