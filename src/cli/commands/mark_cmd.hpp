// `aptus mark`: apt-mark's auto, manual, hold, unhold, showauto,
// showmanual and showhold, with its messages, its exit codes and its
// writes (extended_states through system::write_auto_marks, selections
// through `dpkg --set-selections`).
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> mark_options();
int run_mark(Context& ctx);

}  // namespace aptus::cli
