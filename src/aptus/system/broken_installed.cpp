#include "aptus/system/broken_installed.hpp"

#include <algorithm>
#include <optional>

namespace aptus::system {
namespace {

using solver::DepKind;
using solver::Target;
using solver::Universe;

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

// The architecture a relation's target stands for: its qualifier, else the
// depending package's.
std::string target_arch(const Universe& u, uint32_t from, const Target& t) {
    if (t.arch.empty()) return u.packages[u.versions[from].package].arch;
    return t.arch == "native" ? u.native_arch : t.arch;
}

BrokenTarget describe(const Universe& u, uint32_t from, const Target& t) {
    BrokenTarget out;
    const std::string& name = u.names[t.name];
    const std::string arch = target_arch(u, from, t);
    // A qualifier the relation writes is shown as written ("bar:amd64").
    out.name = arch == "any" ? name + ":any" : !t.arch.empty() ? name + ":" + arch : full_name(u, name, arch);
    if (t.op != deb::RelationOp::None)
        out.relation = "(" + op_text(t.op) + " " + t.version + ")";
    // Provided, apt says no more: by a Provides (one that names an
    // architecture only for that one), or by a Multi-Arch: foreign version
    // of another architecture (apt's implicit provides).
    if (arch == "any") return out;
    for (const solver::Provider& pr : u.providers_of(t.name)) {
        const solver::Provide& pv = u.versions[pr.version].provides[pr.provide];
        const solver::Version& provider = u.versions[pr.version];
        // apt files a provide under the provider's architecture, under every
        // one for Multi-Arch: foreign, under the one it names if it names one.
        if (!pv.arch.empty() ? pv.arch == arch
                             : u.packages[provider.package].arch == arch ||
                                   provider.multi_arch == solver::MultiArch::Foreign)
            return out;
    }
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

// Is the relation `d` of version `v` met where `present(version)` says which
// versions are there: a Depends by some alternative, a Conflicts or Breaks
// by none being hit. `hits` is scratch space.
template <class Present>
bool relation_met(const Universe& u, uint32_t v, const solver::Dependency& d, const Present& present,
                  std::vector<uint32_t>& hits) {
    const bool negative = solver::is_negative(d.kind);
    for (const Target& t : d.alternatives) {
        hits.clear();
        if (negative) u.conflicts_with(v, t, hits);
        else u.satisfiers(v, t, hits);
        const bool hit = std::any_of(hits.begin(), hits.end(), [&](uint32_t h) { return present(h); });
        if (hit) return !negative;  // a satisfier there, or a conflict hit
    }
    return negative;
}

// apt's report line of version `v`: each important relation `present` leaves
// unmet (Recommends with install_recommends, never the reason it is
// broken), its targets told by `describe`, in apt's order of the fields;
// nothing when no critical relation is unmet.
template <class Present, class Describe>
std::optional<BrokenPackage> broken_package(const Universe& u, uint32_t v, bool install_recommends,
                                            const Present& present, const Describe& describe_target,
                                            std::vector<uint32_t>& hits) {
    BrokenPackage bp;
    bool broken = false;
    for (const solver::Dependency& d : u.deps(v)) {
        const bool critical = d.kind == DepKind::Depends || d.kind == DepKind::PreDepends || solver::is_negative(d.kind);
        if (!critical && !(d.kind == DepKind::Recommends && install_recommends)) continue;
        if (relation_met(u, v, d, present, hits)) continue;
        broken = broken || critical;
        BrokenRelation rel{std::string(solver::apt_dep_type_name(d.kind)), {}};
        for (const Target& t : d.alternatives) rel.alternatives.push_back(describe_target(t));
        bp.relations.push_back(std::move(rel));
    }
    // apt's implicit Conflicts: another architecture of the same name that
    // is present, unless both are Multi-Arch: same.
    const solver::Package& pkg = u.packages[u.versions[v].package];
    for (uint32_t q : u.packages_named(pkg.name)) {
        if (q == u.versions[v].package) continue;
        for (uint32_t w : u.packages[q].versions) {
            if (!present(w) || (u.versions[v].multi_arch == solver::MultiArch::Same &&
                                u.versions[w].multi_arch == solver::MultiArch::Same))
                continue;
            Target t;
            t.name = pkg.name;
            t.arch = u.packages[q].arch == "all" ? u.native_arch : u.packages[q].arch;
            BrokenRelation rel{std::string(solver::apt_dep_type_name(DepKind::Conflicts)), {describe_target(t)}};
            rel.alternatives[0].name = full_name(u, u.names[pkg.name], u.packages[q].arch);
            bp.relations.push_back(std::move(rel));
            broken = true;
        }
    }
    if (!broken) return std::nullopt;
    // In apt's order of the fields, which is the order apt lists them.
    std::stable_sort(bp.relations.begin(), bp.relations.end(),
                     [](const BrokenRelation& a, const BrokenRelation& b) { return rank(a.kind) < rank(b.kind); });
    const solver::Package& p = u.packages[u.versions[v].package];
    bp.name = full_name(u, u.names[p.name], p.arch);
    bp.installed = u.versions[v].installed;
    return bp;
}

void sort_by_name(std::vector<BrokenPackage>& out) {
    std::stable_sort(out.begin(), out.end(), [](const BrokenPackage& a, const BrokenPackage& b) { return a.name < b.name; });
}

std::vector<BrokenPackage> broken_in(const SystemUniverse& su, bool install_recommends, const Presence& present) {
    const Universe& u = su.universe;
    std::vector<BrokenPackage> out;
    std::vector<uint32_t> hits;
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        // Only what is broken now, and not what the request names: apt's
        // marking of a named package mends its own dependencies (and a
        // package it adds has its dependencies marked with it).
        if (!u.versions[v].installed || !present(v) || present.named(u.versions[v].package)) continue;
        auto bp = broken_package(u, v, install_recommends, present,
                                 [&](const Target& t) { return describe(u, v, t); }, hits);
        if (bp) out.push_back(std::move(*bp));
    }
    sort_by_name(out);
    return out;
}

// apt's marking of a request before its problem resolver: the named
// removals gone, each named install at its candidate, and for every
// version so marked, each unmet Depends/Pre-Depends group (and Recommends
// when they are installed) met by the first alternative whose package's
// candidate satisfies it and may change (not held at another version),
// marked in turn. What is left unmet is what apt lists.
class ClassicMarking {
public:
    ClassicMarking(const Universe& u, const solver::Request& r, bool recommends, bool follow, bool spare_held = false)
        : u_(u), recommends_(recommends), follow_(follow), spare_held_(spare_held), chosen_(u.packages.size(), kNone) {
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

    // Whether installing `h` would leave a held package's Depends or
    // Pre-Depends, met now, unmet.
    bool breaks_held(uint32_t h) const {
        const uint32_t hp = u_.versions[h].package;
        std::vector<uint32_t> hits;
        for (uint32_t w = 0; w < u_.versions.size(); ++w) {
            if (!u_.versions[w].hold || !u_.versions[w].installed || !present(w)) continue;
            for (const solver::Dependency& d : u_.deps(w)) {
                if (d.kind != DepKind::Depends && d.kind != DepKind::PreDepends) continue;
                auto now = [&](uint32_t x) { return present(x); };
                auto then = [&](uint32_t x) { return u_.versions[x].package == hp ? x == h : present(x); };
                if (relation_met(u_, w, d, now, hits) && !relation_met(u_, w, d, then, hits)) return true;
            }
        }
        return false;
    }

    void mark(uint32_t p) {
        auto v = candidate(p);
        if (!v || chosen_[p] == *v || held_elsewhere(p, *v) || depth_ > 100) return;
        chosen_[p] = *v;
        if (!follow_) return;
        ++depth_;
        std::vector<uint32_t> hits;
        auto is_present = [&](uint32_t h) { return present(h); };
        // What the new version's Conflicts or Breaks hit goes, as apt's
        // resolver removes it before it gives up (a held package stays).
        for (const solver::Dependency& d : u_.deps(*v)) {
            if (!solver::is_negative(d.kind)) continue;
            for (const Target& t : d.alternatives) {
                hits.clear();
                u_.conflicts_with(*v, t, hits);
                for (uint32_t h : hits) {
                    const uint32_t hp = u_.versions[h].package;
                    if (hp != p && chosen_[hp] == h && u_.versions[h].installed && !u_.versions[h].hold)
                        chosen_[hp] = kRemoved;
                }
            }
        }
        for (const solver::Dependency& d : u_.deps(*v)) {
            const bool wanted = d.kind == DepKind::Depends || d.kind == DepKind::PreDepends ||
                                (d.kind == DepKind::Recommends && recommends_);
            if (!wanted || relation_met(u_, *v, d, is_present, hits)) continue;
            for (const Target& t : d.alternatives) {
                hits.clear();
                u_.satisfiers(*v, t, hits);
                auto usable = std::find_if(hits.begin(), hits.end(), [&](uint32_t h) {
                    const uint32_t hp = u_.versions[h].package;
                    return u_.versions[h].candidate && chosen_[hp] != kRemoved && !held_elsewhere(hp, h) &&
                           !sibling_present(h) && !(spare_held_ && breaks_held(h));
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
    bool follow_;  // mark the dependencies too (apt's auto-install)
    bool spare_held_;  // never through an upgrade that breaks a held package
    std::vector<uint32_t> chosen_;  // by package: the version, kNone or kRemoved
    int depth_ = 0;
};

// A target as apt describes it against the marked state ("but 2 is to be
// installed", "but it is not going to be installed").
BrokenTarget describe_planned(const Universe& u, const ClassicMarking& m, uint32_t from, const Target& t) {
    BrokenTarget out = describe(u, from, t);
    if (out.state == BrokenTarget::State::Virtual) return out;
    auto pkg = u.find_package(u.names[t.name], target_arch(u, from, t));
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
                                                       bool install_recommends, bool follow_dependencies,
                                                       bool spare_held) {
    const Universe& u = su.universe;
    ClassicMarking marking(u, request, install_recommends, follow_dependencies, spare_held);
    std::vector<BrokenPackage> out;
    std::vector<uint32_t> hits;
    auto present = [&](uint32_t h) { return marking.present(h); };
    for (uint32_t p = 0; p < u.packages.size(); ++p) {
        auto v = marking.version_of(p);
        if (!v) continue;
        auto bp = broken_package(u, *v, install_recommends, present,
                                 [&](const Target& t) { return describe_planned(u, marking, *v, t); }, hits);
        if (bp) out.push_back(std::move(*bp));
    }
    sort_by_name(out);
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
