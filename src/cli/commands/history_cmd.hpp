// `aptus history`: the entries of apt's history.log (apt's and aptus's
// runs alike) as a list, one entry in full (`info N`), undone (`undo N`),
// done again (`redo N`) or every entry after one undone (`rollback N`): the
// target state of install/history_target.hpp handed to install's path
// (run_install_target), so it is solved, shown and carried out as any
// install is. Text or --json (docs/json/history.md).
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

// Columns a text takes (one a UTF-8 character).
size_t column_width(std::string_view text);
// `text` in exactly `width` columns: padded with spaces, or cut with "…"
// as its last column when longer.
std::string fit_column(const std::string& text, size_t width);

}  // namespace aptus::cli
