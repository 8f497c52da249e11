// Undo, redo and rollback of history entries as one thing: a target state
// (per package: installed at a version, or not installed, and its automatic
// mark when the log gives it), worked out from the log alone, then read into
// an install goal (its words, "name=version" and "name-", plus the marks and
// purges words cannot say), so it is solved, shown and carried out as any
// install is.
//
//   auto entries = session->history();
//   auto r = session->reach(aptus::install::rollback_target(entries, 3));
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/install/goal.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/history_log.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::install {

// What one package is to be afterwards.
struct PackageTarget {
    std::string package{};          // "name:arch", as history.log names it
    std::string version{};          // installed at this version; "": not installed
    bool purge = false;             // not installed, and its configuration files gone too
    bool reinstall = false;         // installed at `version` again even when it already is
    std::optional<bool> automatic{};  // the mark the log gives; nullopt: as it is now (a new package: manual)

    bool operator==(const PackageTarget&) const = default;
};
using TargetState = std::vector<PackageTarget>;

// `id` counts from 1 (the oldest entry), as `aptus history` numbers them;
// every function throws std::out_of_range for an id that is not in `entries`.

// Undo of entry `id`: what it installed goes, what it upgraded, downgraded,
// removed or purged comes back at the version it had before (a package that
// comes back with the mark its last Install line before `id` gives).
// Reinstalls and removals logged without their version are left alone.
TargetState undo_target(std::span<const system::HistoryEntry> entries, size_t id);

// Redo of entry `id`: what it installed, upgraded, downgraded or
// reinstalled at the version it went to (installs with the entry's marks,
// reinstalls installed again), what it removed or purged removed or purged.
TargetState redo_target(std::span<const system::HistoryEntry> entries, size_t id);

// Rollback to entry `id`: every entry after it undone at once, as their net
// change. Each package the later entries touched goes back to what it was
// before the first of them touched it (the state right after `id`) unless
// the last of them left it so: installed after `id` means removed, removed
// after `id` installed again at its version then (with the mark of its last
// Install line up to `id`), a version change put back. In the order the
// later entries first touched the packages. Empty when `id` is the last.
TargetState rollback_target(std::span<const system::HistoryEntry> entries, size_t id);

// The install words of a target, in its order: "name=version" or "name-".
// Packages of the native architecture (and "all") lose history's ":arch",
// others keep it ("name:i386-"). Purges are words of removal too (the goal
// says which purge).
std::vector<std::string> target_words(const TargetState& target, std::string_view native_architecture);

// The install goal that reaches `target` on the system `su` describes, read
// as read_goal reads Verb::Install words (read_goal's notes and errors). What
// already is as the target says is not named (a removal of a package that is
// not installed, a version that is); a version that is neither installed
// nor offered by any source is an error naming the package and the version
// ("Version 1.0 of hello is not available any more: no source has it and it
// is not installed"), and nothing is read. The marks and purges go in
// Goal::marks and Goal::purges, applied by plan_goal.
Goal target_goal(const config::Config& config, system::SystemUniverse& su, const cache::Cache& cache,
                 const system::Candidates& candidates, const TargetState& target);

}  // namespace aptus::install
