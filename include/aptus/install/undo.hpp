// Undoing a history entry: the request that puts back what it changed,
// as the words any front end's install takes (request/request.hpp), so it
// is solved, shown and carried out as any install is. The same as
// target_words(undo_target(...)) of install/history_target.hpp, which also
// has redo and rollback and the marks the log gives.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/system/history_log.hpp"

namespace aptus::install {

// The install words that undo an entry: what it installed goes
// ("name-"), what it upgraded, downgraded, removed or purged comes back at
// the version it had before ("name=old"). Packages of the native
// architecture lose history's ":arch", others keep it ("name:i386-").
// Reinstalls are not undone. Empty when there is nothing to undo.
std::vector<std::string> undo_words(const system::HistoryEntry& entry, std::string_view native_architecture);


}  // namespace aptus::install
