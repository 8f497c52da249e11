// `aptus history`: the entries of apt's history.log (apt's and aptus's
// runs alike) as a list, one entry in full (`info N`), or undone
// (`undo N`: the inverse request of install::undo_words handed to `install`, so it is solved,
// shown and carried out as any install is). Text or --json
// (docs/json/history.md).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/system/history_log.hpp"
#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> history_options();
int run_history(Context& ctx);

}  // namespace aptus::cli
