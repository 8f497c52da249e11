// APT 3.0's solver3 tells why a request cannot be met as the two decisions
// it reached that conflict ("Reached two conflicting decisions: 1. X=1 is
// selected for install 2. X Depends Y but none of the choices are
// installable: [no choices]"). Scripts and APT's own tests read those
// words with `--solver 3.0`; aptus's own explanation (explain.hpp) is fuller,
// and under aptus's name that one is shown. This gives solver3's words for
// the shapes whose decisions follow from the request alone.
#pragma once

#include <optional>
#include <string>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver {

// The lines after "Unable to satisfy dependencies. Reached two conflicting
// decisions:" (each indented as apt indents them), for: two requested
// packages that conflict (their Conflicts or Breaks, or two architectures of
// one name); a requested removal that an installed Essential, protected or
// manual package depends on; a requested package with a Depends or
// Pre-Depends that no version satisfies ("[no choices]"), or whose every
// choice another requested architecture of its name excludes. nullopt for
// anything else.
std::optional<std::string> solver3_conflicting_decisions(const Universe& u, const Request& r);

}  // namespace aptus::solver
