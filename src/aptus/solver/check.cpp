// A second, deliberately naive reading of the relations, sharing nothing with
// the encoder (no indices, no satisfiers()): tests judge the solver's answers
// with it.
#include <map>

#include "aptus/deb/relation.hpp"
#include "aptus/solver/solver.hpp"

namespace aptus::solver {
namespace {

struct Installed {
    uint32_t version;
    std::string arch;  // the package's architecture ("all" as native)
};

bool arch_fits(const Universe& u, const Version& from, const Version& cand, const std::string& cand_arch, const Target& t) {
    std::string from_arch = from.arch == "all" ? u.native_arch : from.arch;
    if (t.arch.empty()) return cand_arch == from_arch || cand.multi_arch == MultiArch::Foreign;
    if (t.arch == "any") return true;
    if (t.arch == "native") return cand_arch == u.native_arch;
    return cand_arch == t.arch;
}

// A Conflicts or Breaks without qualifier hits every architecture;
// "name:arch" only that one.
bool conflict_arch_fits(const Universe& u, const std::string& cand_arch, const Target& t) {
    if (t.arch.empty() || t.arch == "any") return true;
    return cand_arch == (t.arch == "native" ? u.native_arch : t.arch);
}

}  // namespace

std::vector<std::string> check_installation(const Universe& u, const std::vector<uint32_t>& selected) {
    std::vector<std::string> problems;
    std::map<std::string, std::vector<Installed>> by_name;     // real names
    std::map<std::string, std::vector<std::pair<Installed, std::string>>> provided;  // name -> (who, version)
    std::map<std::pair<std::string, std::string>, uint32_t> one;
    for (uint32_t v : selected) {
        const Version& ver = u.versions[v];
        std::string arch = ver.arch == "all" ? u.native_arch : ver.arch;
        const std::string& name = u.names[u.packages[ver.package].name];
        auto [it, fresh] = one.emplace(std::make_pair(name, arch), v);
        if (!fresh) problems.push_back(name + ":" + arch + " has two versions installed: " + u.versions[it->second].version + " and " + ver.version);
        by_name[name].push_back({v, arch});
        // A Provides with an architecture ("bar:i386") provides for that one.
        for (const Provide& p : ver.provides) provided[u.names[p.name]].push_back({{v, p.arch.empty() ? arch : p.arch}, p.version});
    }
    // Architectures of one name are co-installable only when both are
    // Multi-Arch: same, and then (they share files) at one version.
    for (const auto& [name, copies] : by_name)
        for (size_t i = 0; i < copies.size(); ++i)
            for (size_t j = i + 1; j < copies.size(); ++j) {
                const Version &a = u.versions[copies[i].version], &b = u.versions[copies[j].version];
                if (copies[i].arch == copies[j].arch) continue;
                if (a.multi_arch != MultiArch::Same || b.multi_arch != MultiArch::Same)
                    problems.push_back(u.describe(copies[i].version) + " and " + u.describe(copies[j].version) +
                                       " are installed together but are not both Multi-Arch: same");
                else if (a.version != b.version)
                    problems.push_back(u.describe(copies[i].version) + " and " + u.describe(copies[j].version) +
                                       " are Multi-Arch: same at different versions");
            }
    for (uint32_t v : selected) {
        const Version& ver = u.versions[v];
        for (const Dependency& d : u.deps(v)) {
            if (d.kind == DepKind::Depends || d.kind == DepKind::PreDepends) {
                bool met = false;
                for (const Target& t : d.alternatives) {
                    const std::string& name = u.names[t.name];
                    if (auto it = by_name.find(name); it != by_name.end())
                        for (const Installed& c : it->second)
                            if (arch_fits(u, ver, u.versions[c.version], c.arch, t) &&
                                deb::relation_satisfied_by(t.op, t.version, u.versions[c.version].version))
                                met = true;
                    if (auto it = provided.find(name); it != provided.end())
                        for (const auto& [c, pv] : it->second)
                            if (arch_fits(u, ver, u.versions[c.version], c.arch, t) &&
                                (t.op == deb::RelationOp::None || (!pv.empty() && deb::relation_satisfied_by(t.op, t.version, pv))))
                                met = true;
                }
                if (!met) problems.push_back(u.describe(v) + " " + std::string(dep_kind_name(d.kind)) + " " + u.dependency_text(d) + ": not met");
            } else if (is_negative(d.kind)) {
                const Target& t = d.alternatives[0];
                const std::string& name = u.names[t.name];
                auto self = u.versions[v].package;
                if (auto it = by_name.find(name); it != by_name.end())
                    for (const Installed& c : it->second)
                        if (u.versions[c.version].package != self && conflict_arch_fits(u, c.arch, t) &&
                            deb::relation_satisfied_by(t.op, t.version, u.versions[c.version].version))
                            problems.push_back(u.describe(v) + " " + std::string(dep_kind_name(d.kind)) + " " + u.target_text(t) + ": " + u.describe(c.version) + " is installed");
                if (auto it = provided.find(name); it != provided.end())
                    for (const auto& [c, pv] : it->second)
                        if (u.versions[c.version].package != self &&
                            (t.op == deb::RelationOp::None || (!pv.empty() && deb::relation_satisfied_by(t.op, t.version, pv))))
                            problems.push_back(u.describe(v) + " " + std::string(dep_kind_name(d.kind)) + " " + u.target_text(t) + ": " + u.describe(c.version) + " provides it");
            }
        }
    }
    return problems;
}

}  // namespace aptus::solver
