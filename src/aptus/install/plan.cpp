#include "aptus/install/plan.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "aptus/base/error.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/request/version_select.hpp"
#include "aptus/system/authentication.hpp"

namespace aptus::install {

bool downloadable(const cache::Cache& cache, const cache::Version& v) {
    for (const cache::VersionFile& f : cache.files_of(v))
        if (cache.index_files()[f.index_file].kind == cache::IndexKind::Packages) return true;
    return false;
}

namespace {

// The dpkg steps as steps on plan.changes, after those already there. A
// version is removed or installed, never both, so it names its change.
void add_steps(const system::SystemUniverse& su, const cache::Cache& c, const std::vector<system::DpkgStep>& steps,
               Plan& plan) {
    std::unordered_map<uint32_t, size_t> change_of;  // universe version -> index in plan.changes
    // The installed versions of upgraded packages: a conflicts loop removes
    // one for a while (dpkg_order.hpp), a Remove step of its upgrade.
    std::unordered_map<uint32_t, size_t> upgraded_from;
    for (size_t i = 0; i < plan.changes.size(); ++i) {
        const Change& ch = plan.changes[i];
        const cache::Version* v = ch.kind == ChangeKind::Remove ? ch.old_version : ch.new_version;
        if (auto uv = su.version_of(c.index_of(*v))) change_of[*uv] = i;
        if (ch.kind != ChangeKind::Remove && ch.old_version)
            if (auto uv = su.version_of(c.index_of(*ch.old_version))) upgraded_from[*uv] = i;
    }
    for (const system::DpkgStep& step : steps) {
        auto it = change_of.find(step.version);
        if (it == change_of.end()) it = upgraded_from.find(step.version);
        plan.steps.push_back({step.action, it->second});
    }
}

}  // namespace

Plan make_plan(const system::SystemUniverse& su, const cache::Cache& c, const system::Candidates& candidates,
               const solver::Request& request, const solver::Solution& s, const std::vector<uint32_t>& unheld) {
    const solver::Universe& u = su.universe;
    Plan plan;
    auto cache_version = [&](uint32_t uv) -> const cache::Version& { return c.versions()[su.cache_version[uv]]; };
    auto is_unheld = [&](uint32_t up) { return std::find(unheld.begin(), unheld.end(), up) != unheld.end(); };
    std::vector<const cache::Version*> removed;
    for (uint32_t uv : s.remove) {
        const cache::Version& v = cache_version(uv);
        Change ch{ChangeKind::Remove, &c.package_of(v), &v, nullptr};
        ch.purge = request.purge;
        ch.essential = u.versions[uv].essential || u.versions[uv].important;
        ch.held = is_unheld(u.versions[uv].package);
        plan.changes.push_back(ch);
    }
    // What an essential package that goes Depends on goes with it in apt's
    // warning: "libfoo (due to foo)".
    for (size_t i = 0; i < s.remove.size(); ++i) {
        const solver::Version& ev = u.versions[s.remove[i]];
        if (!plan.changes[i].essential) continue;
        std::string owner(c.name_of(*plan.changes[i].package));
        if (u.packages[ev.package].arch != u.native_arch) owner += ":" + u.packages[ev.package].arch;
        for (const solver::Dependency& d : u.deps(s.remove[i])) {
            if (d.kind != solver::DepKind::Depends && d.kind != solver::DepKind::PreDepends) continue;
            std::vector<uint32_t> targets;
            for (const solver::Target& t : d.alternatives) u.satisfiers(s.remove[i], t, targets);
            for (uint32_t t : targets)
                for (size_t j = 0; j < s.remove.size(); ++j)
                    if (s.remove[j] == t && !plan.changes[j].essential) {
                        plan.changes[j].essential = true;
                        plan.changes[j].due_to = owner;
                    }
        }
    }
    std::sort(plan.changes.begin(), plan.changes.end(), [&](const Change& a, const Change& b) {
        return c.name_of(*a.package) < c.name_of(*b.package);
    });
    std::vector<uint8_t> changed(c.packages().size(), 0);
    for (const Change& ch : plan.changes) changed[c.index_of(*ch.package)] = 1;
    system::DpkgWork work;
    work.install = s.install;
    (request.purge ? work.purge : work.remove) = s.remove;
    std::vector<system::DpkgStep> steps = system::order_dpkg_work(u, work);
    for (const system::DpkgStep& step : steps) {
        if (step.action != system::DpkgAction::Unpack) continue;
        uint32_t uv = step.version;
        const cache::Version& v = cache_version(uv);
        const cache::Package& p = c.package_of(v);
        changed[c.index_of(p)] = 1;
        Change ch{ChangeKind::Install, &p, c.current_version(p), &v};
        uint32_t up = u.versions[uv].package;
        if (ch.old_version) {
            int cmp = deb::compare_versions(c.str(v.version), c.str(ch.old_version->version));
            // Another version of the same string (the archive's stanza
            // differs from what dpkg installed) is an upgrade to apt.
            ch.kind = cmp > 0 || (cmp == 0 && &v != ch.old_version) ? ChangeKind::Upgrade
                      : cmp < 0                                      ? ChangeKind::Downgrade
                                                                     : ChangeKind::Reinstall;
            ch.automatic = u.packages[up].automatic;
        } else {
            ch.automatic = std::find(request.install.begin(), request.install.end(), up) == request.install.end();
        }
        ch.held = is_unheld(up);
        ch.requested = std::find(request.install.begin(), request.install.end(), up) != request.install.end();
        plan.changes.push_back(ch);
    }
    add_steps(su, c, steps, plan);
    // apt's hint names every package left unneeded, those this plan
    // installs or upgrades included (an auto package's upgrade pulling in a
    // new one nothing else needs); with autoremove they are in s.remove.
    if (!request.autoremove)
        for (uint32_t uv : solver::autoremovable(u, request, s.selected, true)) plan.autoremovable.push_back(&cache_version(uv));
    std::sort(plan.autoremovable.begin(), plan.autoremovable.end(), [&](auto* a, auto* b) {
        return c.name_of(c.package_of(*a)) < c.name_of(c.package_of(*b));
    });
    for (const cache::Package& p : c.packages()) {
        const cache::Version* cur = c.current_version(p);
        const cache::Version* cand = cur ? candidates.candidate(p) : nullptr;
        if (!cand || cand == cur || changed[c.index_of(p)]) continue;
        if (deb::compare_versions(c.str(cand->version), c.str(cur->version)) >= 0) {
            plan.not_upgraded.push_back(&p);
            plan.not_upgraded_candidates.push_back(cand);
        }
    }
    return plan;
}

system::DpkgWork plan_work(const system::SystemUniverse& su, const cache::Cache& c, const Plan& plan,
                           std::vector<size_t>& config_purges) {
    system::DpkgWork work;
    auto universe_version = [&](const cache::Version& v) {
        auto uv = su.version_of(c.index_of(v));
        if (!uv) throw Error("internal error: a planned version is not in the solver's universe");
        return *uv;
    };
    for (size_t i = 0; i < plan.changes.size(); ++i) {
        const Change& ch = plan.changes[i];
        if (ch.kind != ChangeKind::Remove)
            work.install.push_back(universe_version(*ch.new_version));
        else if (ch.purge && ch.package->state == cache::InstallState::ConfigFiles)
            config_purges.push_back(i);
        else
            (ch.purge ? work.purge : work.remove).push_back(universe_version(*ch.old_version));
    }
    return work;
}

void order_steps(const system::SystemUniverse& su, const cache::Cache& c, Plan& plan) {
    std::vector<size_t> config_purges;
    system::DpkgWork work = plan_work(su, c, plan, config_purges);
    plan.steps.clear();
    for (size_t i : config_purges) plan.steps.push_back({system::DpkgAction::Purge, i});
    add_steps(su, c, system::order_dpkg_work(su.universe, work), plan);
}

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

std::vector<std::string> reinstall_notes(const cache::Cache& cache, const std::vector<const cache::Package*>& named) {
    std::vector<std::string> notes;
    for (const cache::Package* p : named)
        if (!downloadable(cache, *cache.current_version(*p)))
            notes.push_back("Reinstallation of " + request::full_name(cache, *p) + " is not possible, it cannot be downloaded.");
    return notes;
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

void apply_mark_auto(const config::Config& config, const system::SystemUniverse& su, const cache::Cache& cache,
                     request::CommandRequest& request, Plan& plan) {
    if (!config.find_bool("APT::Get::Mark-Auto")) return;
    const std::vector<uint32_t>& named = request.request.install;
    auto is_named = [&](const cache::Package* p) {
        auto u = su.package_of(cache.index_of(*p));
        return u && std::find(named.begin(), named.end(), *u) != named.end();
    };
    for (Change& ch : plan.changes)
        if (ch.kind != ChangeKind::Remove && is_named(ch.package)) ch.automatic = true;
    std::erase_if(request.now_manual, is_named);
}


std::vector<std::string> unfinished_packages(const cache::Cache& cache) {
    using cache::InstallState;
    std::vector<std::string> out;
    for (const cache::Package& p : cache.packages())
        if (p.state == InstallState::Unpacked || p.state == InstallState::HalfConfigured ||
            p.state == InstallState::TriggersAwaited || p.state == InstallState::TriggersPending)
            out.push_back(std::string(cache.name_of(p)) + ":" + std::string(cache.str(p.architecture)));
    return out;
}

UnmetRelations unmet_relations(const cache::Cache& c, const system::Candidates& candidates, const Plan& plan) {
    UnmetRelations unmet;
    // Every version installed afterwards, by package index.
    std::vector<const cache::Version*> after(c.packages().size(), nullptr);
    for (const cache::Package& p : c.packages()) after[c.index_of(p)] = c.current_version(p);
    for (const Change& ch : plan.changes) after[c.index_of(*ch.package)] = ch.new_version;
    // apt lists a relation only when none of the packages it names is there
    // afterwards, whatever their versions: a Recommends an installed version
    // is too old for is not shown (the user has the package).
    auto met_by_one = [&](const cache::Dependency& d) {
        for (const cache::Package& p : c.packages_of(d.target))
            if (after[c.index_of(p)]) return true;
        if (d.op != cache::DepOp::None) return false;
        for (uint32_t i : c.providers(d.target)) {
            const cache::Version& pv = c.versions()[c.provides()[i].version];
            if (after[c.index_of(c.package_of(pv))] == &pv) return true;
        }
        return false;
    };
    std::vector<std::vector<std::string>> seen[2];  // the groups listed, Suggests and Recommends
    for (const Change& ch : plan.changes) {
        if (!ch.new_version || ch.kind == ChangeKind::Remove) continue;
        auto deps = c.dependencies_of(*ch.new_version);
        for (size_t i = 0; i < deps.size();) {
            size_t end = i;
            while (end + 1 < deps.size() && (deps[end].flags & cache::kDepOrNext)) ++end;
            const cache::DepType type = deps[i].type;
            bool met = false;
            std::vector<std::string> names;
            for (size_t j = i; j <= end; ++j) {
                met = met || met_by_one(deps[j]);
                names.emplace_back(c.str(c.names()[deps[j].target].name));
            }
            i = end + 1;
            if (met || (type != cache::DepType::Suggests && type != cache::DepType::Recommends)) continue;
            const bool suggests = type == cache::DepType::Suggests;
            auto& listed = seen[suggests ? 0 : 1];
            if (std::find(listed.begin(), listed.end(), names) != listed.end()) continue;
            listed.push_back(names);
            UnmetGroup group;
            for (const std::string& name : names) {
                std::string version;
                if (auto n = c.find_name(name))
                    for (const cache::Package& p : c.packages_of(*n))
                        if (const cache::Version* cand = candidates.candidate(p); cand && version.empty())
                            version = std::string(c.str(cand->version));
                group.alternatives.push_back({name, version});
            }
            (suggests ? unmet.suggested : unmet.recommended).push_back(std::move(group));
        }
    }
    return unmet;
}

int64_t disk_space_change(const Plan& plan) {
    int64_t bytes = 0;
    for (const Change& ch : plan.changes) {
        if (ch.new_version) bytes += int64_t(ch.new_version->installed_size) * 1024;
        // A package with only configuration files left frees nothing: its
        // files are gone already (apt has no installed version for it).
        if (ch.old_version && ch.package->state != cache::InstallState::ConfigFiles)
            bytes -= int64_t(ch.old_version->installed_size) * 1024;
    }
    return bytes;
}

}  // namespace aptus::install
