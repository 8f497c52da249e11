#include "cli/policy_format.hpp"

#include <algorithm>
#include <cstring>

#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/apt_records.hpp"

namespace aptus::cli {
namespace {

using cache::IndexFile;
using cache::IndexKind;

void append_field(std::string& out, std::string_view key, std::string_view value, bool even_empty = false) {
    if (value.empty() && !even_empty) return;
    if (!out.empty()) out += ',';
    out += key;
    out += '=';
    out += value;
}

// apt prints priorities right-aligned in four columns ("%4i").
std::string padded(int priority) {
    std::string n = std::to_string(priority);
    return n.size() >= 4 ? n : std::string(4 - n.size(), ' ') + n;
}

const cache::Version* installed_version(const cache::Cache& cache, const cache::Package* p) {
    return p ? cache.current_version(*p) : nullptr;
}

}  // namespace

std::vector<uint32_t> listed_package_files(const cache::Cache& cache) {
    std::vector<uint32_t> packages;
    std::vector<uint32_t> status;
    auto files = cache.index_files();
    for (uint32_t i = 0; i < files.size(); ++i) {
        if (files[i].kind == IndexKind::Packages) packages.push_back(i);
        if (files[i].kind == IndexKind::Status) status.push_back(i);
    }
    // apt reads the sources' files first and the status last, prepending each.
    std::vector<uint32_t> out(status.rbegin(), status.rend());
    out.insert(out.end(), packages.rbegin(), packages.rend());
    return out;
}

std::string release_string(const cache::Cache& cache, const IndexFile& file) {
    std::string out;
    if (file.kind == IndexKind::Status) {
        append_field(out, "a", "now");
        return out;
    }
    if (file.release != cache::kNone) {
        const cache::Release& r = cache.releases()[file.release];
        append_field(out, "v", cache.str(r.version));
        append_field(out, "o", cache.str(r.origin));
        append_field(out, "a", cache.str(r.suite));
        append_field(out, "n", cache.str(r.codename));
        append_field(out, "l", cache.str(r.label));
    }
    // Every index but the status file has a component, "" in a flat
    // repository, and apt prints it so ("release c=").
    append_field(out, "c", cache.str(file.component), true);
    append_field(out, "b", cache.str(file.architecture));
    return out;
}

std::string_view file_label(const cache::Cache& cache, const IndexFile& file) {
    std::string_view d = cache.str(file.description);
    return d.empty() ? cache.str(file.path) : d;
}

std::string pretty_name(const cache::Cache& cache, const cache::Package& p) {
    std::string name(cache.name_of(p));
    std::string_view arch = cache.str(p.architecture);
    if (arch != "all" && arch != cache.native_architecture()) name += ":" + std::string(arch);
    return name;
}

std::vector<PinnedVersion> pinned_versions(const cache::Cache& cache, const system::Candidates& candidates) {
    std::vector<PinnedVersion> out;
    for (const cache::Package& p : cache.packages()) {
        for (const cache::Version& v : cache.versions_of(p)) {
            const policy::PinRecord* pin = candidates.pin_of(cache.index_of(v));
            if (pin) out.push_back({&p, &v, pin->priority});
        }
    }
    // apt walks its package hash table; a package's versions stay newest first.
    std::vector<request::AptHashKey> keys;
    keys.reserve(out.size());
    for (const PinnedVersion& pv : out) keys.push_back(request::apt_hash_key(cache.name_of(*pv.package)));
    std::vector<size_t> order(out.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<PinnedVersion> sorted;
    sorted.reserve(out.size());
    for (size_t i : order) sorted.push_back(out[i]);
    return sorted;
}

const cache::Package* resolve_package(const cache::Cache& cache, std::string_view word, bool& known) {
    known = false;
    std::string_view name = word, arch;
    if (auto colon = word.find(':'); colon != std::string_view::npos) {
        name = word.substr(0, colon);
        arch = word.substr(colon + 1);
    }
    auto n = cache.find_name(name);
    if (!n) return nullptr;
    auto packages = cache.packages_of(*n);
    if (arch == "any") arch = {};  // the package apt prefers, as for a bare name
    if (arch == "all") arch = cache.native_architecture();
    if (arch.empty() || arch == "native" || arch == cache.native_architecture()) {
        // apt prints a package it has a record for even without versions.
        known = arch.empty() || request::apt_has_record(cache, *n, cache.native_architecture());
        for (const cache::Package& p : packages)
            if (cache.str(p.architecture) == cache.native_architecture()) return &p;
        for (const cache::Package& p : packages)
            if (cache.str(p.architecture) == "all") return &p;
        if (arch.empty() && !packages.empty()) return &packages.front();
        return nullptr;
    }
    for (const cache::Package& p : packages)
        if (cache.str(p.architecture) == arch) {
            known = true;
            return &p;
        }
    known = request::apt_has_record(cache, *n, arch);
    return nullptr;
}

std::string format_file_list(const cache::Cache& cache, const system::Candidates& candidates) {
    std::string out = "Package files:\n";
    for (uint32_t id : listed_package_files(cache)) {
        const IndexFile& f = cache.index_files()[id];
        out += padded(candidates.file_priority(id));
        out += ' ';
        out += file_label(cache, f);
        out += '\n';
        std::string rel = release_string(cache, f);
        if (!rel.empty()) out += "     release " + rel + "\n";
        std::string_view site = cache.str(f.site);
        if (!site.empty()) out += "     origin " + std::string(site) + "\n";
    }
    out += "Pinned packages:\n";
    for (const PinnedVersion& pv : pinned_versions(cache, candidates)) {
        out += "     " + pretty_name(cache, *pv.package) + " -> " + std::string(cache.str(pv.version->version)) +
               " with priority " + std::to_string(pv.priority) + "\n";
    }
    return out;
}

std::string format_package(const cache::Cache& cache, const system::Candidates& candidates,
                           const cache::Package* package, std::string_view display_name) {
    std::string out(display_name);
    out += ":\n  Installed: ";
    const cache::Version* installed = installed_version(cache, package);
    out += installed ? cache.str(installed->version) : "(none)";
    out += "\n  Candidate: ";
    const cache::Version* candidate = package ? candidates.candidate(*package) : nullptr;
    out += candidate ? cache.str(candidate->version) : "(none)";
    out += "\n  Version table:\n";
    if (!package) return out;
    for (const cache::Version& v : cache.versions_of(*package)) {
        out += &v == installed ? " *** " : "     ";
        out += cache.str(v.version);
        out += ' ';
        out += std::to_string(candidates.priority(cache.index_of(v)));
        // apt marks every phased version, whether this machine takes it or not.
        if (unsigned percent = cache::phased_percentage(v.flags); percent != 100)
            out += " (phased " + std::to_string(percent) + "%)";
        out += '\n';
        for (const cache::VersionFile& vf : cache.files_of(v)) {
            const IndexFile& f = cache.index_files()[vf.index_file];
            out += "       ";
            out += padded(candidates.file_priority(vf.index_file));
            out += ' ';
            out += file_label(cache, f);
            out += '\n';
        }
    }
    return out;
}

nlohmann::ordered_json json_file_list(const cache::Cache& cache, const system::Candidates& candidates) {
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (uint32_t id : listed_package_files(cache)) {
        const IndexFile& f = cache.index_files()[id];
        nlohmann::ordered_json j;
        j["priority"] = candidates.file_priority(id);
        j["description"] = std::string(file_label(cache, f));
        j["path"] = std::string(cache.str(f.path));
        j["status"] = f.kind == IndexKind::Status;
        j["release"] = release_string(cache, f);
        j["origin"] = std::string(cache.str(f.site));
        files.push_back(j);
    }
    nlohmann::ordered_json pinned = nlohmann::ordered_json::array();
    for (const PinnedVersion& pv : pinned_versions(cache, candidates)) {
        pinned.push_back({{"package", std::string(cache.name_of(*pv.package))},
                          {"architecture", std::string(cache.str(pv.package->architecture))},
                          {"version", std::string(cache.str(pv.version->version))},
                          {"priority", pv.priority}});
    }
    nlohmann::ordered_json j;
    j["package_files"] = files;
    j["pinned_packages"] = pinned;
    return j;
}

nlohmann::ordered_json json_package(const cache::Cache& cache, const system::Candidates& candidates,
                                    const cache::Package* package, std::string_view display_name) {
    nlohmann::ordered_json j;
    j["name"] = std::string(display_name);
    j["package"] = package ? nlohmann::ordered_json(std::string(cache.name_of(*package))) : nullptr;
    j["architecture"] = package ? nlohmann::ordered_json(std::string(cache.str(package->architecture))) : nullptr;
    const cache::Version* installed = installed_version(cache, package);
    const cache::Version* candidate = package ? candidates.candidate(*package) : nullptr;
    j["installed"] = installed ? nlohmann::ordered_json(std::string(cache.str(installed->version))) : nullptr;
    j["candidate"] = candidate ? nlohmann::ordered_json(std::string(cache.str(candidate->version))) : nullptr;
    nlohmann::ordered_json versions = nlohmann::ordered_json::array();
    if (package) {
        for (const cache::Version& v : cache.versions_of(*package)) {
            nlohmann::ordered_json jv;
            uint32_t vi = cache.index_of(v);
            jv["version"] = std::string(cache.str(v.version));
            jv["priority"] = candidates.priority(vi);
            jv["installed"] = &v == installed;
            jv["candidate"] = &v == candidate;
            unsigned percent = cache::phased_percentage(v.flags);
            jv["phased"] = percent != 100 ? nlohmann::ordered_json(percent) : nlohmann::ordered_json(nullptr);
            const policy::PinRecord* pin = candidates.pin_of(vi);
            jv["pin"] = pin ? nlohmann::ordered_json({{"file", pin->file}, {"line", pin->line}, {"priority", pin->priority}})
                            : nlohmann::ordered_json(nullptr);
            nlohmann::ordered_json files = nlohmann::ordered_json::array();
            for (const cache::VersionFile& vf : cache.files_of(v)) {
                const IndexFile& f = cache.index_files()[vf.index_file];
                files.push_back({{"priority", candidates.file_priority(vf.index_file)},
                                 {"description", std::string(file_label(cache, f))},
                                 {"status", f.kind == IndexKind::Status}});
            }
            jv["files"] = files;
            versions.push_back(jv);
        }
    }
    j["versions"] = versions;
    return j;
}

}  // namespace aptus::cli
