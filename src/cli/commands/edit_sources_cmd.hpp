// `apt edit-sources [FILE]`: the sources file in the user's editor
// (sensible-editor, else $VISUAL, $EDITOR, vi), read again afterwards as
// update reads it: a file that no longer parses is offered for another
// edit, a changed one ends with apt's advice to update.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_edit_sources(Context& ctx);

}  // namespace aptus::cli
