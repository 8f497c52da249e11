// A goal: what a command asks of the system (install these words, remove
// those, upgrade everything, ...), read into the solver's request as apt-get
// reads it, and, once solved, the plan with what apt adds to the solver's
// answer. The same steps for every front end; install/session.hpp strings
// them together with the solver.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/install/plan.hpp"
#include "aptus/request/request.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::install {

// Satisfy: the words are relation lists (install/satisfy.hpp), met by
// installing what they need; BuildDep: the words name source packages whose
// build relations are met so (install/build_dep.hpp).
enum class Verb {
    Install, Reinstall, Remove, Purge, Upgrade, FullUpgrade, AutoRemove, AutoPurge, DselectUpgrade, Satisfy, BuildDep
};

// The command's name: "install", "full-upgrade", ...
const char* verb_name(Verb verb);

// A package named by value, for a front end that holds values rather than
// command-line text: goal_word() makes the word the request reads
// ("name[:arch][=version|/release]" and "+"/"-" for an action against the
// verb's own).
struct PackageSpec {
    std::string name;
    std::string arch;     // "" for the native one (or the only one)
    std::string version;  // "" for the candidate
    std::string release;  // "" for the candidate's; ignored when a version is given
    enum class Action { Verb, Install, Remove } action = Action::Verb;
};
std::string goal_word(const PackageSpec& spec);

struct Goal {
    Verb verb = Verb::Install;
    // The words read (request/request.hpp), with the request made of them,
    // apt's notes and errors (when any, nothing is to be solved).
    request::CommandRequest request;
    bool reinstall = false;        // named installed versions are installed again
    std::vector<uint32_t> phased;  // upgrades phasing deferred, held for this run (universe packages)
    // Satisfy, BuildDep: the placeholder packages that have the relations
    // (universe packages); never in the plan.
    std::vector<uint32_t> placeholders;
    // What meets their relations is manual afterwards, as apt has it;
    // build-dep with APT::Get::Build-Dep-Automatic: automatic.
    bool satisfiers_manual = true;
    // BuildDep: apt's notes of the release walk of "name/release", which it
    // prints once it has built the dependency tree (after `request.notes`).
    std::vector<std::string> walk_notes;
    // A target state's wishes that words cannot say (history_target.hpp):
    // the automatic mark of a package the plan changes, and the removals that
    // purge; plan_goal applies them.
    std::vector<std::pair<const cache::Package*, bool>> marks;
    std::vector<const cache::Package*> purges;
};

// Reads `words` for `verb` against `su` (which it changes as apt changes its
// depcache: candidates, holds), with the configuration's settings (apt's
// keys: Install-Recommends, Purge, AutomaticRemove, ReInstall,
// Upgrade-Allow-New, Aptus::Cmd::AutoRemove for --autoremove, phasing).
// DselectUpgrade takes dpkg's selections instead of words.
Goal read_goal(const config::Config& config, system::SystemUniverse& su, const cache::Cache& cache,
               const system::Candidates& candidates, Verb verb, std::span<const std::string> words);

// The plan of a solved goal: the solver's changes, then what apt adds
// (configuration-file purges, reinstalls, required reinstalls), in dpkg's
// order, with the goal's marks and purges. `errors` gets apt's errors for
// what cannot be added (a package dpkg needs reinstalled that no repository
// offers).
Plan plan_goal(const system::SystemUniverse& su, const cache::Cache& cache, const system::Candidates& candidates,
               const Goal& goal, const solver::Solution& solution, std::vector<std::string>& errors);

}  // namespace aptus::install
