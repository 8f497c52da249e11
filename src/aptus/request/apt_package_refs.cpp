#include "aptus/request/apt_package_refs.hpp"

#include <algorithm>

#include "aptus/request/apt_records.hpp"
#include "aptus/request/package_glob.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::request {

std::string ref_full_name(const cache::Cache& cache, const AptPackageRef& ref) {
    if (ref.real) return full_name(cache, *ref.real);
    std::string name(cache.str(cache.names()[ref.name].name));
    if (ref.arch != cache.native_architecture()) name += ":" + ref.arch;
    return name;
}

namespace {

std::vector<std::string> architectures(const cache::Cache& cache, const config::Config& config) {
    std::vector<std::string> archs{std::string(cache.native_architecture())};
    for (const auto& a : config.find_list("APT::Architectures"))
        if (std::find(archs.begin(), archs.end(), a) == archs.end()) archs.push_back(a);
    return archs;
}

// The record (name, arch) when apt has one.
bool find_ref(const cache::Cache& cache, uint32_t name, std::string_view arch, AptPackageRef& out) {
    const cache::Package* real = package_for_arch(cache, name, arch);
    if (!real && !apt_has_record(cache, name, arch)) return false;
    out = {name, std::string(arch), real};
    return true;
}

}  // namespace

std::vector<AptPackageRef> apt_packages_for_word(const cache::Cache& cache, const config::Config& config,
                                                 std::string_view word) {
    std::vector<AptPackageRef> out;
    PackageWord w = parse_package_word(word);
    std::string_view native = cache.native_architecture();
    if (auto name = cache.find_name(w.name)) {
        AptPackageRef ref;
        if (!w.arch.empty() && w.arch != "any") {
            std::string_view arch = (w.arch == "all" || w.arch == "native") ? native : std::string_view(w.arch);
            if (find_ref(cache, *name, arch, ref)) out.push_back(std::move(ref));
            return out;
        }
        if (find_ref(cache, *name, native, ref)) {
            out.push_back(std::move(ref));
            return out;
        }
        // No native record: the first real package, else the first
        // architecture apt has a record of.
        if (auto pkgs = cache.packages_of(*name); !pkgs.empty()) {
            out.push_back({*name, std::string(apt_architecture(cache, pkgs.front())), &pkgs.front()});
            return out;
        }
        for (const auto& a : architectures(cache, config))
            if (find_ref(cache, *name, a, ref)) {
                out.push_back(std::move(ref));
                return out;
            }
        return out;
    }
    // A glob or regular expression: every package record of each name.
    for (uint32_t name : match_package_names(cache, std::string(word))) {
        bool any = false;
        for (const auto& p : cache.packages_of(name)) {
            out.push_back({name, std::string(apt_architecture(cache, p)), &p});
            any = true;
        }
        AptPackageRef ref;
        if (!any && find_ref(cache, name, native, ref)) out.push_back(std::move(ref));
    }
    return out;
}

AptPackageRef dependency_target(const cache::Cache& cache, const cache::Dependency& d, const cache::Package& from) {
    std::string arch;
    if (d.arch_qualifier == 0) {
        arch = std::string(apt_architecture(cache, from));
    } else {
        std::string_view q = cache.str(d.arch_qualifier);
        arch = std::string(q == "native" ? cache.native_architecture() : q);
    }
    AptPackageRef ref{d.target, arch, nullptr};
    if (arch != "any") ref.real = package_for_arch(cache, d.target, arch);
    return ref;
}

std::string dependency_target_name(const cache::Cache& cache, const cache::Dependency& d, const cache::Package& from) {
    return ref_full_name(cache, dependency_target(cache, d, from));
}

}  // namespace aptus::request
