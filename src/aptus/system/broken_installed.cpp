#include "aptus/system/broken_installed.hpp"

#include <algorithm>
#include <optional>

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
    // Provided, apt says no more: by a Provides, or by a Multi-Arch:
    // foreign version of another architecture (apt's implicit provides).
    if (arch == "any" || !u.providers_of(t.name).empty()) return out;
    for (uint32_t q : u.packages_named(t.name))
        if (u.packages[q].arch != arch)
            for (uint32_t v : u.packages[q].versions)
                if (u.versions[v].multi_arch == solver::MultiArch::Foreign) return out;
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

namespace {

// apt's marking of a request before its problem resolver: the named
// removals gone, each named install at its candidate, and for every
// version so marked, each unmet Depends/Pre-Depends group (and Recommends
// when they are installed) met by the first alternative whose package's
// candidate satisfies it and may change (not held at another version),
// marked in turn. What is left unmet is what apt lists.
class ClassicMarking {
public:
    ClassicMarking(const Universe& u, const solver::Request& r, bool recommends)
        : u_(u), recommends_(recommends), chosen_(u.packages.size(), kNone) {
        for (uint32_t p = 0; p < u.packages.size(); ++p)
            for (uint32_t v : u.packages[p].versions)
                if (u.versions[v].installed) chosen_[p] = v;
        for (uint32_t p : r.remove) chosen_[p] = kRemoved;
        for (uint32_t p : r.install) mark(p);
    }

    // The version the marking leaves for the package, if any.
    std::optional<uint32_t> version_of(uint32_t p) const {
        return chosen_[p] == kNone || chosen_[p] == kRemoved ? std::nullopt : std::optional<uint32_t>(chosen_[p]);
    }
    bool present(uint32_t v) const { return chosen_[u_.versions[v].package] == v; }

private:
    static constexpr uint32_t kNone = UINT32_MAX, kRemoved = UINT32_MAX - 1;

    std::optional<uint32_t> candidate(uint32_t p) const {
        for (uint32_t v : u_.packages[p].versions)
            if (u_.versions[v].candidate) return v;
        return std::nullopt;
    }
    bool held_elsewhere(uint32_t p, uint32_t v) const {
        for (uint32_t o : u_.packages[p].versions)
            if (o != v && u_.versions[o].installed && u_.versions[o].hold) return true;
        return false;
    }

    // Another architecture of the name is present and the two are not both
    // Multi-Arch: same (apt's implicit Conflicts between them).
    bool sibling_present(uint32_t v) const {
        const uint32_t p = u_.versions[v].package;
        for (uint32_t q : u_.packages_named(u_.packages[p].name)) {
            if (q == p || chosen_[q] == kNone || chosen_[q] == kRemoved) continue;
            if (u_.versions[v].multi_arch != solver::MultiArch::Same ||
                u_.versions[chosen_[q]].multi_arch != solver::MultiArch::Same)
                return true;
        }
        return false;
    }

    void mark(uint32_t p) {
        auto v = candidate(p);
        if (!v || chosen_[p] == *v || held_elsewhere(p, *v) || depth_ > 100) return;
        chosen_[p] = *v;
        ++depth_;
        std::vector<uint32_t> hits;
        for (const solver::Dependency& d : u_.deps(*v)) {
            const bool wanted = d.kind == DepKind::Depends || d.kind == DepKind::PreDepends ||
                                (d.kind == DepKind::Recommends && recommends_);
            if (!wanted) continue;
            bool met = false;
            for (const Target& t : d.alternatives) {
                hits.clear();
                u_.satisfiers(*v, t, hits);
                met = met || std::any_of(hits.begin(), hits.end(), [&](uint32_t h) { return present(h); });
            }
            if (met) continue;
            for (const Target& t : d.alternatives) {
                hits.clear();
                u_.satisfiers(*v, t, hits);
                auto usable = std::find_if(hits.begin(), hits.end(), [&](uint32_t h) {
                    const uint32_t hp = u_.versions[h].package;
                    return u_.versions[h].candidate && chosen_[hp] != kRemoved && !held_elsewhere(hp, h) &&
                           !sibling_present(h);
                });
                if (usable == hits.end()) continue;
                mark(u_.versions[*usable].package);
                break;
            }
        }
        --depth_;
    }

    const Universe& u_;
    bool recommends_;
    std::vector<uint32_t> chosen_;  // by package: the version, kNone or kRemoved
    int depth_ = 0;
};

// A target as apt describes it against the marked state ("but 2 is to be
// installed", "but it is not going to be installed").
BrokenTarget describe_planned(const Universe& u, const ClassicMarking& m, uint32_t from, const Target& t) {
    BrokenTarget out = describe(u, from, t);
    if (out.state == BrokenTarget::State::Virtual) return out;
    const std::string& from_arch = u.packages[u.versions[from].package].arch;
    const std::string arch = t.arch.empty() ? from_arch : t.arch == "native" ? u.native_arch : t.arch;
    auto pkg = u.find_package(u.names[t.name], arch);
    if (!pkg) return out;
    if (auto v = m.version_of(*pkg)) {
        out.state = BrokenTarget::State::ToBeInstalled;
        out.installed_version = u.versions[*v].version;
    } else if (out.state != BrokenTarget::State::NotInstallable) {
        out.state = BrokenTarget::State::NotGoingToBeInstalled;
    }
    return out;
}

}  // namespace

std::vector<BrokenPackage> broken_after_failed_request(const SystemUniverse& su, const solver::Request& request,
                                                       bool install_recommends) {
    const Universe& u = su.universe;
    ClassicMarking marking(u, request, install_recommends);
    std::vector<BrokenPackage> out;
    std::vector<uint32_t> hits;
    auto present_any = [&](const std::vector<uint32_t>& vs) {
        return std::any_of(vs.begin(), vs.end(), [&](uint32_t h) { return marking.present(h); });
    };
    for (uint32_t p = 0; p < u.packages.size(); ++p) {
        auto v = marking.version_of(p);
        if (!v) continue;
        BrokenPackage bp;
        bool broken = false;
        for (const solver::Dependency& d : u.deps(*v)) {
            const bool critical = d.kind == DepKind::Depends || d.kind == DepKind::PreDepends || solver::is_negative(d.kind);
            if (!critical && !(d.kind == DepKind::Recommends && install_recommends)) continue;
            bool met = solver::is_negative(d.kind);  // no conflict hit yet / no satisfier yet
            for (const Target& t : d.alternatives) {
                hits.clear();
                if (solver::is_negative(d.kind)) {
                    u.conflicts_with(*v, t, hits);
                    met = met && !present_any(hits);
                } else {
                    u.satisfiers(*v, t, hits);
                    met = met || present_any(hits);
                }
            }
            if (met) continue;
            broken = broken || critical;
            BrokenRelation rel{kind_name(d.kind), {}};
            for (const Target& t : d.alternatives) rel.alternatives.push_back(describe_planned(u, marking, *v, t));
            bp.relations.push_back(std::move(rel));
        }
        if (!broken) continue;
        std::stable_sort(bp.relations.begin(), bp.relations.end(),
                         [](const BrokenRelation& a, const BrokenRelation& b) { return rank(a.kind) < rank(b.kind); });
        bp.name = full_name(u, u.names[u.packages[p].name], u.packages[p].arch);
        bp.installed = u.versions[*v].installed;
        out.push_back(std::move(bp));
    }
    std::stable_sort(out.begin(), out.end(), [](const BrokenPackage& a, const BrokenPackage& b) { return a.name < b.name; });
    return out;
}

std::vector<BrokenPackage> broken_installed(const SystemUniverse& su, bool install_recommends) {
    return broken_in(su, install_recommends, Presence(su.universe, nullptr));
}

std::vector<BrokenPackage> broken_after_request(const SystemUniverse& su, const solver::Request& request,
                                                bool install_recommends) {
    if (broken_installed(su, install_recommends).empty()) return {};
    return broken_in(su, install_recommends, Presence(su.universe, &request));
}

}  // namespace aptus::system
