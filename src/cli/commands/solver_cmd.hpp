#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

// Hidden `internal-solver [FILE]`: the EDSP solver. Reads a scenario from FILE
// (any compression) or stdin, writes Progress stanzas and the answer — or an
// Error stanza — on stdout and exits 0, as EDSP wants. A two-line shell
// script in /usr/lib/apt/solvers/ (`exec aptus internal-solver`) lets apt
// use it: `apt-get --solver aptus ...`.
int run_internal_solver(Context& ctx);

}  // namespace aptus::cli
