// APT 3.0's display of a plan ("Upgrading:", "Installing:", ... "REMOVING:",
// "Summary:") as a pure function from plain values to text. It knows nothing
// of the cache or the solver, so `simulate`, `install` and the tests all
// print through the same code and the layout is tested byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"

namespace aptus::cli {

struct PlanEntry {
    std::string name;
    std::string arch;         // shown as "name:arch" unless empty, "all" or the native one
    std::string old_version;  // the installed version (upgrades, downgrades, removals, kept, held)
    std::string new_version;  // the version to install (for kept packages: the candidate)
    bool automatic = false;
    bool purge = false;       // removals: the name gets a '*'
    bool essential = false;   // removals: also listed in the essential-removal warning
    std::string due_to;       // essential warning: shown as "name (due to <due_to>)"
    std::string obsolete;     // removals on full-upgrade: why the package is obsolete
};

// The extra line for a separate /boot filesystem receiving kernels or initrds.
struct BootSpace {
    std::string dir;
    uint64_t needed = 0;
    uint64_t available = 0;
};

struct PlanView {
    // Blocks in the order they print; entries are sorted by name when shown.
    std::vector<PlanEntry> upgrade, install, install_deps, reinstall, downgrade, remove, held_changes, not_upgraded;
    // Upgrades and downgrades nobody asked for: in apt-get's "additional" block with install_deps.
    std::vector<PlanEntry> additional_upgrades;
    // Printed in the order given: an or-group's later members come as "| name".
    std::vector<std::string> suggested, recommended, autoremovable_hint;
    uint64_t download_bytes = 0;       // what must still be fetched
    int64_t space_change_bytes = 0;    // >= 0: "Space needed", < 0: "Freed space"
    std::optional<uint64_t> space_available;  // free bytes where Dir::Usr lives; unknown: no "/ Y available"

    // "Not upgrading yet due to phasing:" (upgrade commands).
    std::vector<PlanEntry> phased;
    // -V: the candidate versions of `suggested` / `recommended`, index for index
    // (ignored unless the sizes match).
    std::vector<std::string> suggested_versions, recommended_versions, autoremovable_versions;
    // The size of all archives the plan uses; when it differs from
    // download_bytes (some are already here) the line reads "need / total".
    std::optional<uint64_t> archive_bytes;
    // "Not Upgrading: K": apt counts held-back packages even where it does not
    // list them (install); unset means not_upgraded + phased.
    std::optional<uint64_t> not_upgraded_count;
    uint64_t broken_count = 0;  // "N not fully installed or removed."
    std::optional<BootSpace> boot;
};

// APT::Color::Action::* resolved to escape sequences; the defaults are apt's.
struct PlanColors {
    std::string upgrade = "\x1b[32m";
    std::string install = "\x1b[32m";
    std::string install_deps = "\x1b[32m";
    std::string downgrade = "\x1b[33m";
    std::string remove = "\x1b[31m";
    std::string neutral = "\x1b[0m";
};

struct PlanViewOptions {
    // apt's screen width (see plan_screen_width); lists get 3 columns less.
    unsigned width = 80;
    bool color = false;
    bool show_versions = false;  // -V / --verbose-versions
    bool list_columns = true;    // --no-list-columns: names separated by one space, wrapped
    bool simulate = false;       // -s: the summary stops after the counts
    bool utf8 = true;            // the /boot line's "└─" (else " - ")
    std::string native_arch;     // entries of this arch show no ":arch"
    std::string autoremove_command = "apt autoremove";  // "sudo apt autoremove" under sudo
    // APT::Get::HideAutoRemove: "small" gives only the count, true nothing.
    enum class Autoremovable { List, Count, Hide } autoremovable = Autoremovable::List;
    PlanColors colors;
    // apt-get's classic layout ("The following NEW packages will be
    // installed:", "N upgraded, N newly installed, ..."): APT::Output-Version
    // below 30, the default of apt-get and apt-cache (apt and aptus: 30).
    bool classic = false;
    // classic: "The following additional packages will be installed:"
    // (apt-get lists them for install, remove and the like, not for upgrades).
    bool additional = true;
};

std::string render_plan(const PlanView& plan, const PlanViewOptions& options);

// Whether the configuration asks for the classic layout: APT::Output-Version
// below 30 (unset: classic for apt-get, 3.0's for aptus; apt sets 30).
bool classic_layout(const config::Config& config);
// The program's layout before any configuration: 3.0's for aptus and apt.
bool new_layout_by_default(std::string_view program);

// ls-style columns as apt lays out package lists: column-major, rows indented
// by two spaces, the most columns whose widths add up to less than `width`.
std::string render_columns(const std::vector<std::string>& items, unsigned width);

// apt's ScreenWidth: $COLUMNS as it is when numeric, else the terminal's
// width minus one, else 79. An invalid $COLUMNS is reported as apt words it.
unsigned plan_screen_width(Diagnostics* diags = nullptr);

// APT::Color::Action::* and APT::Color::Neutral from the configuration.
PlanColors plan_colors(const config::Config& config);

}  // namespace aptus::cli
