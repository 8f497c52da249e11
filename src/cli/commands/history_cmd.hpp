// `aptus history`: the entries of apt's history.log (apt's and aptus's
// runs alike) as a list, one entry in full (`info N`), or undone
// (`undo N`: the inverse request handed to `install`, so it is solved,
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

// The install words that undo an entry: what it installed goes
// ("name-"), what it upgraded, downgraded, removed or purged comes back at
// the version it had before ("name=old"). Packages of the native
// architecture lose history's ":arch", others keep it ("name:i386-").
// Reinstalls are not undone. Empty when there is nothing to undo.
std::vector<std::string> undo_words(const system::HistoryEntry& entry, std::string_view native_architecture);

}  // namespace aptus::cli
