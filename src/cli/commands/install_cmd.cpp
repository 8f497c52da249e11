#include "cli/commands/install_cmd.hpp"

#include <algorithm>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sys/statvfs.h>

#include "aptus/base/error.hpp"
#include "aptus/sources/source_list.hpp"
#include "aptus/solver/why.hpp"
#include "aptus/system/authentication.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/external_solver.hpp"
#include "aptus/system/phased_updates.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/archive_download.hpp"
#include "cli/color.hpp"
#include "cli/mark_auto.hpp"
#include "cli/commands/check_cmd.hpp"
#include "cli/commands/plan_cmd.hpp"
#include "cli/package_line.hpp"
#include "cli/plan_execute.hpp"
#include "cli/plan_view.hpp"
#include "cli/print_uris.hpp"
#include "cli/prompt.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/request.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

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
    // --autoremove is a request of its own (Aptus::Cmd::AutoRemove): apt's
    // upgrade honours it but not APT::Get::AutomaticRemove from the config.
    {0, "auto-remove", "Aptus::Cmd::AutoRemove", ArgKind::Flag},
    {0, "autoremove", "Aptus::Cmd::AutoRemove", ArgKind::Flag},
    {0, "with-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::Flag},
    {'V', "verbose-versions", "APT::Get::Show-Versions", ArgKind::Flag},
    {0, "force-yes", "APT::Get::Force-Yes", ArgKind::Flag},
    {0, "json", "Aptus::Plan::JSON", ArgKind::Flag},
    {'d', "download-only", "APT::Get::Download-Only", ArgKind::Flag},
    {0, "assume-no", "APT::Get::Assume-No", ArgKind::Flag},
    {0, "trivial-only", "APT::Get::Trivial-Only", ArgKind::Flag},
    {0, "reinstall", "APT::Get::ReInstall", ArgKind::Flag},
};

enum class Verb { Install, Reinstall, Remove, Purge, Upgrade, FullUpgrade, AutoRemove, AutoPurge, DselectUpgrade };

const char* verb_name(Verb v) {
    switch (v) {
        case Verb::Install: return "install";
        case Verb::Reinstall: return "reinstall";
        case Verb::Remove: return "remove";
        case Verb::Purge: return "purge";
        case Verb::Upgrade: return "upgrade";
        case Verb::FullUpgrade: return "full-upgrade";
        case Verb::AutoRemove: return "autoremove";
        case Verb::AutoPurge: return "autopurge";
        case Verb::DselectUpgrade: return "dselect-upgrade";
    }
    return "";
}

int fail(const std::vector<std::string>& errors) {
    std::fflush(stdout);
    for (const std::string& e : errors) std::fprintf(stderr, "E: %s\n", e.c_str());
    return 100;
}

// apt-get's failure: what its marking of the request left broken, then its
// solver's error. apt's classic solver says its problem resolver "generated
// breaks" when what stays broken is a package already installed (held, or
// essential and kept), "held broken packages" otherwise; solver3 (--solver
// 3.0) gives its own reasoning, here aptus's facts.
int fail_as_apt(const config::Config& config, const system::SystemUniverse& su, const solver::Request& r,
                const system::SolveOutcome& solved) {
    // apt hands an external solver the request's own marks, dependencies
    // unfollowed: what it reports broken after the solver failed is those.
    const bool recommends = config.find_bool("APT::Install-Recommends", true);
    auto broken = system::broken_after_failed_request(su, r, recommends, !solved.external);
    print_unsatisfiable(broken);
    std::fflush(stdout);
    const std::string solver = config.find("APT::Solver", "internal");
    if (solver == "3.0" || solver == "3.1" || solved.external) return fail(solved.errors);
    const bool installed_broken =
        std::any_of(broken.begin(), broken.end(), [](const system::BrokenPackage& b) { return b.installed; });
    return fail({installed_broken ? "Error, pkgProblemResolver::Resolve generated breaks, this may be caused by held packages."
                                  : "Unable to correct problems, you have held broken packages."});
}

// apt-get's fail-safe: with -y (or -qq) a dangerous plan needs its own switch.
// What the plan fetches from repositories that are not authenticated, by
// name, in the order of the plan.
std::vector<std::string> unauthenticated_names(const cache::Cache& cache, const Plan& plan) {
    std::vector<std::string> names;
    for (const Change& ch : plan.changes)
        if (ch.new_version && !system::is_authenticated(cache, *ch.new_version))
            names.push_back(request::full_name(cache, *ch.package));
    return names;
}

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

// Packages of which only configuration files are left are purged as apt
// does; the solver never sees them (nothing of them is installed).
void add_config_purges(const cache::Cache& cache, const std::vector<const cache::Package*>& packages, Plan& plan) {
    for (const cache::Package* p : packages)
        for (const cache::Version& v : cache.versions_of(*p)) {
            bool from_status = false;
            for (const cache::VersionFile& f : cache.files_of(v))
                from_status = from_status || cache.index_files()[f.index_file].kind == cache::IndexKind::Status;
            if (!from_status) continue;
            Change ch{.kind = ChangeKind::Remove, .package = p, .old_version = &v};
            ch.purge = true;
            plan.changes.insert(plan.changes.begin(), ch);
            break;
        }
}

// A version can be installed again only when a repository still offers it.
bool downloadable(const cache::Cache& cache, const cache::Version& v) {
    for (const cache::VersionFile& f : cache.files_of(v))
        if (cache.index_files()[f.index_file].kind == cache::IndexKind::Packages) return true;
    return false;
}

std::vector<std::string> reinstall_notes(const cache::Cache& cache, const std::vector<const cache::Package*>& named) {
    std::vector<std::string> notes;
    for (const cache::Package* p : named)
        if (!downloadable(cache, *cache.current_version(*p)))
            notes.push_back("Reinstallation of " + request::full_name(cache, *p) + " is not possible, it cannot be downloaded.");
    return notes;
}

// apt-get dselect-upgrade: dpkg's selections as request words: "name:arch"
// for what is selected for install and missing, "name:arch-" for what is
// selected for deinstall or purge and still there (`purge`: some for purge).
std::vector<std::string> selection_words(const cache::Cache& cache, bool& purge) {
    std::vector<std::string> words;
    for (const cache::Package& p : cache.packages()) {
        const std::string name = std::string(cache.name_of(p)) + ":" + std::string(cache.str(p.architecture));
        const bool installed = cache.current_version(p) != nullptr;
        if (p.selection == cache::Selection::Install && !installed && p.version_count > 0) words.push_back(name);
        if ((p.selection == cache::Selection::Deinstall || p.selection == cache::Selection::Purge) &&
            (installed || p.state == cache::InstallState::ConfigFiles)) {
            words.push_back(name + "-");
            purge = purge || p.selection == cache::Selection::Purge;
        }
    }
    return words;
}

// --reinstall / reinstall: the named installed versions are installed again
// (those a repository still offers; reinstall_notes says which are not).
void add_reinstalls(const cache::Cache& cache, const std::vector<const cache::Package*>& named, Plan& plan) {
    for (const cache::Package* p : named) {
        const cache::Version* v = cache.current_version(*p);
        if (!v || !downloadable(cache, *v)) continue;
        bool planned = false;
        for (const Change& ch : plan.changes) planned = planned || ch.package == p;
        if (planned) continue;
        Change ch{.kind = ChangeKind::Reinstall, .package = p, .old_version = v, .new_version = v};
        ch.automatic = p->flags & cache::kPackageAuto;  // as apt: a reinstall changes no mark
        plan.changes.push_back(ch);
    }
}

// apt's pkgApplyStatus, its reinstreq half: a package dpkg marked as
// needing reinstallation (reinstreq, or half-installed: an unpack that a
// failure or a kill -9 cut short; `dpkg --configure -a` cannot finish it)
// is unpacked again from its version when a repository still offers it,
// keeping its automatic mark; otherwise apt's error. Without this the plan
// counts the broken package as installed and dpkg refuses what depends on it.
std::vector<std::string> add_required_reinstalls(const cache::Cache& cache, Plan& plan) {
    std::vector<std::string> errors;
    for (const cache::Package& p : cache.packages()) {
        if (p.status_flag != cache::StatusFlag::Reinstreq && p.state != cache::InstallState::HalfInstalled) continue;
        const cache::Version* v = cache.current_version(p);
        if (!v) continue;
        bool planned = false;
        for (const Change& ch : plan.changes) planned = planned || ch.package == &p;
        if (planned) continue;
        if (!downloadable(cache, *v)) {
            errors.push_back("The package " + request::full_name(cache, p) +
                             " needs to be reinstalled, but I can't find an archive for it.");
            continue;
        }
        Change ch{.kind = ChangeKind::Reinstall, .package = &p, .old_version = v, .new_version = v};
        ch.automatic = (p.flags & cache::kPackageAuto) != 0;
        plan.changes.push_back(ch);
    }
    return errors;
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

int run(Context& ctx, Verb verb) {
    const config::Config& config = ctx.config;
    bool json = config.find_bool("Aptus::Plan::JSON");
    bool simulate = config.find_bool("APT::Get::Simulate");
    bool act = !simulate && !json;
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
    Progress progress(config, json);
    progress.start("Reading package lists");
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    progress.start("Building dependency tree");
    system::SystemUniverse su = system::system_universe(cache, *session->candidates);
    // As apt: the line is the reading of extended_states, so only when there is one.
    if (::access(config.find_file("Dir::State::extended_states").c_str(), F_OK) == 0)
        progress.start("Reading state information");
    progress.done();

    request::RequestAction action = verb == Verb::Install || verb == Verb::Reinstall || verb == Verb::Upgrade ||
                                   verb == Verb::FullUpgrade || verb == Verb::DselectUpgrade
                               ? request::RequestAction::Install
                               : request::RequestAction::Remove;
    bool reinstall = verb == Verb::Reinstall || config.find_bool("APT::Get::ReInstall");
    bool purge_selected = false;
    const std::vector<std::string> words =
        verb == Verb::DselectUpgrade ? selection_words(cache, purge_selected) : ctx.args;
    request::CommandRequest cr = request::read_request(su, cache, *session->candidates, config, action, words, reinstall);
    if (purge_selected) cr.request.purge = true;
    if (reinstall)
        for (std::string& note : reinstall_notes(cache, cr.already_installed)) cr.notes.push_back(std::move(note));
    solver::Request& r = cr.request;
    if (verb == Verb::Purge || verb == Verb::AutoPurge) r.purge = true;
    const std::optional<bool> autoremove_asked =
        config.exists("Aptus::Cmd::AutoRemove") ? std::optional<bool>(config.find_bool("Aptus::Cmd::AutoRemove"))
                                                : std::nullopt;
    if (autoremove_asked) r.autoremove = *autoremove_asked;
    if (verb == Verb::AutoRemove || verb == Verb::AutoPurge) r.autoremove = true;
    std::vector<uint32_t> phased;  // upgrades deferred by phasing, held for this run
    if (verb == Verb::Upgrade || verb == Verb::FullUpgrade) {
        phased = system::hold_deferred(su, system::deferred_by_phasing(cache, *session->candidates), r);
        r.upgrade_all = true;
        if (verb == Verb::Upgrade) {
            r.forbid_remove = true;
            // An upgrade removes nothing for APT::Get::AutomaticRemove (apt-get
            // upgrade only hints at what autoremove would take), only for --autoremove.
            r.autoremove = autoremove_asked.value_or(false);
            r.forbid_new_install = !config.find_bool("APT::Get::Upgrade-Allow-New", false);
        }
        if (system::external_solver_name(config).empty()) {  // an external one says "Execute external solver"
            progress.start("Calculating upgrade");
            progress.done();
        }
    }
    if (!r.purge)
        for (const cache::Package* p : cr.config_files)
            cr.notes.push_back("Package '" + request::full_name(cache, *p) + "' is not installed, so not removed");
    if (!json)
        for (const std::string& n : cr.notes) std::printf("%s\n", n.c_str());
    if (!cr.errors.empty()) return fail(cr.errors);
    // apt's programs do not mend a system that is broken already unless told
    // to (-f): what stays broken after the request's own marks is refused
    // before any solver runs; upgrades refuse any. aptus under its own name
    // lets the solver explain it instead.
    if (config.find("Binary", "aptus") != "aptus" && !config.find_bool("APT::Get::Fix-Broken")) {
        const bool recommends = config.find_bool("APT::Install-Recommends", true);
        const bool upgrade = verb == Verb::Upgrade || verb == Verb::FullUpgrade || verb == Verb::DselectUpgrade;
        auto broken = upgrade ? system::broken_installed(su, recommends)
                              : system::broken_after_request(su, r, recommends);
        if (!broken.empty()) return refuse_unmet(broken);
    }

    // APT::Solver (--solver): aptus's own or an external EDSP solver.
    system::SolveOutcome solved = system::solve_with(config, su, r, [&](std::string_view what) {
        progress.start(what);
        progress.done();
    });
    ctx.diags.insert(ctx.diags.end(), solved.diagnostics.begin(), solved.diagnostics.end());
    if (!solved.solution.solved) {
        if (!json && config.find("Binary", "aptus") != "aptus") {
            // An external solver's own report first, then apt's block.
            if (solved.external) {
                std::fflush(stdout);
                std::fputs(solved.report.c_str(), stderr);
                std::fflush(stderr);
            }
            return fail_as_apt(config, su, r, solved);
        }
        std::fflush(stdout);
        std::fputs(solved.report.c_str(), stderr);
        return fail(solved.errors);
    }
    const solver::Solution& s = solved.solution;
    if (config.find_bool("Debug::pkgAutoRemove")) print_keep_marks(su.universe, r, s.selected);
    Plan plan = make_plan(su, cache, *session->candidates, r, s, cr.unheld);
    const size_t solved_changes = plan.changes.size();
    if (r.purge) add_config_purges(cache, cr.config_files, plan);
    if (reinstall) add_reinstalls(cache, cr.already_installed, plan);
    if (auto errors = add_required_reinstalls(cache, plan); !errors.empty()) return fail(errors);
    // What was added after the solver is in -s's lines too (apt prints a
    // reinstall's Inst and Conf).
    if (plan.changes.size() != solved_changes) order_steps(su, cache, plan);
    if (json) {
        std::fputs(plan_json(cache, plan, verb_name(verb)).c_str(), stdout);
        return 0;
    }
    if (!act)
        if (auto dangers = unconfirmed_dangers(config, plan); !dangers.empty()) return fail(dangers);
    PlanView view = plan_view(cache, plan, verb == Verb::Upgrade || verb == Verb::FullUpgrade);
    move_phased(cache, phased, view);
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
    options.additional = verb != Verb::Upgrade && verb != Verb::FullUpgrade;
    if (config.find("APT::Get::HideAutoRemove") == "small")
        options.autoremovable = PlanViewOptions::Autoremovable::Count;
    else if (config.find_bool("APT::Get::HideAutoRemove"))
        options.autoremovable = PlanViewOptions::Autoremovable::Hide;
    // As apt: a root run under sudo is told the command with sudo.
    if (const char* sudo = std::getenv("SUDO_USER"); sudo && *sudo && ::geteuid() == 0)
        options.autoremove_command = "sudo apt autoremove";
    if (!act) {
        std::fputs(((plan_quiet ? std::string() : render_plan(view, options)) + simulate_lines(su, cache, plan)).c_str(),
                   stdout);
        return 0;
    }
    view.space_available = free_space(config);
    std::vector<const cache::Version*> debs;
    for (const Change& ch : plan.changes)
        if (ch.new_version) debs.push_back(ch.new_version);
    if (auto bytes = archive_bytes(config, cache, debs, config.find_dir("Dir::Cache::Archives"))) {
        view.archive_bytes = bytes->total;
        view.download_bytes = bytes->to_fetch;
    }
    view.broken_count = unfinished_packages(cache).size();
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
                         std::all_of(plan.changes.begin(), plan.changes.end(), [](const Change& c) {
                             return c.requested && !c.automatic && !c.held &&
                                    (c.kind == ChangeKind::Install || c.kind == ChangeKind::Upgrade ||
                                     c.kind == ChangeKind::Reinstall);
                         });
    if (!trivial && config.find_bool("APT::Get::Trivial-Only"))
        throw Error("Trivial Only specified but this is not a trivial operation.");
    if (!trivial && !(essential ? ask_harmful(config) : ask_continue(config, ctx.diags))) return 1;
    if (print_uris_wanted(config)) return print_plan_uris(config, cache, plan);
    confirm_unauthenticated(config, unauthenticated_names(cache, plan), true);
    apply_mark_auto(config, su, cache, cr, plan);
    return execute_plan(config, Execution{su, cache, plan, *lock, cr.now_manual});
}

}  // namespace

std::span<const OptionSpec> install_options() { return install_table; }
int run_install(Context& ctx) { return run(ctx, Verb::Install); }
int run_reinstall(Context& ctx) { return run(ctx, Verb::Reinstall); }
int run_remove(Context& ctx) { return run(ctx, Verb::Remove); }
int run_purge(Context& ctx) { return run(ctx, Verb::Purge); }
int run_upgrade(Context& ctx) { return run(ctx, Verb::Upgrade); }
int run_full_upgrade(Context& ctx) { return run(ctx, Verb::FullUpgrade); }
int run_autoremove(Context& ctx) { return run(ctx, Verb::AutoRemove); }
int run_autopurge(Context& ctx) { return run(ctx, Verb::AutoPurge); }
int run_dselect_upgrade(Context& ctx) { return run(ctx, Verb::DselectUpgrade); }

}  // namespace aptus::cli
