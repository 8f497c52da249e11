#include "aptus/install/goal.hpp"

#include <algorithm>
#include <optional>

#include "aptus/install/build_dep.hpp"
#include "aptus/install/satisfy.hpp"
#include "aptus/request/release_walk.hpp"
#include "aptus/request/version_select.hpp"
#include "aptus/system/phased_updates.hpp"

namespace aptus::install {
namespace {

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

}  // namespace

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
        case Verb::Satisfy: return "satisfy";
        case Verb::BuildDep: return "build-dep";
    }
    return "";
}

std::string goal_word(const PackageSpec& spec) {
    std::string word = spec.name;
    if (!spec.arch.empty()) word += ":" + spec.arch;
    if (!spec.version.empty()) word += "=" + spec.version;
    else if (!spec.release.empty()) word += "/" + spec.release;
    if (spec.action == PackageSpec::Action::Install) word += "+";
    if (spec.action == PackageSpec::Action::Remove) word += "-";
    return word;
}

Goal read_goal(const config::Config& config, system::SystemUniverse& su, const cache::Cache& cache,
               const system::Candidates& candidates, Verb verb, std::span<const std::string> words) {
    Goal goal;
    goal.verb = verb;
    // Where several architectures of a package would do, the configured order decides.
    system::order_architectures(su.universe, config.find_list("APT::Architectures"));
    if (verb == Verb::Satisfy || verb == Verb::BuildDep) {
        if (verb == Verb::Satisfy) {
            goal.placeholders.push_back(add_satisfy_placeholder(su, config, words));
        } else {
            goal.satisfiers_manual = !config.find_bool("APT::Get::Build-Dep-Automatic");
            for (BuildDeps& deps : read_build_deps(cache, config, words, &candidates)) {
                for (std::string& note : deps.notes) goal.request.notes.push_back(std::move(note));
                const uint32_t placeholder = add_satisfy_placeholder(su, config, deps.words, deps.placeholder);
                goal.placeholders.push_back(placeholder);
                if (deps.release.empty()) continue;
                const auto moves = request::follow_release(
                    su, cache, su.universe.packages[placeholder].versions.front(), deps.release,
                    config.find_bool("APT::Install-Recommends", true), config.find_bool("APT::Install-Suggests"));
                if (!deps.from_file)
                    for (std::string& n : request::release_move_notes(su, cache, moves, "src:" + deps.source))
                        goal.walk_notes.push_back(std::move(n));
            }
        }
        request::apply_request_settings(config, goal.request.request);
        goal.request.request.install = goal.placeholders;
        return goal;
    }
    const request::RequestAction action = verb == Verb::Install || verb == Verb::Reinstall || verb == Verb::Upgrade ||
                                                  verb == Verb::FullUpgrade || verb == Verb::DselectUpgrade
                                              ? request::RequestAction::Install
                                              : request::RequestAction::Remove;
    goal.reinstall = verb == Verb::Reinstall || config.find_bool("APT::Get::ReInstall");
    bool purge_selected = false;
    std::vector<std::string> selected;
    if (verb == Verb::DselectUpgrade) {
        selected = selection_words(cache, purge_selected);
        words = selected;
    }
    goal.request = request::read_request(su, cache, candidates, config, action, words, goal.reinstall);
    request::CommandRequest& cr = goal.request;
    if (purge_selected) cr.request.purge = true;
    if (goal.reinstall)
        for (std::string& note : reinstall_notes(cache, cr.already_installed)) cr.notes.push_back(std::move(note));
    solver::Request& r = cr.request;
    if (verb == Verb::Purge || verb == Verb::AutoPurge) r.purge = true;
    const std::optional<bool> autoremove_asked =
        config.exists("Aptus::Cmd::AutoRemove") ? std::optional<bool>(config.find_bool("Aptus::Cmd::AutoRemove"))
                                                : std::nullopt;
    if (autoremove_asked) r.autoremove = *autoremove_asked;
    if (verb == Verb::AutoRemove || verb == Verb::AutoPurge) r.autoremove = true;
    if (verb == Verb::Upgrade || verb == Verb::FullUpgrade) {
        goal.phased = system::hold_deferred(su, system::deferred_by_phasing(cache, candidates), r);
        r.upgrade_all = true;
        if (verb == Verb::Upgrade) {
            r.forbid_remove = true;
            // An upgrade removes nothing for APT::Get::AutomaticRemove (apt-get
            // upgrade only hints at what autoremove would take), only for --autoremove.
            r.autoremove = autoremove_asked.value_or(false);
            r.forbid_new_install = !config.find_bool("APT::Get::Upgrade-Allow-New", false);
        }
    }
    if (!r.purge)
        for (const cache::Package* p : cr.config_files)
            cr.notes.push_back("Package '" + request::full_name(cache, *p) + "' is not installed, so not removed");
    return goal;
}

Plan plan_goal(const system::SystemUniverse& su, const cache::Cache& cache, const system::Candidates& candidates,
               const Goal& goal, const solver::Solution& solution, std::vector<std::string>& errors) {
    const request::CommandRequest& cr = goal.request;
    solver::Solution changes = solution;
    solver::Request asked = cr.request;
    for (uint32_t placeholder : goal.placeholders) {
        if (goal.satisfiers_manual)
            for (uint32_t p : placeholder_satisfiers(su, placeholder, solution)) asked.install.push_back(p);
        drop_placeholder(su, placeholder, changes);
    }
    Plan plan = make_plan(su, cache, candidates, asked, changes, cr.unheld);
    const size_t solved_changes = plan.changes.size();
    // A full upgrade says why it removes an obsolete package (README: what
    // full-upgrade may remove).
    if (goal.verb == Verb::FullUpgrade) {
        const std::vector<uint32_t> obsolete = solver::obsolete_packages(su.universe);
        for (Change& ch : plan.changes) {
            if (ch.kind != ChangeKind::Remove) continue;
            const auto up = su.package_of(cache.index_of(*ch.package));
            if (!up || obsolete[*up] == solver::kNotObsolete) continue;
            if (obsolete[*up] == solver::kNoCandidate) {
                ch.obsolete = "no repository has it any more";
                continue;
            }
            const solver::Version& by = su.universe.versions[obsolete[*up]];
            ch.obsolete = "replaced by " + su.universe.names[su.universe.packages[by.package].name] + " " +
                          by.version + ", built from the same source, " + by.source;
        }
    }
    if (cr.request.purge) add_config_purges(cache, cr.config_files, plan);
    add_reinstalls(cache, goal.reinstall ? cr.already_installed : cr.reinstall, plan);
    for (std::string& e : add_required_reinstalls(cache, plan)) errors.push_back(std::move(e));
    // What was added after the solver is in -s's lines too (apt prints a
    // reinstall's Inst and Conf).
    bool reorder = plan.changes.size() != solved_changes;
    for (Change& ch : plan.changes) {
        if (ch.kind == ChangeKind::Remove) {
            const bool purge = std::find(goal.purges.begin(), goal.purges.end(), ch.package) != goal.purges.end();
            if (purge && !ch.purge) {
                ch.purge = true;
                reorder = true;
            }
            continue;
        }
        for (const auto& [package, automatic] : goal.marks)
            if (package == ch.package) ch.automatic = automatic;
    }
    if (reorder) order_steps(su, cache, plan);
    return plan;
}

}  // namespace aptus::install
