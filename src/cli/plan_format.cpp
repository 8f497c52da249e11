#include "cli/plan_format.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <nlohmann/json.hpp>

#include "aptus/deb/version.hpp"
#include "aptus/system/simulated_state.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/request.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::cli {

namespace {

std::string name_of(const cache::Cache& c, const cache::Package& p) { return request::full_name(c, p); }

const char* kind_name(const install::Change& ch) {
    switch (ch.kind) {
        case install::ChangeKind::Install: return "install";
        case install::ChangeKind::Upgrade: return "upgrade";
        case install::ChangeKind::Downgrade: return "downgrade";
        case install::ChangeKind::Reinstall: return "reinstall";
        case install::ChangeKind::Remove: return ch.purge ? "purge" : "remove";
    }
    return "";
}

}  // namespace

std::string simulate_lines(const system::SystemUniverse& su, const cache::Cache& c, const install::Plan& plan) {
    const solver::Universe& u = su.universe;
    auto universe_version = [&](const cache::Version* v) { return su.version_of(c.index_of(*v)); };
    std::vector<uint32_t> planned;
    for (const install::Change& ch : plan.changes)
        if (ch.new_version)
            if (auto uv = universe_version(ch.new_version)) planned.push_back(*uv);
    system::SimulatedState sim(u, planned);
    std::vector<uint8_t> stepped(u.packages.size(), 0);  // apt's Flags: touched by a step so far
    auto in_apt_order = [&](std::vector<uint32_t> pkgs) {
        std::stable_sort(pkgs.begin(), pkgs.end(), [&](uint32_t a, uint32_t b) {
            return request::apt_hash_key(u.names[u.packages[a].name]) < request::apt_hash_key(u.names[u.packages[b].name]);
        });
        return pkgs;
    };
    // " [a:amd64 b:i386 ]": what is broken now and no step has touched yet.
    auto breaks = [&] {
        if (sim.broken_count() == 0) return std::string("\n");
        std::string out = " [";
        for (uint32_t p : in_apt_order(sim.broken_packages()))
            if (!stepped[p]) out += u.package_name(p) + " ";
        return out + "]\n";
    };
    auto target_name = [&](uint32_t p, const solver::Target& t) {
        std::string arch = t.arch.empty() || t.arch == "any" ? u.packages[p].arch : t.arch == "native" ? u.native_arch : t.arch;
        return u.names[t.name] + ":" + arch;
    };
    auto describe = [&](const cache::Version& v) {
        return " (" + std::string(c.str(v.version)) + " " + request::release_text(c, v) + ")";
    };
    std::string out;
    for (const install::PlanStep& step : plan.steps) {
        const install::Change& ch = plan.changes[step.change];
        const cache::Version* touched = ch.kind == install::ChangeKind::Remove ? ch.old_version : ch.new_version;
        const std::optional<uint32_t> uv = touched ? universe_version(touched) : std::nullopt;
        const uint32_t up = uv ? u.versions[*uv].package : 0;
        if (uv) stepped[up] = 1;
        switch (step.action) {
            case system::DpkgAction::Remove:
            case system::DpkgAction::Purge:
                out += std::string(step.action == system::DpkgAction::Purge ? "Purg " : "Remv ") +
                       name_of(c, *ch.package);
                // Only configuration files left: apt names no version.
                if (ch.package->state != cache::InstallState::ConfigFiles)
                    out += " [" + std::string(c.str(ch.old_version->version)) + "]";
                if (uv) sim.remove(up);
                out += breaks();
                break;
            case system::DpkgAction::Unpack:
                out += "Inst " + name_of(c, *ch.package);
                if (ch.old_version) out += " [" + std::string(c.str(ch.old_version->version)) + "]";
                out += describe(*ch.new_version);
                if (uv) {
                    sim.install(*uv);
                    // A Conflicts, Breaks or Pre-Depends this unpack leaves unmet
                    // (nothing to scan when nothing is broken: the common case).
                    if (sim.broken_count() != 0)
                        for (uint32_t p : in_apt_order(sim.broken_packages()))
                            for (const auto& [kind, target] : sim.unmet(p))
                                if (solver::is_negative(kind) || kind == solver::DepKind::PreDepends)
                                    out += " [" + u.package_name(p) + " on " + target_name(p, target) + "]";
                }
                out += breaks();
                break;
            case system::DpkgAction::Configure:
                // apt says "Conf x broken" when its own order configures a
                // package too early; aptus's order is checked against dpkg's
                // rules, which let a Conflicts+Replaces wait for dpkg.
                out += "Conf " + name_of(c, *ch.package) + describe(*ch.new_version);
                out += breaks();
                break;
        }
    }
    return out;
}

PlanView plan_view(const cache::Cache& c, const install::Plan& plan, bool kept_back) {
    PlanView view;
    auto entry = [&](const cache::Package& p, const cache::Version* old_v, const cache::Version* new_v) {
        PlanEntry e;
        e.name = std::string(c.name_of(p));
        e.arch = std::string(c.str(p.architecture));
        if (old_v) e.old_version = std::string(c.str(old_v->version));
        if (new_v) e.new_version = std::string(c.str(new_v->version));
        return e;
    };
    for (const install::Change& ch : plan.changes) {
        PlanEntry e = entry(*ch.package, ch.old_version, ch.new_version);
        e.automatic = ch.automatic;
        e.purge = ch.purge;
        e.essential = ch.essential;
        e.due_to = ch.due_to;
        e.obsolete = ch.obsolete;
        if (!ch.requested && (ch.kind == install::ChangeKind::Upgrade || ch.kind == install::ChangeKind::Downgrade))
            view.additional_upgrades.push_back(e);
        switch (ch.kind) {
            case install::ChangeKind::Install: (ch.automatic ? view.install_deps : view.install).push_back(e); break;
            case install::ChangeKind::Upgrade: view.upgrade.push_back(e); break;
            case install::ChangeKind::Downgrade: view.downgrade.push_back(e); break;
            case install::ChangeKind::Reinstall: view.reinstall.push_back(e); break;
            case install::ChangeKind::Remove: view.remove.push_back(e); break;
        }
        if (ch.held) view.held_changes.push_back(e);
        if (ch.new_version) view.download_bytes += c.size_of(*ch.new_version);
    }
    view.space_change_bytes = install::disk_space_change(plan);
    for (const cache::Version* v : plan.autoremovable) {
        view.autoremovable_hint.push_back(request::full_name(c, c.package_of(*v)));
        view.autoremovable_versions.push_back(std::string(c.str(v->version)));  // shown with -V
    }
    view.not_upgraded_count = plan.not_upgraded.size();
    if (kept_back) {
        for (size_t i = 0; i < plan.not_upgraded.size(); ++i) {
            const cache::Package& p = *plan.not_upgraded[i];
            view.not_upgraded.push_back(entry(p, c.current_version(p), plan.not_upgraded_candidates[i]));
        }
        std::sort(view.not_upgraded.begin(), view.not_upgraded.end(),
                  [](const PlanEntry& a, const PlanEntry& b) { return a.name < b.name; });
    }
    return view;
}

namespace {

const char* fact_kind_name(solver::ReasonKind k) {
    switch (k) {
        case solver::ReasonKind::RequestInstall: return "request-install";
        case solver::ReasonKind::RequestRemove: return "request-remove";
        case solver::ReasonKind::Hold: return "hold";
        case solver::ReasonKind::Essential: return "essential";
        case solver::ReasonKind::Protected: return "protected";
        case solver::ReasonKind::NoRemovals: return "no-removals";
        case solver::ReasonKind::Manual: return "manual";
        case solver::ReasonKind::OneVersion: return "one-version";
        case solver::ReasonKind::MultiArchSame: return "multi-arch-same";
        case solver::ReasonKind::Dependency: return "dependency";
        case solver::ReasonKind::Conflict: return "conflict";
        case solver::ReasonKind::NewEssential: return "new-essential";
        case solver::ReasonKind::OneArchitecture: return "one-architecture";
    }
    return "";
}

}  // namespace

std::string no_plan_json(std::string_view command, std::string_view kind, const std::vector<std::string>& errors,
                         const std::vector<solver::Fact>& facts, const std::vector<std::string>& suggestion) {
    nlohmann::ordered_json out;
    out["schema_version"] = 1;
    out["command"] = command;
    out["solved"] = false;
    std::string message;
    for (const std::string& e : errors) message += (message.empty() ? "" : "\n") + e;
    out["error"] = {{"kind", kind}, {"message", message}};
    auto& list = out["facts"] = nlohmann::ordered_json::array();
    for (const solver::Fact& f : facts) {
        nlohmann::ordered_json j{{"kind", fact_kind_name(f.kind)}, {"package", f.package}};
        if (!f.version.empty()) j["version"] = f.version;
        j["text"] = f.text;
        list.push_back(std::move(j));
    }
    // The words of a changed request the solver met, after the program's name.
    if (!suggestion.empty()) out["suggestion"] = suggestion;
    return out.dump(2) + "\n";
}

std::string plan_json(const cache::Cache& c, const install::Plan& plan, std::string_view command) {
    nlohmann::ordered_json out;
    out["schema_version"] = 1;
    out["command"] = command;
    out["solved"] = true;
    auto& changes = out["changes"] = nlohmann::ordered_json::array();
    for (const install::Change& ch : plan.changes) {
        nlohmann::ordered_json j;
        j["action"] = kind_name(ch);
        j["package"] = std::string(c.name_of(*ch.package));
        j["architecture"] = std::string(c.str(ch.package->architecture));
        j["old_version"] = ch.old_version ? nlohmann::ordered_json(std::string(c.str(ch.old_version->version))) : nullptr;
        j["new_version"] = ch.new_version ? nlohmann::ordered_json(std::string(c.str(ch.new_version->version))) : nullptr;
        j["release"] = ch.new_version ? nlohmann::ordered_json(request::release_text(c, *ch.new_version)) : nullptr;
        j["automatic"] = ch.automatic;
        // The package is Essential or protected (the version that comes, else
        // the one that goes): base-files' upgrade is an essential change too.
        const cache::Version* named = ch.new_version ? ch.new_version : ch.old_version;
        j["essential"] = ch.essential ||
                         (named && (named->flags & (cache::kVersionEssential | cache::kVersionProtected)) != 0);
        j["held"] = ch.held;
        if (!ch.obsolete.empty()) j["obsolete"] = ch.obsolete;
        changes.push_back(std::move(j));
    }
    auto& garbage = out["autoremovable"] = nlohmann::ordered_json::array();
    for (const cache::Version* v : plan.autoremovable)
        garbage.push_back({{"package", std::string(c.name_of(c.package_of(*v)))},
                           {"architecture", std::string(c.str(c.package_of(*v).architecture))},
                           {"version", std::string(c.str(v->version))}});
    auto& kept = out["not_upgraded"] = nlohmann::ordered_json::array();
    for (const cache::Package* p : plan.not_upgraded) kept.push_back(request::full_name(c, *p));
    return out.dump(2) + "\n";
}

void add_suggestions(const cache::Cache& c, const system::Candidates& candidates, const install::Plan& plan, PlanView& view) {
    const install::UnmetRelations unmet = install::unmet_relations(c, candidates, plan);
    auto add = [](const std::vector<install::UnmetGroup>& groups, std::vector<std::string>& names,
                  std::vector<std::string>& versions) {
        for (const install::UnmetGroup& g : groups)
            for (size_t k = 0; k < g.alternatives.size(); ++k) {
                names.push_back(k == 0 ? g.alternatives[k].name : "| " + g.alternatives[k].name);
                versions.push_back(g.alternatives[k].candidate_version);
            }
    };
    add(unmet.suggested, view.suggested, view.suggested_versions);
    add(unmet.recommended, view.recommended, view.recommended_versions);
}

}  // namespace aptus::cli
