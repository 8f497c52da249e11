// APT 3.0's solver3 tells why a request cannot be met as the two decisions
// it reached that conflict ("Reached two conflicting decisions: 1. X=1 is
// selected for install 2. X Depends Y but none of the choices are
// installable: [no choices]"). Scripts and APT's own tests read those
// words with `--solver 3.0`; aptus's own explanation (explain.hpp) is fuller,
// and under aptus's name that one is shown. The decisions come from a replay
// of solver3 (solver3_trail.hpp); this file says them as solver3 does (its
// chains of reasons, "[selected ...]", "For context, ...", "as above").
#pragma once

#include <optional>
#include <string>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver {

// The lines after "Unable to satisfy dependencies. Reached two conflicting
// decisions:" (each indented as apt indents them): the conflict the replay
// reaches. A request with removals is first matched against the shapes
// solver3 was seen to give for them (a removal an Essential, protected or
// manual package depends on), which the replay does not model yet; other
// shapes of the request alone are the fallback when the replay finds no
// conflict. nullopt when neither has words for it.
std::optional<std::string> solver3_conflicting_decisions(const Universe& u, const Request& r);

}  // namespace aptus::solver
