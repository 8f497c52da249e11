#include "cli/plan_view.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "cli/color.hpp"
#include "cli/human_size.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

// One line of a block: what the name column shows, and what -V puts in
// parentheses after it (nothing when empty).
struct Item {
    std::string display;
    std::string details;
};

std::string size_text(uint64_t bytes) { return human_size(double(bytes)) + "B"; }

std::string pretty_name(const PlanEntry& e, const PlanViewOptions& options) {
    if (e.arch.empty() || e.arch == "all" || e.arch == options.native_arch) return e.name;
    return e.name + ":" + e.arch;
}

std::vector<PlanEntry> sorted(std::vector<PlanEntry> entries) {
    std::stable_sort(entries.begin(), entries.end(), [](const PlanEntry& a, const PlanEntry& b) {
        return a.name != b.name ? a.name < b.name : a.arch < b.arch;
    });
    return entries;
}

enum class Detail { None, New, Old, OldToNew };

std::vector<Item> items_of(const std::vector<PlanEntry>& entries, Detail detail, const PlanViewOptions& options,
                           bool mark_purge = false) {
    std::vector<Item> items;
    for (const PlanEntry& e : sorted(entries)) {
        Item item{pretty_name(e, options), {}};
        if (mark_purge && e.purge) item.display += '*';
        switch (detail) {
            case Detail::None: break;
            case Detail::New: item.details = e.new_version; break;
            case Detail::Old: item.details = e.old_version; break;
            case Detail::OldToNew: item.details = e.old_version + " => " + e.new_version; break;
        }
        items.push_back(std::move(item));
    }
    return items;
}

std::vector<Item> items_of(const std::vector<std::string>& names, const std::vector<std::string>& versions) {
    std::vector<Item> items;
    bool with_versions = versions.size() == names.size();
    for (size_t i = 0; i < names.size(); ++i) items.push_back({names[i], with_versions ? versions[i] : std::string()});
    return items;
}

// A full upgrade's obsolete removals, each with why it is obsolete.
std::vector<Item> obsolete_items(const std::vector<PlanEntry>& remove, const PlanViewOptions& options) {
    std::vector<Item> items;
    for (const PlanEntry& e : sorted(remove))
        if (!e.obsolete.empty()) items.push_back({pretty_name(e, options) + " (" + e.obsolete + ")", {}});
    return items;
}

// The essential packages being removed, each followed by the removed packages
// it depends on ("dep (due to ess)"), as apt groups them.
std::vector<Item> essential_items(const std::vector<PlanEntry>& remove, const PlanViewOptions& options) {
    std::vector<PlanEntry> roots, dependents;
    for (const PlanEntry& e : sorted(remove)) {
        if (!e.essential) continue;
        (e.due_to.empty() ? roots : dependents).push_back(e);
    }
    std::vector<Item> items;
    std::vector<bool> shown(dependents.size(), false);
    auto add_dependent = [&](size_t i) {
        items.push_back({pretty_name(dependents[i], options) + " (due to " + dependents[i].due_to + ")", {}});
        shown[i] = true;
    };
    for (const PlanEntry& root : roots) {
        items.push_back({pretty_name(root, options), {}});
        for (size_t i = 0; i < dependents.size(); ++i)
            if (!shown[i] && (dependents[i].due_to == root.name || dependents[i].due_to == pretty_name(root, options)))
                add_dependent(i);
    }
    for (size_t i = 0; i < dependents.size(); ++i)
        if (!shown[i]) add_dependent(i);
    return items;
}

// What both summaries count, and whether apt prints the size lines at all
// (not when simulating, not when nothing is to be done).
struct Counts {
    uint64_t installing, not_upgrading;
    bool changes;
};

Counts counts_of(const PlanView& plan) {
    Counts c;
    c.installing = plan.install.size() + plan.install_deps.size();
    c.not_upgrading = plan.not_upgraded_count.value_or(plan.not_upgraded.size() + plan.phased.size());
    c.changes = c.installing != 0 || !plan.upgrade.empty() || !plan.downgrade.empty() || !plan.reinstall.empty() ||
                !plan.remove.empty() || plan.broken_count != 0;
    return c;
}

class Renderer {
public:
    explicit Renderer(const PlanViewOptions& options)
        : options_(options), list_width_(options.width > 3 ? options.width - 3 : 0), classic_(options.classic) {}

    // A titled block, omitted when empty: the title, the names (columns,
    // wrapped words, or one per line with -V), an optional note, one blank line.
    void block(std::string_view title, const std::vector<Item>& items, const std::string& color,
               std::string_view note = {}) {
        if (items.empty()) return;
        std::string set = options_.color ? color : std::string();
        std::string reset = set.empty() ? std::string() : options_.colors.neutral;
        out_ += title;
        if (options_.show_versions) {
            for (const Item& item : items) {
                out_ += "\n   " + set + item.display + reset;
                if (!item.details.empty()) out_ += " (" + item.details + ")";
            }
            out_ += '\n';
        } else if (!options_.list_columns || classic_) {
            size_t used = 0;
            for (const Item& item : items) {
                if (used == 0 || used + item.display.size() >= list_width_) {
                    out_ += "\n  ";
                    used = 0;
                } else {
                    out_ += ' ';
                    ++used;
                }
                out_ += set + item.display + reset;
                used += item.display.size();
            }
            out_ += '\n';
        } else {
            out_ += '\n';
            std::vector<std::string> names;
            names.reserve(items.size());
            for (const Item& item : items) names.push_back(item.display);
            // The colour spans the whole block: set before the first row's
            // indent, reset at the start of the blank line that follows.
            out_ += set + render_columns(names, list_width_) + reset;
        }
        if (!note.empty()) {
            out_ += note;
            out_ += '\n';
        }
        if (!classic_) out_ += '\n';
    }

    // apt-get's classic counts and sizes.
    void classic_summary(const PlanView& plan) {
        const Counts n = counts_of(plan);
        out_ += std::to_string(plan.upgrade.size()) + " upgraded, " + std::to_string(n.installing) +
                " newly installed, ";
        if (!plan.reinstall.empty()) out_ += std::to_string(plan.reinstall.size()) + " reinstalled, ";
        if (!plan.downgrade.empty()) out_ += std::to_string(plan.downgrade.size()) + " downgraded, ";
        out_ += std::to_string(plan.remove.size()) + " to remove and " + std::to_string(n.not_upgrading) +
                " not upgraded.\n";
        if (plan.broken_count != 0) out_ += std::to_string(plan.broken_count) + " not fully installed or removed.\n";
        if (options_.simulate || !n.changes) return;
        uint64_t total = plan.archive_bytes.value_or(plan.download_bytes);
        if (total != 0) {
            out_ += "Need to get ";
            if (plan.archive_bytes && *plan.archive_bytes != plan.download_bytes)
                out_ += size_text(plan.download_bytes) + "/";
            out_ += size_text(total) + " of archives.\n";
        }
        // apt-get says it even for 0 B.
        if (plan.space_change_bytes >= 0)
            out_ += "After this operation, " + size_text(uint64_t(plan.space_change_bytes)) +
                    " of additional disk space will be used.\n";
        else
            out_ += "After this operation, " + size_text(uint64_t(-plan.space_change_bytes)) +
                    " disk space will be freed.\n";
    }

    void summary(const PlanView& plan) {
        const Counts n = counts_of(plan);
        out_ += "Summary:\n  Upgrading: " + std::to_string(plan.upgrade.size()) +
                ", Installing: " + std::to_string(n.installing) + ", ";
        if (!plan.reinstall.empty()) out_ += "Reinstalling: " + std::to_string(plan.reinstall.size()) + ", ";
        if (!plan.downgrade.empty()) out_ += "Downgrading: " + std::to_string(plan.downgrade.size()) + ", ";
        out_ += "Removing: " + std::to_string(plan.remove.size()) + ", Not Upgrading: " +
                std::to_string(n.not_upgrading) + "\n";
        if (plan.broken_count != 0) out_ += "  " + std::to_string(plan.broken_count) + " not fully installed or removed.\n";

        if (options_.simulate || !n.changes) return;

        uint64_t total = plan.archive_bytes.value_or(plan.download_bytes);
        if (total != 0) {
            out_ += "  Download size: ";
            if (plan.archive_bytes && *plan.archive_bytes != plan.download_bytes)
                out_ += size_text(plan.download_bytes) + " / ";
            out_ += size_text(total) + "\n";
        }
        if (plan.space_change_bytes >= 0) {
            out_ += "  Space needed: " + size_text(uint64_t(plan.space_change_bytes));
            if (plan.space_available) out_ += " / " + size_text(*plan.space_available) + " available";
            out_ += '\n';
        } else {
            out_ += "  Freed space: " + size_text(uint64_t(-plan.space_change_bytes)) + "\n";
        }
        if (plan.boot) {
            out_ += options_.utf8 ? "  \u2514\u2500 in " : "   - in ";
            out_ += plan.boot->dir + ":  " + size_text(plan.boot->needed) + " / " + size_text(plan.boot->available) +
                    " available\n";
        }
        out_ += '\n';
    }

    std::string take() { return std::move(out_); }
    void text(const std::string& lines) { out_ += lines; }

private:
    const PlanViewOptions& options_;
    size_t list_width_;
    bool classic_;
    std::string out_;
};

// The same in both layouts: what autoremove would take, and the command.
void autoremovable_block(Renderer& r, const PlanView& plan, const PlanViewOptions& options) {
    if (plan.autoremovable_hint.empty() || options.autoremovable == PlanViewOptions::Autoremovable::Hide) return;
    bool one = plan.autoremovable_hint.size() == 1;
    std::string note = "Use '" + options.autoremove_command + (one ? "' to remove it." : "' to remove them.");
    if (options.autoremovable == PlanViewOptions::Autoremovable::Count) {
        const std::string n = std::to_string(plan.autoremovable_hint.size());
        r.text((one ? n + " package was automatically installed and is no longer required.\n"
                    : n + " packages were automatically installed and are no longer required.\n") +
               note + "\n");
        return;
    }
    r.block(one ? "The following package was automatically installed and is no longer required:"
                : "The following packages were automatically installed and are no longer required:",
            items_of(plan.autoremovable_hint, plan.autoremovable_versions), std::string(), note);
}

// apt-get's blocks, in its order: the extra packages, suggestions, then
// removals, new packages, kept back, held, upgrades, downgrades.
std::string render_classic(const PlanView& plan, const PlanViewOptions& options) {
    Renderer r(options);
    const PlanColors& c = options.colors;
    const std::string none;
    autoremovable_block(r, plan, options);
    if (options.additional) {
        std::vector<PlanEntry> additional = plan.install_deps;
        additional.insert(additional.end(), plan.additional_upgrades.begin(), plan.additional_upgrades.end());
        r.block("The following additional packages will be installed:",
                items_of(sorted(additional), Detail::New, options), c.install_deps);
    }
    r.block("Suggested packages:", items_of(plan.suggested, plan.suggested_versions), none);
    r.block("Recommended packages:", items_of(plan.recommended, plan.recommended_versions), none);
    r.block("The following packages will be REMOVED:", items_of(plan.remove, Detail::Old, options, true), c.remove);
    std::vector<PlanEntry> fresh = plan.install;
    fresh.insert(fresh.end(), plan.install_deps.begin(), plan.install_deps.end());
    r.block("The following NEW packages will be installed:", items_of(fresh, Detail::New, options), c.install);
    r.block("The following upgrades have been deferred due to phasing:",
            items_of(plan.phased, Detail::OldToNew, options), none);
    r.block("The following packages have been kept back:", items_of(plan.not_upgraded, Detail::OldToNew, options),
            none);
    r.block("The following held packages will be changed:", items_of(plan.held_changes, Detail::OldToNew, options),
            none);
    r.block("The following packages will be upgraded:", items_of(plan.upgrade, Detail::OldToNew, options),
            c.upgrade);
    r.block("The following packages will be DOWNGRADED:", items_of(plan.downgrade, Detail::OldToNew, options),
            c.downgrade);
    r.block("WARNING: The following essential packages will be removed.\n"
            "This should NOT be done unless you know exactly what you are doing!",
            essential_items(plan.remove, options), c.remove);
    r.classic_summary(plan);
    return r.take();
}

}  // namespace

std::string render_columns(const std::vector<std::string>& items, unsigned width) {
    constexpr size_t indent = 2, min_width = 2, gap = 2;
    size_t n = items.size();
    if (n == 0) return {};
    // apt's unsigned arithmetic lets a too-narrow screen try every count;
    // none fits then, so one column wins either way.
    size_t max_cols = width >= indent ? (width - indent) / min_width : n;
    max_cols = std::clamp<size_t>(max_cols, 1, n);

    std::vector<size_t> best{0};
    for (size_t cols = 1; cols <= max_cols; ++cols) {
        size_t rows = (n + cols - 1) / cols;
        std::vector<size_t> widths(cols, min_width);
        for (size_t i = 0; i < n; ++i) {
            size_t col = i / rows;
            widths[col] = std::max(widths[col], items[i].size() + (col == cols - 1 ? 0 : gap));
        }
        size_t line = 0;
        for (size_t w : widths) line += w;
        if (cols == 1 || line < width) best = std::move(widths);
    }

    size_t rows = (n + best.size() - 1) / best.size();
    std::string out;
    for (size_t row = 0; row < rows; ++row) {
        out.append(indent, ' ');
        size_t col = 0;
        for (size_t i = row;;) {
            out += items[i];
            size_t pad = best[col++] - items[i].size();
            i += rows;
            if (i >= n) break;
            out.append(pad, ' ');
        }
        out += '\n';
    }
    return out;
}

bool new_layout_by_default(std::string_view program) {
    // apt 3.0 sets 30 for apt (kept out of the Binary::apt defaults, so a
    // dump stays apt 2.6's); aptus under its own name has always shown it.
    return program == "aptus" || program == "apt";
}

bool classic_layout(const config::Config& config) {
    const long fallback = new_layout_by_default(config.find("Binary")) ? 30 : 0;
    return config.find_int("APT::Output-Version", fallback) < 30;
}

std::string render_plan(const PlanView& plan, const PlanViewOptions& options) {
    if (options.classic) return render_classic(plan, options);
    Renderer r(options);
    const PlanColors& c = options.colors;
    const std::string none;

    autoremovable_block(r, plan, options);
    r.block("Upgrading:", items_of(plan.upgrade, Detail::OldToNew, options), c.upgrade);
    r.block("Installing:", items_of(plan.install, Detail::New, options), c.install);
    r.block("Installing dependencies:", items_of(plan.install_deps, Detail::New, options), c.install_deps);
    r.block("Suggested packages:", items_of(plan.suggested, plan.suggested_versions), none);
    r.block("Recommended packages:", items_of(plan.recommended, plan.recommended_versions), none);
    r.block("Not upgrading yet due to phasing:", items_of(plan.phased, Detail::OldToNew, options), none);
    r.block("Not upgrading:", items_of(plan.not_upgraded, Detail::OldToNew, options), none);
    r.block("Changing held packages:", items_of(plan.held_changes, Detail::OldToNew, options), none);
    r.block("DOWNGRADING:", items_of(plan.downgrade, Detail::OldToNew, options), c.downgrade);
    r.block("REMOVING:", items_of(plan.remove, Detail::Old, options, true), c.remove);
    r.block("Removed as obsolete (README: what a full upgrade may remove):", obsolete_items(plan.remove, options),
            none);
    r.block("WARNING: The following essential packages will be removed.\n"
            "This should NOT be done unless you know exactly what you are doing!",
            essential_items(plan.remove, options), c.remove);
    r.summary(plan);
    return r.take();
}

unsigned plan_screen_width(Diagnostics* diags) {
    if (const char* columns = std::getenv("COLUMNS")) {
        std::string_view text(columns);
        bool numeric = !text.empty() && text.size() < 9 &&
                       std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        if (numeric && std::atoi(columns) > 0) return unsigned(std::atoi(columns));
        if (diags)
            diags->push_back({Level::Warning, "Environment variable COLUMNS was ignored as it has an invalid value: \"" +
                                                  std::string(text) + "\""});
    }
    // apt keeps the last column free, so a full-width line never wraps.
    if (is_terminal(STDOUT_FILENO)) {
        int cols = terminal_columns();
        if (cols > 1) return unsigned(cols - 1);
    }
    return 79;
}

PlanColors plan_colors(const config::Config& config) {
    PlanColors c;
    c.upgrade = color_code(config, "action::upgrade");
    c.install = color_code(config, "action::install");
    c.install_deps = color_code(config, "action::install-dependencies");
    c.downgrade = color_code(config, "action::downgrade");
    c.remove = color_code(config, "action::remove");
    c.neutral = color_code(config, "neutral");
    return c;
}

}  // namespace aptus::cli
