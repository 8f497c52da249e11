// What a solved request does to the system, in cache terms: the changes
// (install, upgrade, downgrade, reinstall, remove or purge, with their
// automatic marks), the dpkg steps in order, and what apt adds to the
// solver's answer (reinstalls, required reinstalls, configuration-file
// purges). Front ends show a Plan (aptus: cli/plan_format.hpp) and carry it
// out with install/execute.hpp.
#pragma once

#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/request/request.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/dpkg_order.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::install {

enum class ChangeKind { Install, Upgrade, Downgrade, Reinstall, Remove };

struct Change {
    ChangeKind kind;
    const cache::Package* package;
    const cache::Version* old_version = nullptr;  // what is installed (all but Install)
    const cache::Version* new_version = nullptr;  // what comes (all but Remove)
    bool automatic = false;  // after the change (installs: pulled in, not named)
    bool purge = false;
    bool essential = false;  // an essential or protected package goes
    std::string due_to{};    // ... or one an essential package that goes depends on (apt warns of both)
    bool held = false;       // a held package changes (its hold lifted by naming it)
    bool requested = false;  // the request named it (apt-get's "additional" are the others)
    // A full upgrade's removal of an obsolete package: why it is
    // ("libfoo1t64 2.0 (source foo) replaces it", "no repository has it any more").
    std::string obsolete{};
};

// One dpkg step of the plan (system/dpkg_order.hpp), on `Plan::changes[change]`.
struct PlanStep {
    system::DpkgAction action;
    size_t change;
};

struct Plan {
    // Removals first (by name), then installs in the order dpkg unpacks
    // them (what a version Depends/Pre-Depends on comes before it).
    std::vector<Change> changes;
    // The dpkg work in order: one Unpack and one Configure per install, one
    // Remove (or Purge) per removal.
    std::vector<PlanStep> steps;
    std::vector<const cache::Version*> autoremovable;  // garbage left installed
    std::vector<const cache::Package*> not_upgraded;   // upgradable, not upgraded
    std::vector<const cache::Version*> not_upgraded_candidates;  // the version each of not_upgraded would go to
};

// `named` are the packages the request named for install (manual after it).
Plan make_plan(const system::SystemUniverse& su, const cache::Cache& cache, const system::Candidates& candidates,
               const solver::Request& request, const solver::Solution& solution,
               const std::vector<uint32_t>& unheld);

// The plan's changes as dpkg work over the universe, and in
// `config_purges` the changes that purge a package with only configuration
// files left: those are not in the universe (nothing is installed) and dpkg
// purges them first, outside the order.
system::DpkgWork plan_work(const system::SystemUniverse& su, const cache::Cache& cache, const Plan& plan,
                           std::vector<size_t>& config_purges);

// Plan::steps again from Plan::changes, after changes were added to what
// make_plan made (reinstalls, configuration-file purges).
void order_steps(const system::SystemUniverse& su, const cache::Cache& cache, Plan& plan);


// A version can be installed (again) only when a repository offers it.
bool downloadable(const cache::Cache& cache, const cache::Version& v);

// --reinstall / reinstall: the named installed versions are installed again
// (those a repository still offers; reinstall_notes says which are not).
void add_reinstalls(const cache::Cache& cache, const std::vector<const cache::Package*>& named, Plan& plan);
// apt's "Reinstallation of X is not possible, it cannot be downloaded." for
// each named package no repository offers any more.
std::vector<std::string> reinstall_notes(const cache::Cache& cache, const std::vector<const cache::Package*>& named);

// apt's pkgApplyStatus, its reinstreq half: a package dpkg marked as
// needing reinstallation (reinstreq, or half-installed: an unpack that a
// failure or a kill -9 cut short; `dpkg --configure -a` cannot finish it)
// is unpacked again from its version when a repository still offers it,
// keeping its automatic mark. Returns apt's error for each that cannot be.
std::vector<std::string> add_required_reinstalls(const cache::Cache& cache, Plan& plan);

// Packages of which only configuration files are left are purged as apt
// does; the solver never sees them (nothing of them is installed).
void add_config_purges(const cache::Cache& cache, const std::vector<const cache::Package*>& packages, Plan& plan);

// What the plan fetches from repositories that are not authenticated, by
// name, in the order of the plan.
std::vector<std::string> unauthenticated_names(const cache::Cache& cache, const Plan& plan);

// apt-get's fail-safe: with -y (or -qq) a dangerous plan (an essential
// package removed, a downgrade, a held package changed) needs its own
// switch; returns apt's error when that switch is missing.
std::vector<std::string> unconfirmed_dangers(const config::Config& config, const Plan& plan);

// --mark-auto (APT::Get::Mark-Auto): with it set, every change of a package
// `request` names to install becomes automatic, and none of them is made
// manual; the plan itself is the same.
void apply_mark_auto(const config::Config& config, const system::SystemUniverse& su, const cache::Cache& cache,
                     request::CommandRequest& request, Plan& plan);

// What the plan adds to the disk (negative: frees), in bytes, from the
// versions' Installed-Size as apt counts it ("After this operation, ...").
int64_t disk_space_change(const Plan& plan);

// apt's "Recommended packages:" and "Suggested packages:": the Recommends
// and Suggests groups of what the plan installs or upgrades that nothing
// installed afterwards meets, each group once, in the plan's order; each
// alternative with the candidate version of a package of its name ("" when
// none has one).
struct UnmetAlternative {
    std::string name;
    std::string candidate_version;
};
struct UnmetGroup {
    std::vector<UnmetAlternative> alternatives;
};
struct UnmetRelations {
    std::vector<UnmetGroup> suggested, recommended;
};
UnmetRelations unmet_relations(const cache::Cache& cache, const system::Candidates& candidates, const Plan& plan);

// Packages dpkg left unpacked, half-configured or waiting for triggers
// ("name:arch", as the dpkg operations name them), which apt counts as "not
// fully installed or removed" and configures in its next run. Read from the
// cache's install states (the cache is rebuilt whenever the status changes).
std::vector<std::string> unfinished_packages(const cache::Cache& cache);

}  // namespace aptus::install
