// Phased updates on this system: the phasing rule the configuration and the
// machine give (policy/phasing.hpp), and which upgrades apt's upgrade
// commands defer because of it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/policy/phasing.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::system {

// apt's machine id: APT::Machine-ID, else the first line of
// Dir::Etc::machine-id, else of <Dir::Etc>/../machine-id ("" when unreadable).
std::string machine_id(const config::Config& config);

// apt's rule, in apt's order: APT::Get::Always-Include-Phased-Updates (or
// Update-Manager's key), then Never-Include, then everyone when there is no
// machine id, SOURCE_DATE_EPOCH is set or `Dir::Bin::ischroot -t` says this
// is a chroot; else the machine's draw. APT::Get::Phase-Policy as by_policy.
policy::Phasing phasing_from_config(const config::Config& config);

// The installed packages (cache package indices, ascending) whose upgrade
// to the candidate apt's upgrade and dist-upgrade defer: a phased candidate
// this machine does not take yet, unless a version between the installed
// one and the candidate comes from a "-security" suite. None under
// APT::Get::Phase-Policy (the priorities already left those candidates out).
std::vector<uint32_t> deferred_by_phasing(const cache::Cache& cache, const Candidates& candidates);

// Holds each of `deferred` at its installed version in the universe, as
// apt's upgrade keeps and protects it (what needs the new version is kept
// back too), except the packages `request` names and those their
// candidates depend on directly, which apt takes as asked. Returns the
// packages held (cache package indices).
std::vector<uint32_t> hold_deferred(SystemUniverse& su, const std::vector<uint32_t>& deferred,
                                    const solver::Request& request);

}  // namespace aptus::system
