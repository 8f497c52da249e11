#include "aptus/system/phased_updates.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/base/subprocess.hpp"
#include "aptus/deb/version.hpp"

namespace aptus::system {
namespace {

// apt's update-manager compatibility: its key is the fallback of apt's own.
bool setting(const config::Config& config, std::string_view apt_key, std::string_view update_manager_key) {
    return config.find_bool(apt_key, config.find_bool(update_manager_key, false));
}

// ischroot's -t answers yes when it cannot tell; a missing program is a no.
bool ischroot(const std::string& program) {
    try {
        SubprocessOptions options;
        options.inherit_stderr = true;
        return run_subprocess({program, "-t"}, options).success();
    } catch (const Error&) {
        return false;
    }
}

// Whether a version older than the candidate and newer than the installed
// one is in a security suite: the candidate then carries a security fix,
// which apt never defers.
bool security_update(const Candidates& candidates, const cache::Cache& cache, const cache::Package& p,
                     const cache::Version& candidate) {
    const cache::Version* installed = cache.current_version(p);
    bool past_candidate = false;
    for (const cache::Version& v : cache.versions_of(p)) {  // newest first
        if (&v == installed) break;
        if (!past_candidate) {
            past_candidate = &v == &candidate;
            continue;
        }
        for (const cache::VersionFile& f : cache.files_of(v))
            if (ends_with(candidates.file_facts()[f.index_file].release.archive, "-security")) return true;
    }
    return false;
}

}  // namespace

std::string machine_id(const config::Config& config) {
    if (std::string id = config.find("APT::Machine-ID"); !id.empty()) return id;
    std::string file = config.find_file("Dir::Etc::machine-id");
    if (file.empty()) file = config.find_dir("Dir::Etc") + "../machine-id";
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line)) return {};
    return line;
}

policy::Phasing phasing_from_config(const config::Config& config) {
    using Rule = policy::Phasing::Rule;
    const bool by_policy = config.find_bool("APT::Get::Phase-Policy", false);
    std::string id = machine_id(config);
    Rule rule = Rule::ByMachine;
    if (setting(config, "APT::Get::Always-Include-Phased-Updates", "Update-Manager::Always-Include-Phased-Updates"))
        rule = Rule::IncludeAll;
    else if (setting(config, "APT::Get::Never-Include-Phased-Updates", "Update-Manager::Never-Include-Phased-Updates"))
        rule = Rule::ExcludeAll;
    else if (id.empty() || std::getenv("SOURCE_DATE_EPOCH") != nullptr)
        rule = Rule::IncludeAll;
    auto in_chroot = [program = config.find_file("Dir::Bin::ischroot", "/usr/bin/ischroot")] {
        return ischroot(program);
    };
    return policy::Phasing(rule, std::move(id), in_chroot, by_policy);
}

std::vector<uint32_t> deferred_by_phasing(const cache::Cache& cache, const Candidates& candidates) {
    std::vector<uint32_t> out;
    const policy::Phasing& phasing = candidates.policy().phasing();
    if (phasing.by_policy()) return out;
    for (const cache::Package& p : cache.packages()) {
        const cache::Version* installed = cache.current_version(p);
        const cache::Version* candidate = installed ? candidates.candidate(p) : nullptr;
        if (!candidate || candidate == installed) continue;
        policy::Phase phase = candidates.phase_of(*candidate);
        if (phase.percentage >= 100 || !phasing.excludes(phase)) continue;
        if (deb::compare_versions(cache.str(candidate->version), cache.str(installed->version)) <= 0) continue;
        if (security_update(candidates, cache, p, *candidate)) continue;
        out.push_back(cache.index_of(p));
    }
    return out;
}

namespace {

// The names the candidates of the requested packages Depend or Pre-Depend
// on: apt installs what a command line names as asked, so a deferred
// upgrade such a package needs is taken with it.
std::vector<uint32_t> needed_by_request(const solver::Universe& u, const solver::Request& request) {
    std::vector<uint32_t> names;
    for (uint32_t up : request.install)
        for (uint32_t v : u.packages[up].versions) {
            if (!u.versions[v].candidate) continue;
            for (const solver::Dependency& d : u.deps(v))
                if (d.kind == solver::DepKind::Depends || d.kind == solver::DepKind::PreDepends)
                    for (const solver::Target& t : d.alternatives) names.push_back(t.name);
        }
    return names;
}

bool contains(const std::vector<uint32_t>& list, uint32_t value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

std::vector<uint32_t> hold_deferred(SystemUniverse& su, const std::vector<uint32_t>& deferred,
                                    const solver::Request& request) {
    std::vector<uint32_t> held;
    if (deferred.empty()) return held;
    const std::vector<uint32_t> needed = needed_by_request(su.universe, request);
    for (uint32_t package : deferred) {
        std::optional<uint32_t> up = su.package_of(package);
        if (!up) continue;
        if (contains(request.install, *up) || contains(needed, su.universe.packages[*up].name)) continue;
        for (uint32_t v : su.universe.packages[*up].versions)
            if (su.universe.versions[v].installed) su.universe.versions[v].hold = true;
        held.push_back(package);
    }
    return held;
}

}  // namespace aptus::system
