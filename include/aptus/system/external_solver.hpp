// The solver APT::Solver names (`--solver NAME`), as APT 3.0 picks it:
// aptus's own for "", "internal", "3.0", "3.1" (apt 3.0 takes the next
// version's name too) and "aptus"; any other name is an
// external EDSP solver, the program NAME in the first directory of
// Dir::Bin::Solvers (a list; /usr/lib/apt/solvers when unset) that holds
// it. The program gets the scenario on stdin and answers on stdout
// (edsp/edsp.hpp reads the answer); its stderr is ours. `dump` with no
// program of that name is built in: it writes the scenario to
// $APT_EDSP_DUMP_FILENAME and answers an Error stanza, as apt's dump
// solver does.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::system {

// The external solver APT::Solver names, or "" for aptus's own solver.
std::string external_solver_name(const config::Config& config);

// The program of external solver `name`: the first directory of
// Dir::Bin::Solvers holding a regular file of that name (apt's rule; a name
// with a '/' is taken as a path of its own), or nullopt.
std::optional<std::string> find_external_solver(const config::Config& config, std::string_view name);

struct SolveOutcome {
    solver::Solution solution;  // what make_plan takes, when solution.solved
    bool external = false;
    // When an external solver answered an Error stanza: apt's report of it
    // ("The solver encountered an error of type: ..." and the message), for
    // stderr before the errors.
    std::string report;
    // When !solution.solved: apt's E: lines (without "E: "), in order.
    std::vector<std::string> errors;
    Diagnostics diagnostics;  // warnings about what an answer held that was skipped
};

// Runs the external solver `name` (program `program`, or the built-in dump
// when `program` is empty) on the request over the system.
SolveOutcome run_external_solver(std::string_view name, const std::string& program, const SystemUniverse& su,
                                 const solver::Request& request);

// The built-in dump solver on a scenario: writes it to `file` (from
// $APT_EDSP_DUMP_FILENAME) and returns the EDSP answer, always an Error
// stanza: ERR_NO_FILENAME, ERR_CREATE_FILE or ERR_JUST_DUMPING.
std::string dump_solver_answer(std::string_view scenario, const char* file);

// The request solved by the solver APT::Solver names. aptus's own writes
// the request to Dir::Log::Solver first; with an external one the scenario
// it was given is written there when it answered a solution (as apt: no
// file for a failed run; a compressed name is a warning, not written yet).
// `progress` hears "Execute external solver" just before an external
// solver starts.
SolveOutcome solve_with(const config::Config& config, const SystemUniverse& su, const solver::Request& request,
                        const std::function<void(std::string_view)>& progress = {});

}  // namespace aptus::system
