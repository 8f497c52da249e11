#include "cli/commands/install_cmd.hpp"

#include <cstdio>

#include "aptus/base/error.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/color.hpp"
#include "cli/commands/plan_cmd.hpp"
#include "cli/package_line.hpp"
#include "cli/plan_view.hpp"
#include "cli/read_session.hpp"
#include "cli/request.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec install_table[] = {
    {'t', "target-release", "APT::Default-Release", ArgKind::Value},
    {0, "default-release", "APT::Default-Release", ArgKind::Value},
    {0, "allow-downgrades", "APT::Get::allow-downgrades", ArgKind::Flag},
    {0, "allow-remove-essential", "APT::Get::allow-remove-essential", ArgKind::Flag},
    {0, "allow-change-held-packages", "APT::Get::allow-change-held-packages", ArgKind::Flag},
    {0, "install-recommends", "APT::Install-Recommends", ArgKind::Flag},
    {0, "install-suggests", "APT::Install-Suggests", ArgKind::Flag},
    {0, "strict-pinning", "APT::Solver::Strict-Pinning", ArgKind::Flag},
    {0, "purge", "APT::Get::Purge", ArgKind::Flag},
    {0, "auto-remove", "APT::Get::AutomaticRemove", ArgKind::Flag},
    {0, "autoremove", "APT::Get::AutomaticRemove", ArgKind::Flag},
    {0, "with-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::Flag},
    {'V', "verbose-versions", "APT::Get::Show-Versions", ArgKind::Flag},
    {0, "force-yes", "APT::Get::Force-Yes", ArgKind::Flag},
    {0, "json", "Aptus::Plan::JSON", ArgKind::Flag},
};

enum class Verb { Install, Remove, Purge, Upgrade, FullUpgrade, AutoRemove };

const char* verb_name(Verb v) {
    switch (v) {
        case Verb::Install: return "install";
        case Verb::Remove: return "remove";
        case Verb::Purge: return "purge";
        case Verb::Upgrade: return "upgrade";
        case Verb::FullUpgrade: return "full-upgrade";
        case Verb::AutoRemove: return "autoremove";
    }
    return "";
}

int fail(const std::vector<std::string>& errors) {
    std::fflush(stdout);
    for (const std::string& e : errors) std::fprintf(stderr, "E: %s\n", e.c_str());
    return 100;
}

// apt-get's fail-safe: with -y (or -qq) a dangerous plan needs its own switch.
std::vector<std::string> unconfirmed_dangers(const config::Config& config, const Plan& plan) {
    bool assume_yes = config.find_bool("APT::Get::Assume-Yes") || config.find_int("quiet", 0) >= 2;
    if (!assume_yes || config.find_bool("APT::Get::Force-Yes")) return {};
    bool essential = false, downgrade = false, held = false;
    for (const Change& ch : plan.changes) {
        essential = essential || (ch.kind == ChangeKind::Remove && ch.essential);
        downgrade = downgrade || ch.kind == ChangeKind::Downgrade;
        held = held || ch.held;
    }
    if (essential && !config.find_bool("APT::Get::allow-remove-essential"))
        return {"Essential packages were removed and -y was used without --allow-remove-essential."};
    if (downgrade && !config.find_bool("APT::Get::allow-downgrades"))
        return {"Packages were downgraded and -y was used without --allow-downgrades."};
    if (held && !config.find_bool("APT::Get::allow-change-held-packages"))
        return {"Held packages were changed and -y was used without --allow-change-held-packages."};
    return {};
}

int run(Context& ctx, Verb verb) {
    const config::Config& config = ctx.config;
    bool json = config.find_bool("Aptus::Plan::JSON");
    if (!config.find_bool("APT::Get::Simulate") && !json)
        throw Error(std::string("aptus cannot ") + verb_name(verb) +
                    " packages yet (installing is issue 7); use -s to see what it would do, or --json");
    Progress progress(config, json);
    progress.start("Reading package lists");
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    progress.start("Building dependency tree");
    system::SystemUniverse su = system::system_universe(cache, *session->candidates);
    progress.start("Reading state information");
    progress.done();

    RequestAction action = verb == Verb::Install || verb == Verb::Upgrade || verb == Verb::FullUpgrade
                               ? RequestAction::Install
                               : RequestAction::Remove;
    CommandRequest cr = read_request(su, cache, *session->candidates, config, action, ctx.args);
    solver::Request& r = cr.request;
    if (verb == Verb::Purge) r.purge = true;
    if (verb == Verb::AutoRemove) r.autoremove = true;
    if (verb == Verb::Upgrade || verb == Verb::FullUpgrade) {
        r.upgrade_all = true;
        if (verb == Verb::Upgrade) {
            r.forbid_remove = true;
            r.forbid_new_install = !config.find_bool("APT::Get::Upgrade-Allow-New", false);
        }
        progress.start("Calculating upgrade");
        progress.done();
    }
    if (!json)
        for (const std::string& n : cr.notes) std::printf("%s\n", n.c_str());
    if (!cr.errors.empty()) return fail(cr.errors);

    solver::Solution s = solver::solve(su.universe, r);
    if (!s.solved) {
        std::fflush(stdout);
        std::fprintf(stderr, "E: %s\n", s.message.c_str());
        return 100;
    }
    Plan plan = make_plan(su, cache, *session->candidates, r, s, cr.unheld);
    if (json) {
        std::fputs(plan_json(cache, plan, verb_name(verb)).c_str(), stdout);
        return 0;
    }
    if (auto dangers = unconfirmed_dangers(config, plan); !dangers.empty()) return fail(dangers);
    PlanViewOptions options;
    options.width = plan_screen_width(&ctx.diags);
    options.color = Colors::for_stdout(config).enabled();
    options.colors = plan_colors(config);
    options.show_versions = config.find_bool("APT::Get::Show-Versions");
    options.simulate = true;
    options.native_arch = std::string(cache.native_architecture());
    std::string text = render_plan(plan_view(cache, plan), options) + simulate_lines(cache, plan);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace

std::span<const OptionSpec> install_options() { return install_table; }
int run_install(Context& ctx) { return run(ctx, Verb::Install); }
int run_remove(Context& ctx) { return run(ctx, Verb::Remove); }
int run_purge(Context& ctx) { return run(ctx, Verb::Purge); }
int run_upgrade(Context& ctx) { return run(ctx, Verb::Upgrade); }
int run_full_upgrade(Context& ctx) { return run(ctx, Verb::FullUpgrade); }
int run_autoremove(Context& ctx) { return run(ctx, Verb::AutoRemove); }

}  // namespace aptus::cli
