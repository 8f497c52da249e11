// APT's External Dependency Solver Protocol (EDSP 0.5): a scenario in (the
// request stanza, then one stanza per version), an answer out (Install/Remove/
// Autoremove stanzas by APT-ID, or one Error stanza), Progress stanzas between.
#pragma once

#include <string>
#include <string_view>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver {

struct Scenario {
    Universe universe;
    Request request;
};

// Parses a whole scenario; the universe keeps `text` and reads each
// version's relations from it when the solver first looks at them. Throws
// aptus::Error "<name>:<line>: ..." on bad input (relations: when read).
Scenario read_edsp(std::string text, std::string_view name = "<stdin>");

// The scenario as EDSP 0.5 text (what apt hands an external solver): the
// request stanza, then every version of `u` with the policy's facts and its
// relations. read_edsp() of the text gives the same universe and request.
std::string format_edsp_scenario(const Universe& u, const Request& r);

// The answer stanzas. With `verbose`, each carries Package/Architecture/Version too.
std::string format_edsp_solution(const Universe& u, const Solution& s, bool verbose = false);
// "Error: <id>" with the message as a multi-line Message: field.
std::string format_edsp_error(std::string_view id, std::string_view message);
// "Progress: <RFC 2822 date>" with a percentage and a message.
std::string format_edsp_progress(int percent, std::string_view message);

}  // namespace aptus::solver
