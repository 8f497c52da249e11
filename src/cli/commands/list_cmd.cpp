// `list` picks one version per package (the installed one for --installed
// and --manual-installed, the candidate otherwise) or all of them, and
// prints apt's lines sorted as apt sorts them: by "name:arch", so
// "0ad-data/..." comes before "0ad/..." and "acl2" before "acl".
#include "cli/commands/list_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "aptus/system/installed_system.hpp"
#include "cli/color.hpp"
#include "aptus/request/package_glob.hpp"
#include "cli/package_line.hpp"
#include "cli/output.hpp"
#include "cli/pager.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/read_session.hpp"
#include "cli/stdout_buffer.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec list_table[] = {
    {0, "installed", "APT::Cmd::Installed", ArgKind::Flag, "only installed packages"},
    {0, "upgradable", "APT::Cmd::Upgradable", ArgKind::Flag, "only packages that can be upgraded"},
    {0, "upgradeable", "APT::Cmd::Upgradable", ArgKind::Flag},
    {0, "manual-installed", "APT::Cmd::Manual-Installed", ArgKind::Flag, "only packages installed manually"},
    {'a', "all-versions", "APT::Cmd::All-Versions", ArgKind::Flag, "list every version, not only the candidate"},
    {'v', "verbose", "APT::Cmd::List-Include-Summary", ArgKind::Flag, "show each package's summary too"},
    {0, "color", "APT::Color", ArgKind::Flag, "colours (the default on a terminal; --no-color, NO_COLOR: none)"},
    {0, "colour", "APT::Color", ArgKind::Flag},
    {0, "json", "Aptus::List::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

struct Entry {
    std::string key;   // "name:arch": what apt orders by
    std::string text;  // what is printed
    std::vector<const cache::Version*> versions;
};

}  // namespace

std::span<const OptionSpec> list_options() { return list_table; }

int run_list(Context& ctx) {
    const config::Config& config = ctx.config;
    bool json = config.find_bool("Aptus::List::JSON");
    bool installed = config.find_bool("APT::Cmd::Installed");
    bool upgradable = config.find_bool("APT::Cmd::Upgradable");
    bool manual = config.find_bool("APT::Cmd::Manual-Installed");
    bool all_versions = config.find_bool("APT::Cmd::All-Versions");
    bool summaries = config.find_bool("APT::Cmd::List-Include-Summary");
    // A line of the user's own: apt's machine-readable form.
    const bool use_format = config.find_bool("APT::Cmd::use-format");
    const std::string format =
        config.find("APT::Cmd::format", "${db::Status-Abbrev} ${Package} ${Version} ${Origin} ${Description}");

    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    // apt marks what autoremove would take; only installed packages take part, so this is cheap.
    const std::vector<uint32_t> removable = system::auto_removable_packages(cache, config);
    VersionView view{cache, *session->candidates, &removable};
    Colors colors = json ? Colors::off() : Colors::for_stdout(config);

    Progress progress(config, json);
    progress.start("Listing");
    // After the progress line, as apt reports a bad pattern after "Listing...".
    request::PackageGlobs globs(ctx.args);
    const request::PatternContext match_ctx{cache, *session->candidates, &removable};
    std::vector<Entry> entries;
    size_t hidden_versions = 0;  // apt's hint to use -a
    const auto names = cache.names();
    for (uint32_t n = 0; n < names.size(); ++n) {
        if (names[n].package_count == 0) continue;
        for (const cache::Package& p : cache.packages_of(n)) {
            if (!globs.matches(match_ctx, p)) continue;
            auto versions = cache.versions_of(p);
            if (versions.empty()) continue;  // virtual: apt lists only real packages
            const cache::Version* current = cache.current_version(p);
            const cache::Version* v = nullptr;
            if (installed) {
                v = current;
            } else if (upgradable) {
                if (current && view.upgradable(p)) v = session->candidates->candidate(p);
            } else {
                // --manual-installed filters, but shows the candidate, as apt.
                if (manual && (!current || (p.flags & cache::kPackageAuto))) continue;
                v = session->candidates->candidate(p);
                // No candidate (config files left, say): the first version, as apt.
                if (!v) v = &versions[0];
            }
            if (!v) continue;
            Entry e;
            if (!all_versions) hidden_versions += versions.size() - 1;
            if (all_versions) {
                for (const auto& each : versions) e.versions.push_back(&each);
            } else {
                e.versions.push_back(v);
            }
            e.key = std::string(cache.name_of(p)) + ":" + std::string(cache.str(p.architecture));
            if (!json)
                for (const auto* each : e.versions) {
                    if (use_format) {
                        e.text += view.formatted(*each, format) + "\n";
                        continue;
                    }
                    e.text += view.line(*each, colors) + "\n";
                    if (summaries) e.text += "  " + std::string(cache.str(each->short_description)) + "\n";
                }
            entries.push_back(std::move(e));
        }
    }
    std::stable_sort(entries.begin(), entries.end(),
                         [](const Entry& a, const Entry& b) { return a.key < b.key; });
    progress.done();

    auto pager = Pager::start(config, &ctx.diags);
    if (json) {
        nlohmann::ordered_json out;
        out["schema_version"] = json_schema_version;
        auto& list = out["packages"] = nlohmann::ordered_json::array();
        for (const auto& e : entries)
            for (const auto* v : e.versions) list.push_back(view.json(*v));
        std::string s = out.dump(2) + "\n";
        std::fwrite(s.data(), 1, s.size(), stdout);
        return 0;
    }
    StdoutBuffer out;
    for (const auto& e : entries) {
        out += e.text;
        // apt ends every entry with a newline of its own: a blank line
        // between packages with --all-versions.
        if (all_versions || summaries) out += '\n';
    }
    // apt gives the hint when it lists a single package.
    const bool asked = entries.size() == 1;
    if (hidden_versions > 0 && asked && effective_quiet(config) == 0)
        ctx.diags.push_back({Level::Notice, hidden_versions == 1
                                                ? "There is 1 additional version. Please use the '-a' switch to see it"
                                                : "There are " + std::to_string(hidden_versions) +
                                                      " additional versions. Please use the '-a' switch to see them."});
    // As apt 3.0: the notice goes through the pager too, after the list.
    if (pager) {
        out.flush();
        render(ctx.diags);
        ctx.diags.clear();
    }
    return 0;
}

}  // namespace aptus::cli
