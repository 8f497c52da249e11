#include "aptus/system/installed_system.hpp"

#include <algorithm>
#include <optional>

namespace aptus::system {
namespace {

// nullopt for the relations that neither keep nor exclude anything.
std::optional<solver::DepKind> dep_kind(cache::DepType t) {
    switch (t) {
        case cache::DepType::Depends: return solver::DepKind::Depends;
        case cache::DepType::PreDepends: return solver::DepKind::PreDepends;
        case cache::DepType::Recommends: return solver::DepKind::Recommends;
        case cache::DepType::Suggests: return solver::DepKind::Suggests;
        case cache::DepType::Conflicts: return solver::DepKind::Conflicts;
        case cache::DepType::Breaks: return solver::DepKind::Breaks;
        case cache::DepType::Enhances:
        case cache::DepType::Replaces: break;
    }
    return std::nullopt;
}

}  // namespace

InstalledSystem installed_system(const cache::Cache& c) {
    InstalledSystem out;
    solver::Universe& u = out.universe;
    u.native_arch = std::string(c.native_architecture());
    u.architectures = {u.native_arch};
    for (const cache::Package& p : c.packages()) {
        const cache::Version* cv = c.current_version(p);
        if (!cv) continue;
        solver::Version v;
        v.package = u.package(c.name_of(p), c.str(p.architecture));
        u.packages[v.package].automatic = (p.flags & cache::kPackageAuto) != 0;
        v.version = std::string(c.str(cv->version));
        v.arch = std::string(c.str(cv->architecture));
        v.id = std::to_string(c.index_of(*cv));
        v.installed = true;
        v.candidate = true;
        v.multi_arch = solver::MultiArch(uint8_t(cv->multi_arch));  // same enumerators in both
        v.essential = (cv->flags & cache::kVersionEssential) != 0;
        v.important = (cv->flags & (cache::kVersionImportant | cache::kVersionProtected)) != 0;
        v.source = std::string(c.str(cv->source_name));
        v.source_version = std::string(c.str(cv->source_version));
        solver::Dependency group;
        bool open = false;
        for (const cache::Dependency& d : c.dependencies_of(*cv)) {
            std::optional<solver::DepKind> kind = dep_kind(d.type);
            if (kind) {
                if (!open) group = solver::Dependency{*kind, {}};
                solver::Target t;
                t.name = u.intern(c.str(c.names()[d.target].name));
                t.arch = std::string(c.str(d.arch_qualifier));
                t.op = deb::RelationOp(uint8_t(d.op));  // same values (format.hpp)
                t.version = std::string(c.str(d.version));
                group.alternatives.push_back(std::move(t));
            }
            open = (d.flags & cache::kDepOrNext) != 0;
            if (!open && kind) v.deps.push_back(std::move(group));
        }
        for (const cache::Provide& pr : c.provides_of(*cv))
            v.provides.push_back({u.intern(c.str(c.names()[pr.name].name)), std::string(c.str(pr.provided_version))});
        u.add_version(std::move(v));
        out.cache_version.push_back(c.index_of(*cv));
    }
    u.finalize();
    return out;
}

void apply_autoremove_settings(const config::Config& config, solver::Request& request) {
    request.recommends_important = config.find_bool("APT::AutoRemove::RecommendsImportant", true);
    request.suggests_important = config.find_bool("APT::AutoRemove::SuggestsImportant", true);
    request.never_autoremove = config.find_list("APT::NeverAutoRemove");
}

std::vector<uint32_t> auto_removable_packages(const cache::Cache& c, const config::Config& config) {
    InstalledSystem sys = installed_system(c);
    solver::Request request;
    apply_autoremove_settings(config, request);
    std::vector<uint32_t> selected(sys.universe.versions.size());
    for (uint32_t v = 0; v < selected.size(); ++v) selected[v] = v;
    std::vector<uint32_t> out;
    for (uint32_t v : solver::autoremovable(sys.universe, request, selected))
        out.push_back(c.versions()[sys.cache_version[v]].package);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace aptus::system
