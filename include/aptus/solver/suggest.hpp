// For a request the solver cannot meet: one changed request that it can,
// found by trying the changes the conflict's facts point at and solving each
// (so a suggestion is never a guess), and the words of the command line
// that makes it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aptus/solver/explain.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver {

// What must go with the request's removals that the user has to name: the
// manually installed packages (solver3 keeps those unless named) and the
// Essential or protected ones (`vital`: they also need
// --allow-remove-essential), in the order they join the closure (see
// suggest.cpp). Automatic packages go by themselves and are left out.
struct RemovalBlocker {
    uint32_t package;
    bool vital;
};
std::vector<RemovalBlocker> removal_blockers(const Universe& u, const Request& r);

struct Suggestion {
    Request request;
    // The command's words: "install", "postfix", "exim4-", "--no-strict-pinning".
    std::vector<std::string> words;
};

// Solves a changed request: nothing when it succeeds, else the facts of its
// conflict (empty when the solver gave up).
using TrySolve = std::function<std::optional<std::vector<Reason>>(const Request&)>;

// The first of these changes that `try_solve` meets, the smallest first:
// a removal with everything that must go with it (Essential packages with
// --allow-remove-essential); the held packages named (which lifts their
// holds); --no-strict-pinning when a fact rules a version out only by it;
// the manual packages the request runs into removed as well, and those a
// try then runs into, round after round; one of the requested packages
// left out (never all of them). At most eight solves.
std::optional<Suggestion> suggest_request(const Universe& u, const Request& r, const std::vector<Reason>& core,
                                          const TrySolve& try_solve);

// The words of a request as a command line of apt's syntax (after the
// program's name): the verb, the packages (name=version where the
// request's version is not the one the policy prefers), the switches.
std::vector<std::string> request_words(const Universe& u, const Request& r);

}  // namespace aptus::solver
