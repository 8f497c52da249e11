// What a solved request does to the system, in cache terms, and the three
// ways the commands show it: apt-get -s's Inst/Conf/Remv/Purg lines, APT
// 3.0's sectioned summary (plan_view.hpp) and JSON (docs/json/plan.md).
#pragma once

#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/dpkg_order.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/plan_view.hpp"

namespace aptus::cli {

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

// apt-get -s's lines in the plan's dpkg order: "Remv x [1]" (or "Purg") at
// a removal, "Inst y [1] (2 Debian:13.8/stable [amd64])" at an unpack,
// "Conf y (...)" at a configure; after each, as apt, " [a:amd64 ]": the
// packages the step leaves broken that no step has touched yet.
std::string simulate_lines(const system::SystemUniverse& su, const cache::Cache& cache, const Plan& plan);

// The plan as APT 3.0's summary shows it.
// `kept_back`: list not_upgraded too (apt-get lists them for upgrade and
// dist-upgrade; install only counts them).
PlanView plan_view(const cache::Cache& cache, const Plan& plan, bool kept_back = false);

// apt's "Suggested packages:" and "Recommended packages:": the Suggests and
// Recommends groups of what is installed or upgraded that nothing installed
// afterwards meets, each group once ("a | b"), with the candidates' versions
// for -V (an alternative after the first shown as "| b").
void add_suggestions(const cache::Cache& cache, const system::Candidates& candidates, const Plan& plan, PlanView& view);

// The plan as JSON (docs/json/plan.md).
std::string plan_json(const cache::Cache& cache, const Plan& plan, std::string_view command);

}  // namespace aptus::cli
