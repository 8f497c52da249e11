// The three ways the commands show a plan (install/plan.hpp): apt-get -s's
// Inst/Conf/Remv/Purg lines, APT 3.0's sectioned summary (plan_view.hpp)
// and JSON (docs/json/plan.md).
#pragma once

#include <string>
#include <string_view>

#include "aptus/cache/cache.hpp"
#include "aptus/install/plan.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/plan_view.hpp"

namespace aptus::cli {

// apt-get -s's lines in the plan's dpkg order: "Remv x [1]" (or "Purg") at
// a removal, "Inst y [1] (2 Debian:13.8/stable [amd64])" at an unpack,
// "Conf y (...)" at a configure; after each, as apt, " [a:amd64 ]": the
// packages the step leaves broken that no step has touched yet.
std::string simulate_lines(const system::SystemUniverse& su, const cache::Cache& cache, const install::Plan& plan);

// The plan as APT 3.0's summary shows it.
// `kept_back`: list not_upgraded too (apt-get lists them for upgrade and
// dist-upgrade; install only counts them).
PlanView plan_view(const cache::Cache& cache, const install::Plan& plan, bool kept_back = false);

// apt's "Suggested packages:" and "Recommended packages:": the Suggests and
// Recommends groups of what is installed or upgraded that nothing installed
// afterwards meets, each group once ("a | b"), with the candidates' versions
// for -V (an alternative after the first shown as "| b").
void add_suggestions(const cache::Cache& cache, const system::Candidates& candidates, const install::Plan& plan, PlanView& view);

// The plan as JSON (docs/json/plan.md).
std::string plan_json(const cache::Cache& cache, const install::Plan& plan, std::string_view command);

// --json when there is no plan: "solved": false, an "error" object (kind:
// "request" for words that name nothing, "unsolvable" for a request no plan
// meets; and its message), the solver's facts as data and the suggested
// request's words ("suggestion", when there is one). The exit status stays
// the error's.
std::string no_plan_json(std::string_view command, std::string_view kind, const std::vector<std::string>& errors,
                         const std::vector<solver::Fact>& facts, const std::vector<std::string>& suggestion);

}  // namespace aptus::cli
