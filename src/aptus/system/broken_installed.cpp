#include "aptus/system/broken_installed.hpp"

#include <algorithm>

namespace aptus::system {
namespace {

using solver::DepKind;
using solver::Target;
using solver::Universe;

// apt's pkgCache::DepType() names.
std::string kind_name(DepKind k) {
    return k == DepKind::PreDepends ? "PreDepends" : std::string(solver::dep_kind_name(k));
}

// apt's pkgCache::CompType(): "<<" and ">>" print as "<" and ">".
std::string op_text(deb::RelationOp op) {
    switch (op) {
        case deb::RelationOp::Less: return "<";
        case deb::RelationOp::Greater: return ">";
        default: return std::string(deb::relation_op_text(op));
    }
}

// apt reads a record's relations field by field in this order.
int rank(const std::string& kind) {
    static const char* const order[] = {"PreDepends", "Depends", "Conflicts", "Breaks", "Recommends"};
    for (int i = 0; i < 5; ++i)
        if (kind == order[i]) return i;
    return 5;
}

std::string full_name(const Universe& u, const std::string& name, const std::string& arch) {
    return arch.empty() || arch == u.native_arch || arch == "all" ? name : name + ":" + arch;
}

// Which versions count as present: the installed ones, or those a request
// leaves after apt's marking (named removals gone, named installs at their
// candidate).
struct Presence {
    const Universe& u;
    const solver::Request* request = nullptr;
    std::vector<uint8_t> removed, installed;

    Presence(const Universe& universe, const solver::Request* r) : u(universe), request(r) {
        if (!r) return;
        removed.assign(u.packages.size(), 0);
        installed.assign(u.packages.size(), 0);
        for (uint32_t p : r->remove) removed[p] = 1;
        for (uint32_t p : r->install) installed[p] = 1;
    }
    bool operator()(uint32_t v) const {
        if (!request) return u.versions[v].installed;
        uint32_t p = u.versions[v].package;
        if (removed[p]) return false;
        if (installed[p]) return u.versions[v].candidate;
        return u.versions[v].installed;
    }
    bool named(uint32_t package) const { return request && installed[package]; }
    bool any(const std::vector<uint32_t>& versions) const {
        return std::any_of(versions.begin(), versions.end(), [&](uint32_t v) { return (*this)(v); });
    }
};

BrokenTarget describe(const Universe& u, uint32_t from, const Target& t) {
    BrokenTarget out;
    const std::string& name = u.names[t.name];
    const std::string& from_arch = u.packages[u.versions[from].package].arch;
    std::string arch = t.arch.empty() ? from_arch : t.arch == "native" ? u.native_arch : t.arch;
    out.name = arch == "any" ? name + ":any" : full_name(u, name, arch);
    if (t.op != deb::RelationOp::None)
        out.relation = "(" + op_text(t.op) + " " + t.version + ")";
    if (arch == "any" || !u.providers_of(t.name).empty()) return out;  // virtual: apt says no more
    auto pkg = u.find_package(name, arch);
    out.state = BrokenTarget::State::NotInstallable;
    if (!pkg) return out;
    for (uint32_t v : u.packages[*pkg].versions) {
        if (u.versions[v].installed) {
            out.state = BrokenTarget::State::Installed;
            out.installed_version = u.versions[v].version;
            return out;
        }
        if (u.versions[v].candidate) out.state = BrokenTarget::State::NotInstalled;
    }
    return out;
}

}  // namespace

namespace {

std::vector<BrokenPackage> broken_in(const SystemUniverse& su, bool install_recommends, const Presence& present) {
    const Universe& u = su.universe;
    std::vector<BrokenPackage> out;
    std::vector<uint32_t> hits;
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        // Only what is broken now, and not what the request names: apt's
        // marking of a named package mends its own dependencies (and a
        // package it adds has its dependencies marked with it).
        if (!u.versions[v].installed || !present(v) || present.named(u.versions[v].package)) continue;
        BrokenPackage bp;
        bool broken = false;
        for (const solver::Dependency& d : u.deps(v)) {
            bool critical = d.kind == DepKind::Depends || d.kind == DepKind::PreDepends || solver::is_negative(d.kind);
            if (!critical && !(d.kind == DepKind::Recommends && install_recommends)) continue;
            bool met;
            if (solver::is_negative(d.kind)) {
                met = true;
                for (const Target& t : d.alternatives) {
                    hits.clear();
                    u.conflicts_with(v, t, hits);
                    met = met && !present.any(hits);
                }
            } else {
                met = false;
                for (const Target& t : d.alternatives) {
                    hits.clear();
                    u.satisfiers(v, t, hits);
                    met = met || present.any(hits);
                }
            }
            if (met) continue;
            broken = broken || critical;
            BrokenRelation rel{kind_name(d.kind), {}};
            for (const Target& t : d.alternatives) rel.alternatives.push_back(describe(u, v, t));
            bp.relations.push_back(std::move(rel));
        }
        if (!broken) continue;
        // In apt's order of the fields, which is the order apt lists them.
        std::stable_sort(bp.relations.begin(), bp.relations.end(),
                         [](const BrokenRelation& a, const BrokenRelation& b) { return rank(a.kind) < rank(b.kind); });
        const solver::Package& p = u.packages[u.versions[v].package];
        bp.name = full_name(u, u.names[p.name], p.arch);
        out.push_back(std::move(bp));
    }
    std::stable_sort(out.begin(), out.end(), [](const BrokenPackage& a, const BrokenPackage& b) { return a.name < b.name; });
    return out;
}

}  // namespace

std::vector<BrokenPackage> broken_installed(const SystemUniverse& su, bool install_recommends) {
    return broken_in(su, install_recommends, Presence(su.universe, nullptr));
}

std::vector<BrokenPackage> broken_after_request(const SystemUniverse& su, const solver::Request& request,
                                                bool install_recommends) {
    if (broken_installed(su, install_recommends).empty()) return {};
    return broken_in(su, install_recommends, Presence(su.universe, &request));
}

}  // namespace aptus::system
