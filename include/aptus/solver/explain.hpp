// Why a request cannot be met: the facts (clauses) of the solver's final
// conflict, each told as one sentence a person can check, in the order they
// were derived, with what the user could change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver {

// Where a clause came from. `version`/`other` are versions, `dep` an index
// into the version's deps; unused members are 0.
struct Reason {
    ReasonKind kind;
    uint32_t package;
    uint32_t version;
    uint32_t other;
    uint32_t dep;
};

// The facts of the conflict, each once, in the order they were derived.
std::vector<Fact> explain_facts(const Universe& u, const Request& r, const std::vector<Reason>& core);

// "Unable to satisfy the request..." then one numbered fact per line, and
// what the user could change.
std::string explain(const Universe& u, const Request& r, const std::vector<Reason>& core);

}  // namespace aptus::solver
