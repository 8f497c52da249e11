#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> plan_test_options();

// Hidden `internal-plan-test FILE`: renders the plan described in FILE as
// APT 3.0 shows it, then refuses what apt refuses (check_allowed_changes) and
// asks "Continue?" (neither with -s), so the renderer and the prompt can be
// tested end to end before a solver feeds them. Exit 0 when the answer is
// yes, 1 after "Abort.", 100 after a refusal.
//
// FILE has one item per line ('#' starts a comment):
//   <block> <name>[:<arch>] [old=V] [new=V] [purge] [essential] [due=P]
//       block: upgrade install install-deps reinstall downgrade remove
//              held not-upgraded phased
//   suggested|recommended|autoremovable <name> [version=V]
//   download N | archives N | space N (negative: freed) | available N
//   not-upgraded-count N | broken N | boot DIR NEEDED AVAILABLE
//   warning TEXT   (a pending warning: printed, and the question defaults to no)
int run_internal_plan_test(Context& ctx);

}  // namespace aptus::cli
