// APT's External Dependency Solver Protocol (EDSP 0.5): a scenario in (the
// request stanza, then one stanza per version), an answer out (Install/Remove/
// Autoremove stanzas by APT-ID, or one Error stanza), Progress stanzas between.
// Its own module: the solver's universe knows no file format; the reader
// builds one and installs itself as its relation source.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::edsp {

struct Scenario {
    solver::Universe universe;
    solver::Request request;
};

// Parses a whole scenario; the universe's relation_source keeps each
// version's relation fields and parses them when the solver first looks at
// them. Throws aptus::Error "<name>:<line>: ..." on bad input
// (relations: when read).
Scenario read_edsp(std::string text, std::string_view name = "<stdin>");

// Where read_edsp() takes a scenario's bytes from, piece by piece: fills
// `buffer` with at most `size` bytes and returns how many, 0 at the end.
using ByteSource = std::function<size_t(char* buffer, size_t size)>;

// read_edsp() of a stream: each stanza is read once an empty line ends it,
// and of a version's stanza only its relation fields are kept (for the
// relation source), so the scenario's text is never held whole.
Scenario read_edsp(const ByteSource& source, std::string_view name);

// The scenario as EDSP 0.5 text (what apt hands an external solver): the
// request stanza (its Solver: field names `solver_name`), then every version
// of `u` with the policy's facts and its relations. read_edsp() of the text
// gives the same universe and request.
std::string format_edsp_scenario(const solver::Universe& u, const solver::Request& r, std::string_view solver_name = "aptus");

// An external solver's answer, read against the universe of the scenario it
// was given (src/aptus/edsp/answer.cpp). Apt's rules: Progress stanzas are skipped; an
// Error stanza ends the answer; a package named by two Install/Remove
// stanzas, or an Install of the version already installed, is an error; a
// Remove of what is not installed and a stanza of an unknown kind are
// warnings. Stricter than apt: an APT-ID the scenario does not hold is an
// error (apt skips it with a warning), so no part of the answer is lost
// without failing.
struct EdspAnswer {
    std::vector<uint32_t> install;     // versions, in answer order
    std::vector<uint32_t> remove;      // versions named by Remove (their packages go)
    std::vector<uint32_t> autoremove;  // versions named by Autoremove
    bool failed = false;               // an Error stanza came
    std::string error_id;              // its Error: value ("ERR_UNSOLVABLE", ...)
    std::string error_message;         // its Message:, multi-line, " ." lines empty
    std::vector<std::string> errors;    // what makes the answer unusable
    std::vector<std::string> warnings;  // what was skipped
};

// Throws aptus::Error "<name>:<line>: ..." when the text is not deb822.
EdspAnswer read_edsp_answer(std::string_view text, const solver::Universe& u, std::string_view name = "<solver>");

// The answer as a Solution: install = the Install versions; remove = the
// installed versions of the packages Remove names; selected = what is
// installed afterwards; autoremove = installed automatic packages nothing
// needs any more (autoremovable() on the new selection, with the answer's
// own Autoremove versions that stay), moved into `remove` when
// `r.autoremove`. An answer with errors, or an Error stanza, gives an
// unsolved Solution: error_id and message from the Error stanza, or
// "ERR_BAD_ANSWER" and the errors.
solver::Solution solution_from_answer(const solver::Universe& u, const solver::Request& r, const EdspAnswer& a);

// The answer stanzas. With `verbose`, each carries Package/Architecture/Version too.
std::string format_edsp_solution(const solver::Universe& u, const solver::Solution& s, bool verbose = false);
// "Error: <id>" with the message as a multi-line Message: field.
std::string format_edsp_error(std::string_view id, std::string_view message);
// "Progress: <RFC 2822 date>" with a percentage and a message.
std::string format_edsp_progress(int percent, std::string_view message);

}  // namespace aptus::edsp
