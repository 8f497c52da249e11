#include "cli/commands/install_cmd.hpp"
#include "cli/commands/update_cmd.hpp"

#include <algorithm>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sys/statvfs.h>

#include "aptus/base/error.hpp"
#include "aptus/install/goal.hpp"
#include "aptus/install/history_target.hpp"
#include "aptus/install/build_dep.hpp"
#include "aptus/install/satisfy.hpp"
#include "aptus/sources/source_list.hpp"
#include "aptus/solver/solver3_words.hpp"
#include "aptus/solver/why.hpp"
#include "aptus/system/authentication.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/external_solver.hpp"
#include "aptus/system/phased_updates.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/archive_download.hpp"
#include "cli/color.hpp"
#include "cli/commands/check_cmd.hpp"
#include "cli/plan_format.hpp"
#include "cli/output.hpp"
#include "cli/package_line.hpp"
#include "cli/plan_execute.hpp"
#include "cli/plan_view.hpp"
#include "cli/print_uris.hpp"
#include "cli/prompt.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/request.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"
#include "cli/exit_status.hpp"
#include "cli/message.hpp"

namespace aptus::cli {
namespace {

using install::Verb;

constexpr OptionSpec install_table[] = {
    {'t', "target-release", "APT::Default-Release", ArgKind::Value, "prefer the versions of this release (archive, codename or version), as APT::Default-Release", "RELEASE"},
    {'a', "host-architecture", "APT::Get::Host-Architecture", ArgKind::Value, "the architecture to build or install for (cross-building)", "ARCH"},
    {0, "default-release", "APT::Default-Release", ArgKind::Value, "", "RELEASE"},
    {0, "allow-downgrades", "APT::Get::allow-downgrades", ArgKind::Flag, "allow downgrades without asking"},
    {0, "allow-remove-essential", "APT::Get::allow-remove-essential", ArgKind::Flag, "allow removing Essential and protected packages"},
    {0, "allow-change-held-packages", "APT::Get::allow-change-held-packages", ArgKind::Flag, "allow changing held packages without asking"},
    {0, "install-recommends", "APT::Install-Recommends", ArgKind::Flag, "install recommended packages (the default; --no-install-recommends: do not)"},
    {0, "install-suggests", "APT::Install-Suggests", ArgKind::Flag, "install suggested packages too"},
    {0, "strict-pinning", "APT::Solver::Strict-Pinning", ArgKind::Flag, "only candidates may be installed (the default; --no-strict-pinning: any version a pin allows)"},
    {0, "purge", "APT::Get::Purge", ArgKind::Flag, "purge rather than remove: configuration files go too"},
    // --autoremove is a request of its own (Aptus::Cmd::AutoRemove): apt's
    // upgrade honours it but not APT::Get::AutomaticRemove from the config.
    {0, "auto-remove", "Aptus::Cmd::AutoRemove", ArgKind::Flag, "also remove what was installed automatically and is needed no more"},
    {0, "autoremove", "Aptus::Cmd::AutoRemove", ArgKind::Flag},
    {0, "with-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::Flag, "upgrade may install new packages (--without-new-pkgs: it may not)"},
    {'V', "verbose-versions", "APT::Get::Show-Versions", ArgKind::Flag, "show the versions of every package in the plan"},
    {0, "force-yes", "APT::Get::Force-Yes", ArgKind::Flag, "the old switch for all three --allow-* options (deprecated, as in apt)"},
    {0, "json", "Aptus::Plan::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
    {'d', "download-only", "APT::Get::Download-Only", ArgKind::Flag, "only download the archives; install nothing"},
    {0, "assume-no", "APT::Get::Assume-No", ArgKind::Flag, "answer no to every question"},
    {0, "trivial-only", "APT::Get::Trivial-Only", ArgKind::Flag, "do nothing but install or upgrade; refuse anything else (answers no)"},
    {0, "reinstall", "APT::Get::ReInstall", ArgKind::Flag, "install named packages again even when installed at that version"},
    // APT 3.0's --update: the lists are updated first.
    {'U', "update", "APT::Update", ArgKind::Flag, "update the package lists first"},
};

// apt prints its warnings and errors together, in the order they came:
// what `pending` holds (warnings found on the way) goes before the errors.
int fail(const std::vector<std::string>& errors, Diagnostics& pending) {
    std::fflush(stdout);
    render(pending);
    pending.clear();
    for (const std::string& e : errors) print_message(MessageLevel::Error, e);
    return kExitError;
}

// apt-get's failure: what its marking of the request left broken, then its
// solver's error. apt's classic solver says its problem resolver "generated
// breaks" when what stays broken is a package already installed (held, or
// essential and kept), "held broken packages" otherwise; solver3 (--solver
// 3.0) gives its own reasoning, here aptus's facts.
int fail_as_apt(const config::Config& config, const system::SystemUniverse& su, const solver::Request& r,
                const system::SolveOutcome& solved, Diagnostics& pending) {
    // apt hands an external solver the request's own marks, dependencies
    // unfollowed: what it reports broken after the solver failed is those.
    const bool recommends = config.find_bool("APT::Install-Recommends", true);
    const std::string solver = config.find("APT::Solver", "internal");
    const bool solver3 = (solver == "3.0" || solver == "3.1") && !solved.external;
    auto broken = system::broken_after_failed_request(su, r, recommends, !solved.external, solver3);
    print_unsatisfiable(broken);
    std::fflush(stdout);
    if ((solver == "3.0" || solver == "3.1") && !solved.external)
        if (auto words = solver::solver3_conflicting_decisions(su.universe, r))
            return fail(std::vector<std::string>{"Unable to satisfy dependencies. Reached two conflicting decisions:\n" + *words},
                        pending);
    if (solver == "3.0" || solver == "3.1" || solved.external) return fail(solved.errors, pending);
    const bool installed_broken =
        std::any_of(broken.begin(), broken.end(), [](const system::BrokenPackage& b) { return b.installed; });
    return fail({installed_broken ? "Error, pkgProblemResolver::Resolve generated breaks, this may be caused by held packages."
                                  : "Unable to correct problems, you have held broken packages."},
                pending);
}

// apt lists the upgrades phasing deferred apart from those kept back.
void move_phased(const cache::Cache& cache, const std::vector<uint32_t>& phased, PlanView& view) {
    if (phased.empty()) return;
    auto deferred = [&](const PlanEntry& e) {
        for (uint32_t p : phased) {
            const cache::Package& pkg = cache.packages()[p];
            if (cache.name_of(pkg) == e.name && cache.str(pkg.architecture) == e.arch) return true;
        }
        return false;
    };
    auto kept = std::stable_partition(view.not_upgraded.begin(), view.not_upgraded.end(),
                                      [&](const PlanEntry& e) { return !deferred(e); });
    view.phased.assign(kept, view.not_upgraded.end());
    view.not_upgraded.erase(kept, view.not_upgraded.end());
}

// Free bytes where the packages' files go (Dir::Usr, as apt measures).
std::optional<uint64_t> free_space(const config::Config& config) {
    struct statvfs st {};
    std::string dir = config.find_dir("Dir::Usr", "usr/");
    if (statvfs(dir.c_str(), &st) != 0 && statvfs(config.find_dir("Dir").c_str(), &st) != 0) return std::nullopt;
    return uint64_t(st.f_bavail) * st.f_frsize;
}

// Debug::pkgAutoRemove: what autoremove's marking keeps and why, in apt's
// words ("Marking: fdisk:i386 2.30.2 (Important)"), on stderr as apt's log.
void print_keep_marks(const solver::Universe& u, const solver::Request& r, const std::vector<uint32_t>& selected) {
    auto reason = [](const std::optional<solver::RootKind>& k) -> std::string_view {
        if (!k) return "Dependency";
        switch (*k) {
            case solver::RootKind::Manual:
            case solver::RootKind::Requested: return "Manual-Installed";
            case solver::RootKind::Essential: return "Essential";
            case solver::RootKind::Protected: return "Important";
            case solver::RootKind::Required: return "Required";
            case solver::RootKind::NeverAutoRemove: return "Blacklisted [APT::NeverAutoRemove]";
            case solver::RootKind::Held: return "Hold";
        }
        return "";
    };
    std::string out;
    for (const solver::KeepMark& m : solver::keep_marks(u, r, selected)) {
        const solver::Version& v = u.versions[m.version];
        const solver::Package& p = u.packages[v.package];
        out += "Marking: " + u.names[p.name] + ":" + (p.arch == "all" ? u.native_arch : p.arch) + " " + v.version +
               " (" + std::string(reason(m.root)) + ")\n";
    }
    std::fflush(stdout);
    std::fputs(out.c_str(), stderr);
}

// `target`: the goal is that state (history undo, redo, rollback), not the words.
int run(Context& ctx, Verb verb, const install::TargetState* target = nullptr) {
    const config::Config& config = ctx.config;
    bool json = config.find_bool("Aptus::Plan::JSON");
    bool simulate = config.find_bool("APT::Get::Simulate");
    bool act = !simulate && !json;
    if (config.find_bool("APT::Update")) {
        Context update_ctx{config, {}, ctx.diags};
        if (int rc = run_update(update_ctx); rc != kExitSuccess) return rc;
    }
    // As apt: the lock first, so nobody changes the system between reading
    // it and acting on it; then refuse to build on an interrupted dpkg run.
    std::optional<system::DpkgLock> lock;
    if (act && !print_uris_wanted(config)) {  // --print-uris changes nothing: no lock, as apt
        lock.emplace(take_dpkg_lock(config));
        if (auto interrupted = system::dpkg_interrupted(config)) throw Error(*interrupted);
    }
    {
        // As apt: a sources list that cannot be read stops it before any
        // progress line (its warnings come with the cache, below).
        Diagnostics later;
        sources::read_sources(config, later);
    }
    if (verb == Verb::Satisfy) install::check_satisfy_words(ctx.args);
    if (verb == Verb::BuildDep) {
        if (ctx.args.empty()) throw Error("Must specify at least one package to check builddeps for");
        // apt's warning for a host architecture the configuration does not
        // know (no lists were read for it), printed with the errors, as apt does.
        const std::string host = config.find("APT::Get::Host-Architecture");
        const std::vector<std::string> known = config.find_list("APT::Architectures");
        if (!host.empty() && host != config.find("APT::Architecture") &&
            std::find(known.begin(), known.end(), host) == known.end())
            ctx.diags.push_back({Level::Warning, "No architecture information available for " + host +
                                                     ". See apt.conf(5) APT::Architectures for setup"});
        // apt names the files and trees it reads before anything else.
        for (const std::string& arg : ctx.args)
            if (auto note = install::build_dep_path_note(arg)) std::printf("%s\n", note->c_str());
    }
    Progress progress(config, json);
    progress.start("Reading package lists");
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    system::SystemUniverse su;
    std::optional<install::Goal> early;
    if (verb == Verb::BuildDep && std::any_of(ctx.args.begin(), ctx.args.end(), [](const std::string& a) {
            return !install::build_dep_path_note(a);
        })) {
        // apt looks the source packages up first, says what it found
        // ("foo has no build depends."), then reads the lists again.
        progress.done();
        su = system::system_universe(cache, *session->candidates);
        early = install::read_goal(config, su, cache, *session->candidates, verb, ctx.args);
        if (!json)
            for (const std::string& n : early->request.notes) std::printf("%s\n", n.c_str());
        early->request.notes.clear();
        progress.start("Reading package lists");
    }
    progress.start("Building dependency tree");
    if (!early) su = system::system_universe(cache, *session->candidates);
    // As apt: the line is the reading of extended_states, so only when there is one.
    if (::access(config.find_file("Dir::State::extended_states").c_str(), F_OK) == 0)
        progress.start("Reading state information");
    progress.done();

    install::Goal goal = early  ? std::move(*early)
                         : target ? install::target_goal(config, su, cache, *session->candidates, *target)
                                  : install::read_goal(config, su, cache, *session->candidates, verb, ctx.args);
    request::CommandRequest& cr = goal.request;
    if ((verb == Verb::Upgrade || verb == Verb::FullUpgrade) &&
        system::external_solver_name(config).empty()) {  // an external one says "Execute external solver"
        progress.start("Calculating upgrade");
        progress.done();
    }
    solver::Request& r = cr.request;
    if (!json) {
        for (const std::string& n : cr.notes) std::printf("%s\n", n.c_str());
        for (const std::string& n : goal.walk_notes) std::printf("%s\n", n.c_str());
    }
    if (!cr.errors.empty()) {
        if (json) std::fputs(no_plan_json(install::verb_name(verb), "request", cr.errors, {}, {}).c_str(), stdout);
        return fail(cr.errors, ctx.diags);
    }
    // apt's programs do not mend a system that is broken already unless told
    // to (-f): what stays broken after the request's own marks is refused
    // before any solver runs; upgrades refuse any. aptus under its own name
    // lets the solver explain it instead.
    if (config.find("Binary", "aptus") != "aptus" && !config.find_bool("APT::Get::Fix-Broken")) {
        const bool recommends = config.find_bool("APT::Install-Recommends", true);
        const bool upgrade = verb == Verb::Upgrade || verb == Verb::FullUpgrade || verb == Verb::DselectUpgrade;
        auto broken = upgrade ? system::broken_installed(su, recommends)
                              : system::broken_after_request(su, r, recommends);
        if (!broken.empty()) return refuse_unmet(config, broken);
    }

    // APT::Solver (--solver): aptus's own or an external EDSP solver.
    system::SolveOutcome solved = system::solve_with(config, su, r, [&](std::string_view what) {
        progress.start(what);
        progress.done();
    });
    ctx.diags.insert(ctx.diags.end(), solved.diagnostics.begin(), solved.diagnostics.end());
    if (!solved.solution.solved) {
        if (json) {
            std::fputs(no_plan_json(install::verb_name(verb), "unsolvable", solved.errors, solved.solution.facts,
                                   solved.solution.suggestion).c_str(),
                       stdout);
            std::fflush(stdout);
            return fail(solved.errors, ctx.diags);
        }
        if (config.find("Binary", "aptus") != "aptus") {
            // An external solver's own report first, then apt's block.
            if (solved.external) {
                std::fflush(stdout);
                std::fputs(solved.report.c_str(), stderr);
                std::fflush(stderr);
            }
            return fail_as_apt(config, su, r, solved, ctx.diags);
        }
        std::fflush(stdout);
        std::fputs(solved.report.c_str(), stderr);
        return fail(solved.errors, ctx.diags);
    }
    const solver::Solution& s = solved.solution;
    if (config.find_bool("Debug::pkgAutoRemove")) print_keep_marks(su.universe, r, s.selected);
    std::vector<std::string> plan_errors;
    install::Plan plan = install::plan_goal(su, cache, *session->candidates, goal, s, plan_errors);
    if (!plan_errors.empty()) return fail(plan_errors, ctx.diags);
    if (json) {
        std::fputs(plan_json(cache, plan, install::verb_name(verb)).c_str(), stdout);
        return 0;
    }
    if (!act)
        if (auto dangers = install::unconfirmed_dangers(config, plan); !dangers.empty()) return fail(dangers, ctx.diags);
    PlanView view = plan_view(cache, plan, verb == Verb::Upgrade || verb == Verb::FullUpgrade);
    // Why obsolete packages go is aptus's own block; apt's programs keep their layout.
    if (config.find("Binary", "aptus") != "aptus")
        for (PlanEntry& e : view.remove) e.obsolete.clear();
    move_phased(cache, goal.phased, view);
    // apt's note, shown before its question (or at the end), when phasing
    // held an upgrade back; a notice, so not with -q.
    if (!view.phased.empty() && effective_quiet(config) == 0)
        ctx.diags.push_back({Level::Notice, "Some packages may have been kept back due to phasing."});
    add_suggestions(cache, *session->candidates, plan, view);
    PlanViewOptions options;
    options.width = plan_screen_width(&ctx.diags);
    options.color = Colors::for_stdout(config).enabled();
    options.colors = plan_colors(config);
    options.show_versions = config.find_bool("APT::Get::Show-Versions");
    options.simulate = simulate;
    options.native_arch = std::string(cache.native_architecture());
    options.classic = classic_layout(config);
    // -qq: as apt-get, no plan on the screen, only -s's lines and what asks
    // (apt itself still shows it).
    const bool plan_quiet = effective_quiet(config) >= 2 && config.find("Binary", "aptus") != "apt";
    // apt lists no "additional" packages for upgrades, nor for satisfy
    // (whose relations name no package the user gave).
    options.additional =
        verb != Verb::Upgrade && verb != Verb::FullUpgrade && verb != Verb::Satisfy && verb != Verb::BuildDep;
    if (config.find("APT::Get::HideAutoRemove") == "small")
        options.autoremovable = PlanViewOptions::Autoremovable::Count;
    else if (config.find_bool("APT::Get::HideAutoRemove"))
        options.autoremovable = PlanViewOptions::Autoremovable::Hide;
    // As apt: a root run under sudo is told the command with sudo.
    options.autoremove_command = advice_program(config) + " autoremove";
    if (const char* sudo = std::getenv("SUDO_USER"); sudo && *sudo && ::geteuid() == 0)
        options.autoremove_command = "sudo " + options.autoremove_command;
    if (!act) {
        std::fputs(((plan_quiet ? std::string() : render_plan(view, options)) + simulate_lines(su, cache, plan)).c_str(),
                   stdout);
        return 0;
    }
    view.space_available = free_space(config);
    std::vector<const cache::Version*> debs;
    for (const install::Change& ch : plan.changes)
        if (ch.new_version) debs.push_back(ch.new_version);
    if (auto bytes = install::archive_bytes(config, cache, debs, config.find_dir("Dir::Cache::Archives"))) {
        view.archive_bytes = bytes->total;
        view.download_bytes = bytes->to_fetch;
    }
    view.broken_count = install::unfinished_packages(cache).size();
    if (!plan_quiet) std::fputs(render_plan(view, options).c_str(), stdout);
    if (plan.changes.empty() && view.broken_count == 0) {
        // Nothing for dpkg; a named automatic package still becomes manual.
        // With nothing to mark and no extended_states yet, apt makes none.
        if (!cr.now_manual.empty() ||
            ::access(config.find_file("Dir::State::extended_states").c_str(), F_OK) == 0)
            write_manual_marks(config, cache, cr.now_manual);
        return 0;
    }
    check_allowed_changes(config, view);
    bool essential = false;
    for (const PlanEntry& e : view.remove) essential = essential || e.essential;
    // apt asks only when the plan does more than install what was named.
    const bool trivial = !essential && (verb == Verb::Install || verb == Verb::Reinstall) &&
                         std::all_of(plan.changes.begin(), plan.changes.end(), [](const install::Change& c) {
                             return c.requested && !c.automatic && !c.held &&
                                    (c.kind == install::ChangeKind::Install || c.kind == install::ChangeKind::Upgrade ||
                                     c.kind == install::ChangeKind::Reinstall);
                         });
    if (!trivial && config.find_bool("APT::Get::Trivial-Only"))
        throw Error("Trivial Only specified but this is not a trivial operation.");
    if (!trivial && !(essential ? ask_harmful(config) : ask_continue(config, ctx.diags))) return kExitDeclined;
    if (print_uris_wanted(config)) return print_plan_uris(config, cache, plan);
    confirm_unauthenticated(config, install::unauthenticated_names(cache, plan), true);
    install::apply_mark_auto(config, su, cache, cr, plan);
    return execute_plan(config, install::Execution{su, cache, plan, *lock, cr.now_manual});
}

}  // namespace

std::span<const OptionSpec> install_options() { return install_table; }
int run_install(Context& ctx) { return run(ctx, Verb::Install); }
int run_install_target(Context& ctx, const install::TargetState& target) { return run(ctx, Verb::Install, &target); }
int run_reinstall(Context& ctx) { return run(ctx, Verb::Reinstall); }
int run_remove(Context& ctx) { return run(ctx, Verb::Remove); }
int run_purge(Context& ctx) { return run(ctx, Verb::Purge); }
int run_upgrade(Context& ctx) { return run(ctx, Verb::Upgrade); }
int run_full_upgrade(Context& ctx) { return run(ctx, Verb::FullUpgrade); }
int run_autoremove(Context& ctx) { return run(ctx, Verb::AutoRemove); }
int run_autopurge(Context& ctx) { return run(ctx, Verb::AutoPurge); }
int run_dselect_upgrade(Context& ctx) { return run(ctx, Verb::DselectUpgrade); }
int run_satisfy(Context& ctx) { return run(ctx, Verb::Satisfy); }
int run_build_dep(Context& ctx) { return run(ctx, Verb::BuildDep); }

}  // namespace aptus::cli
