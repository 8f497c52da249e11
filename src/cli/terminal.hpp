// What the program needs to know about the terminal it writes to.
#pragma once

#include "aptus/config/config.hpp"

namespace aptus::cli {

bool is_terminal(int fd);

// The width of the screen the user reads, for commands that fit lines to it.
// While a pager runs stdout is a pipe, so this asks the terminal the pager
// writes to (see remember_screen); without a terminal: $COLUMNS, else 80.
int terminal_columns();

// The descriptor that reaches the user's screen; the pager sets it while it
// owns stdout and resets it (to -1: "stdout") when it finishes.
void remember_screen(int fd);

// apt's quiet level: the setting, else 1 when the screen (stdout, or the
// terminal a running pager writes to) is not a terminal.
int effective_quiet(const config::Config& config);

}  // namespace aptus::cli
