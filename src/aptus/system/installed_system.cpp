#include "aptus/system/installed_system.hpp"

#include "aptus/system/system_universe.hpp"

#include <algorithm>

namespace aptus::system {

void apply_autoremove_settings(const config::Config& config, solver::Request& request) {
    request.recommends_important = config.find_bool("APT::AutoRemove::RecommendsImportant", true);
    request.suggests_important = config.find_bool("APT::AutoRemove::SuggestsImportant", true);
    request.never_autoremove = config.find_list("APT::NeverAutoRemove");
    // APT 3.1's solver keeps, of a relation the real package of its name
    // meets, only that package, not the others that provide the name.
    request.autoremove_real_first = config.find("APT::Solver") == "3.1";
}

void apply_solver_settings(const config::Config& config, solver::Request& request) {
    apply_autoremove_settings(config, request);
    request.remove_manual = config.find_bool("APT::Solver::RemoveManual", false);
    if (config.exists("APT::Install-Recommends"))
        request.install_recommends = config.find_bool("APT::Install-Recommends", true);
    if (config.exists("APT::Install-Suggests"))
        request.install_suggests = config.find_bool("APT::Install-Suggests", false);
    if (config.exists("APT::Solver::Strict-Pinning"))
        request.strict_pinning = config.find_bool("APT::Solver::Strict-Pinning", true);
}

std::vector<uint32_t> auto_removable_packages(const cache::Cache& c, const config::Config& config) {
    SystemUniverse sys = installed_universe(c);
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
