// The policy on top of the CDCL core: which versions get a variable (strict
// pinning, upgrade without new packages), which facts are hard (the request,
// manual, essential, held and — for `upgrade` — every installed package), and
// the order of decisions (apt solver3's: keep what is there, close the
// dependencies of what is chosen breadth first taking the first working
// alternative, then keep automatic packages, then Recommends).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <unordered_map>

#include "aptus/deb/version.hpp"
#include "aptus/solver/explain.hpp"
#include "aptus/solver/suggest.hpp"
#include "aptus/solver/sat.hpp"
#include "aptus/solver/solver.hpp"

namespace aptus::solver {
namespace {

constexpr int32_t no_var = -1;

class Encoder;

// One dependency of a chosen version, as the brancher sees it: the choices
// in the order the policy prefers them.
struct Item {
    std::vector<Lit> choices;
};

class Encoder : public Brancher {
public:
    Encoder(const Universe& u, const Request& r) : u_(u), r_(r), var_of_(u.versions.size(), no_var) {
        pkg_installed_.assign(u.packages.size(), 0);
        for (uint32_t v = 0; v < u.versions.size(); ++v)
            if (u.versions[v].installed) pkg_installed_[u.versions[v].package] = 1;
        requested_remove_.assign(u.packages.size(), 0);
        for (uint32_t p : r.remove) requested_remove_[p] = 1;
        find_obsolete();
    }

    Solution run();
    // The facts of the final conflict when run() found none to meet the request.
    const std::vector<Reason>& core() const { return core_; }

    // A weak relation (Recommends, Suggests) of a version that may install
    // what it names: its owner's variable and its index in items_, and the
    // relation's index among the owner's deps. The same universe and request
    // give the same numbering in every Encoder.
    struct Weak {
        uint32_t owner, item, dep;
        bool operator==(const Weak&) const = default;
    };
    // Weak relations to hold as hard ones (when their owner is installed), for a solve again.
    void require(std::vector<Weak> weak) { required_weak_ = std::move(weak); }
    // After run() succeeded: the weak relations of installed owners that
    // hold, and those that do not although some choice of theirs was ruled
    // out only by a decision (not by the facts alone).
    void weak_state(std::vector<Weak>& met, std::vector<Weak>& lost) const;
    uint32_t version_of(uint32_t var) const { return version_of_[var]; }

    Lit next(const Sat& sat) override;
    Lit choose(const Sat& sat);
    void backtracked(uint32_t) override {
        dep_cursor_ = rec_cursor_ = hard_cursor_ = soft_cursor_ = 0;
        dep_item_ = rec_item_ = 0;
    }

private:
    bool allowed(uint32_t v) const {
        const Version& ver = u_.versions[v];
        if (ver.installed) return true;
        if (r_.forbid_new_install && !pkg_installed_[ver.package]) return false;
        if (r_.strict_pinning) return ver.candidate;
        return ver.pin > 0;
    }
    void find_obsolete();
    // A full upgrade installs what is newly Essential (apt 2.9.29 on): per
    // name, the candidates that say Essential: yes, when no architecture of
    // the name is installed.
    std::vector<std::vector<uint32_t>> new_essentials() const;
    // Installed packages are an or-group's first choice — except, in a full
    // upgrade, automatically installed ones: there the group is read as a
    // fresh install of the new release would read it (normalisation). The
    // old choice stays installed only if it can (a conflict with the fresh
    // one removes it), and autoremove no longer counts the group as needing
    // it, so it goes with the garbage unless something else needs it.
    bool first_choice(uint32_t pkg) const {
        return pkg_installed_[pkg] && !(r_.upgrade_all && !r_.forbid_remove && u_.packages[pkg].automatic);
    }
    // An architecture's place in the universe's list (native first, then
    // as configured); "all" is the native one.
    size_t arch_rank(const std::string& arch) const {
        const std::string& a = arch == "all" ? u_.native_arch : arch;
        auto it = std::find(u_.architectures.begin(), u_.architectures.end(), a);
        return size_t(it - u_.architectures.begin());
    }
    // Preference among versions of one package: what to try first.
    std::vector<uint32_t> preferred_versions(uint32_t pkg, bool upgrade) const;
    void order_choices(std::vector<uint32_t>& vs, size_t alt_begin, size_t alt_end) const;
    void discover();
    void encode();
    // Request::first_alternative_upgrades: the satisfiers of an or-group
    // (alternative k's end at ends[k]) cut to the first alternative with a
    // version that may be chosen, unless something installed satisfies it.
    void first_alternative_only(std::vector<uint32_t>& sats, const std::vector<size_t>& ends) const {
        for (uint32_t s : sats)
            if (pkg_installed_[u_.versions[s].package]) return;
        size_t begin = 0;
        for (size_t end : ends) {
            for (size_t i = begin; i < end; ++i)
                if (var_of_[sats[i]] != no_var) {
                    sats.erase(sats.begin() + end, sats.end());
                    sats.erase(sats.begin(), sats.begin() + begin);
                    return;
                }
            begin = end;
        }
    }
    uint32_t reason(Reason r) {
        reasons_.push_back(r);
        return uint32_t(reasons_.size() - 1);
    }
    void keep_clause(uint32_t pkg, ReasonKind kind);
    Solution answer(const Sat& sat);
    Lit first_open(const Sat& sat, const std::vector<Lit>& choices, bool& satisfied) const;
    // The version to keep or install for a goal: the first open choice,
    // unless a later one is what a chosen package recommends and nothing
    // satisfies yet (an upgrade whose Recommends got tighter upgrades the
    // recommended package rather than losing the relation, apt's rule).
    Lit goal_choice(const Sat& sat, const std::vector<Lit>& choices, bool& satisfied) const;

    const Universe& u_;
    const Request& r_;
    std::vector<int32_t> var_of_;
    std::vector<uint32_t> version_of_;
    std::vector<uint8_t> pkg_installed_, requested_remove_, obsolete_;
    std::vector<Reason> reasons_;
    Sat sat_;
    bool traced_facts_ = false;
    std::vector<Reason> core_;
    bool trace_ = std::getenv("APTUS_SOLVER_TRACE") != nullptr;  // decisions on stderr, for debugging

    std::vector<Item> items_;
    std::vector<Weak> weak_, required_weak_;
    std::vector<std::vector<uint32_t>> dep_items_, rec_items_;  // by variable
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> recommended_by_;  // by variable: (owner var, item)
    std::vector<Item> hard_goals_, soft_goals_;
    size_t dep_cursor_ = 0, dep_item_ = 0, rec_cursor_ = 0, rec_item_ = 0, hard_cursor_ = 0, soft_cursor_ = 0;
};

void Encoder::find_obsolete() {
    const std::vector<uint32_t> why = obsolete_packages(u_);
    obsolete_.assign(u_.packages.size(), 0);
    for (uint32_t p = 0; p < u_.packages.size(); ++p) obsolete_[p] = why[p] != kNotObsolete;
}

std::vector<std::vector<uint32_t>> Encoder::new_essentials() const {
    std::vector<std::vector<uint32_t>> groups;
    if (!r_.upgrade_all || r_.forbid_remove || r_.forbid_new_install) return groups;
    std::vector<uint8_t> name_done(u_.names.size(), 0);
    for (uint32_t p = 0; p < u_.packages.size(); ++p) {
        uint32_t name = u_.packages[p].name;
        if (name_done[name]) continue;
        name_done[name] = 1;
        std::vector<uint32_t> group;
        bool installed = false;
        for (uint32_t q : u_.packages_named(name)) {
            installed = installed || pkg_installed_[q];
            for (uint32_t v : u_.packages[q].versions)
                if (u_.versions[v].candidate && u_.versions[v].essential && allowed(v)) group.push_back(v);
        }
        if (!installed && !group.empty() && !requested_remove_[u_.versions[group[0]].package]) groups.push_back(std::move(group));
    }
    return groups;
}

std::vector<uint32_t> Encoder::preferred_versions(uint32_t pkg, bool upgrade) const {
    std::vector<uint32_t> vs;
    for (uint32_t v : u_.packages[pkg].versions)
        if (allowed(v)) vs.push_back(v);
    std::stable_sort(vs.begin(), vs.end(), [&](uint32_t a, uint32_t b) {
        const Version &va = u_.versions[a], &vb = u_.versions[b];
        if (upgrade && va.candidate != vb.candidate) return va.candidate;
        if (va.installed != vb.installed) return va.installed;
        if (va.candidate != vb.candidate) return va.candidate;
        if (va.pin != vb.pin) return va.pin > vb.pin;
        return deb::compare_versions(va.version, vb.version) > 0;
    });
    return vs;
}

// Inside one alternative: versions of installed packages first, the preferred
// version of each package first, the named package before its providers.
void Encoder::order_choices(std::vector<uint32_t>& vs, size_t begin, size_t end) const {
    std::stable_sort(vs.begin() + begin, vs.begin() + end, [&](uint32_t a, uint32_t b) {
        const Version &va = u_.versions[a], &vb = u_.versions[b];
        if (r_.upgrade_all && obsolete_[va.package] != obsolete_[vb.package]) return obsolete_[vb.package] > 0;
        bool ia = first_choice(va.package), ib = first_choice(vb.package);
        if (ia != ib) return ia;
        if (va.package != vb.package) {
            // Architectures of one name in the configured order (apt's);
            // other packages in the universe's order.
            const Package &pa = u_.packages[va.package], &pb = u_.packages[vb.package];
            return pa.name == pb.name && arch_rank(pa.arch) < arch_rank(pb.arch);
        }
        if (r_.upgrade_all && va.candidate != vb.candidate) return va.candidate;
        if (va.installed != vb.installed) return va.installed;
        if (va.candidate != vb.candidate) return va.candidate;
        if (va.pin != vb.pin) return va.pin > vb.pin;
        return false;  // satisfiers() gives versions newest first
    });
}

// Variables only for the versions that can matter: allowed ones reachable
// from what is installed and what is asked for, through positive relations.
void Encoder::discover() {
    std::deque<uint32_t> queue;
    auto visit = [&](uint32_t v) {
        if (var_of_[v] != no_var || !allowed(v)) return;
        var_of_[v] = int32_t(sat_.new_var());
        version_of_.push_back(v);
        queue.push_back(v);
    };
    for (uint32_t p = 0; p < u_.packages.size(); ++p)
        if (pkg_installed_[p])
            for (uint32_t v : u_.packages[p].versions) visit(v);
    for (uint32_t p : r_.install)
        for (uint32_t v : u_.packages[p].versions) visit(v);
    for (const auto& group : new_essentials())
        for (uint32_t v : group) visit(v);
    std::vector<uint32_t> sats;
    while (!queue.empty()) {
        uint32_t v = queue.front();
        queue.pop_front();
        for (const Dependency& d : u_.deps(v)) {
            if (is_negative(d.kind) || (d.kind == DepKind::Suggests && !r_.install_suggests)) continue;
            for (const Target& t : d.alternatives) {
                sats.clear();
                u_.satisfiers(v, t, sats);
                for (uint32_t s : sats) visit(s);
            }
        }
    }
}

void Encoder::keep_clause(uint32_t pkg, ReasonKind kind) {
    std::vector<Lit> lits;
    for (uint32_t v : preferred_versions(pkg, r_.upgrade_all))
        if (var_of_[v] != no_var) lits.push_back(pos_lit(uint32_t(var_of_[v])));
    sat_.add_clause(lits, reason({kind, pkg, 0, 0, 0}));
    hard_goals_.push_back({lits});
}

void Encoder::encode() {
    dep_items_.assign(version_of_.size(), {});
    rec_items_.assign(version_of_.size(), {});
    recommended_by_.assign(version_of_.size(), {});
    // The request first: its clauses come first in the hard goals.
    for (uint32_t p : r_.install) {
        std::vector<Lit> lits;
        for (uint32_t v : u_.packages[p].versions)
            if (var_of_[v] != no_var && u_.versions[v].candidate) lits.push_back(pos_lit(uint32_t(var_of_[v])));
        sat_.add_clause(lits, reason({ReasonKind::RequestInstall, p, 0, 0, 0}));
        hard_goals_.push_back({lits});
    }
    // A newly Essential name is installed in the native architecture unless
    // what stays installed already pulls in some architecture of it (apt):
    // its goal comes after those of the installed packages.
    std::vector<Item> essential_goals;
    for (auto group : new_essentials()) {
        std::stable_partition(group.begin(), group.end(), [&](uint32_t v) {
            return u_.packages[u_.versions[v].package].arch == u_.native_arch;
        });
        std::vector<Lit> lits;
        for (uint32_t v : group) lits.push_back(pos_lit(uint32_t(var_of_[v])));
        sat_.add_clause(lits, reason({ReasonKind::NewEssential, u_.versions[group[0]].package, group[0], 0, 0}));
        essential_goals.push_back({lits});
    }
    for (uint32_t p : r_.remove)
        for (uint32_t v : u_.packages[p].versions)
            if (var_of_[v] != no_var) {
                Lit l = neg_lit(uint32_t(var_of_[v]));
                sat_.add_clause({&l, 1}, reason({ReasonKind::RequestRemove, p, v, 0, 0}));
            }
    // Obsolete packages are kept last: what replaces them gets the first try.
    std::vector<uint32_t> soft_pkgs;
    for (uint8_t pass = 0; pass < 2; ++pass)
    for (uint32_t p = 0; p < u_.packages.size(); ++p) {
        if (!pkg_installed_[p] || obsolete_[p] != pass) continue;
        const Package& pkg = u_.packages[p];
        uint32_t inst = 0;
        bool essential = false, important = false, hold = false;
        for (uint32_t v : pkg.versions)
            if (u_.versions[v].installed) {
                inst = v;
                essential = u_.versions[v].essential;
                important = u_.versions[v].important;
                hold = u_.versions[v].hold;
            }
        // Naming a held package lifts its hold for this request (apt's
        // front ends do; request.cpp clears the flag, an EDSP request may not).
        if (hold && (requested_remove_[p] || std::find(r_.install.begin(), r_.install.end(), p) != r_.install.end()))
            hold = false;
        if (hold) {
            Lit l = pos_lit(uint32_t(var_of_[inst]));
            sat_.add_clause({&l, 1}, reason({ReasonKind::Hold, p, inst, 0, 0}));
            // A hold means hold (apt's bug 961266): the same package of
            // another architecture is no way around it (git:i386 standing in
            // for a held Multi-Arch: foreign git), unless it is asked for.
            for (uint32_t q : u_.packages_named(pkg.name)) {
                if (q == p || pkg_installed_[q] ||
                    std::find(r_.install.begin(), r_.install.end(), q) != r_.install.end())
                    continue;
                for (uint32_t v : u_.packages[q].versions)
                    if (var_of_[v] != no_var) {
                        Lit n = neg_lit(uint32_t(var_of_[v]));
                        sat_.add_clause({&n, 1}, reason({ReasonKind::Hold, p, inst, 0, 0}));
                    }
            }
            continue;
        }
        if (requested_remove_[p] && (r_.allow_remove_essential || !(essential || important))) continue;
        if (essential || important) keep_clause(p, essential ? ReasonKind::Essential : ReasonKind::Protected);
        else if (r_.forbid_remove) keep_clause(p, ReasonKind::NoRemovals);
        // A full upgrade may remove the old half of a library transition
        // even when it was installed by hand (apt does): its replacement
        // comes from the same source and takes over. Such packages are kept
        // when they can be, like automatic ones.
        else if (!pkg.automatic && !r_.remove_manual && !(r_.upgrade_all && obsolete_[p] && !r_.keep_obsolete_manual))
            keep_clause(p, ReasonKind::Manual);
        else soft_pkgs.push_back(p);
    }
    hard_goals_.insert(hard_goals_.end(), essential_goals.begin(), essential_goals.end());
    for (uint32_t p : soft_pkgs) {
        std::vector<Lit> lits;
        for (uint32_t v : preferred_versions(p, r_.upgrade_all))
            if (var_of_[v] != no_var) lits.push_back(pos_lit(uint32_t(var_of_[v])));
        soft_goals_.push_back({lits});
    }

    std::vector<uint32_t> sats;
    std::vector<size_t> alt_ends;
    std::vector<Lit> lits;
    for (uint32_t p = 0; p < u_.packages.size(); ++p) {
        std::vector<uint32_t> vs;
        for (uint32_t v : u_.packages[p].versions)
            if (var_of_[v] != no_var) vs.push_back(v);
        for (size_t i = 0; i < vs.size(); ++i)
            for (size_t j = i + 1; j < vs.size(); ++j) {
                Lit c[2] = {neg_lit(uint32_t(var_of_[vs[i]])), neg_lit(uint32_t(var_of_[vs[j]]))};
                sat_.add_clause(c, reason({ReasonKind::OneVersion, p, vs[i], vs[j], 0}));
            }
    }
    // Architectures of one name: dpkg co-installs them only when both are
    // Multi-Arch: same, and then only at one version, since they share their
    // files (co-installed ones move in lock-step: an upgrade of one upgrades
    // or removes the others). Any other pair is one package to dpkg, so at
    // most one of them is installed (apt's implicit Conflicts between them).
    std::vector<uint8_t> name_done(u_.names.size(), 0);
    for (uint32_t p = 0; p < u_.packages.size(); ++p) {
        uint32_t name = u_.packages[p].name;
        const std::span<const uint32_t> same_name = u_.packages_named(name);
        if (name_done[name] || same_name.size() < 2) continue;
        name_done[name] = 1;
        std::vector<uint32_t> vs;
        for (uint32_t q : same_name)
            for (uint32_t v : u_.packages[q].versions)
                if (var_of_[v] != no_var) vs.push_back(v);
        for (size_t i = 0; i < vs.size(); ++i)
            for (size_t j = i + 1; j < vs.size(); ++j) {
                const Version &a = u_.versions[vs[i]], &b = u_.versions[vs[j]];
                if (a.package == b.package) continue;
                const bool same = a.multi_arch == MultiArch::Same && b.multi_arch == MultiArch::Same;
                if (same && a.version == b.version) continue;
                Lit c[2] = {neg_lit(uint32_t(var_of_[vs[i]])), neg_lit(uint32_t(var_of_[vs[j]]))};
                sat_.add_clause(c, reason({same ? ReasonKind::MultiArchSame : ReasonKind::OneArchitecture, a.package,
                                           vs[i], vs[j], 0}));
            }
    }
    for (uint32_t var = 0; var < version_of_.size(); ++var) {
        uint32_t v = version_of_[var];
        const Version& ver = u_.versions[v];
        const std::vector<Dependency>* installed_deps = nullptr;
        if (!ver.installed && pkg_installed_[ver.package])
            for (uint32_t o : u_.packages[ver.package].versions)
                if (u_.versions[o].installed) installed_deps = &u_.deps(o);
        const std::vector<Dependency>& deps = u_.deps(v);
        for (uint32_t di = 0; di < deps.size(); ++di) {
            const Dependency& d = deps[di];
            if (is_negative(d.kind)) {
                sats.clear();
                u_.conflicts_with(v, d.alternatives[0], sats);
                for (uint32_t t : sats) {
                    if (var_of_[t] == no_var) continue;
                    Lit c[2] = {neg_lit(var), neg_lit(uint32_t(var_of_[t]))};
                    sat_.add_clause(c, reason({ReasonKind::Conflict, ver.package, v, t, di}));
                }
                continue;
            }
            if (d.kind == DepKind::Suggests && !r_.install_suggests) continue;
            if (d.kind == DepKind::Recommends && !r_.install_recommends && !ver.installed && !installed_deps) continue;
            sats.clear();
            alt_ends.clear();
            for (const Target& t : d.alternatives) {
                size_t begin = sats.size();
                u_.satisfiers(v, t, sats);
                order_choices(sats, begin, sats.size());
                alt_ends.push_back(sats.size());
            }
            if (r_.first_alternative_upgrades && r_.upgrade_all && r_.forbid_remove && !ver.installed &&
                d.kind != DepKind::Recommends && d.kind != DepKind::Suggests && alt_ends.size() > 1)
                first_alternative_only(sats, alt_ends);
            bool weak = d.kind == DepKind::Recommends || d.kind == DepKind::Suggests;
            // Across the whole or-group, what is installed already comes first.
            // (When upgrading, what a transition leaves behind comes last.) A
            // weak relation is apt's: only an installed version that
            // satisfies it comes first, an upgrade of an installed package
            // has no precedence over a new one named before it.
            std::stable_sort(sats.begin(), sats.end(), [&](uint32_t a, uint32_t b) {
                uint32_t pa = u_.versions[a].package, pb = u_.versions[b].package;
                if (r_.upgrade_all && obsolete_[pa] != obsolete_[pb]) return obsolete_[pb] > 0;
                if (weak) return u_.versions[a].installed > u_.versions[b].installed;
                return first_choice(pa) > first_choice(pb);
            });
            // Weak relations of what is installed only keep what is there; a
            // Recommends an upgrade brings along is new and may install.
            bool keep_only = false;
            if (weak && ver.installed) keep_only = true;
            if (weak && installed_deps) {
                // A Recommends of an upgrade installs what it names unless the
                // installed version already recommended one of those names
                // and the system never satisfied it: the user chose to go
                // without. One that was satisfied and got tighter, or one
                // about names not recommended before, installs (apt's rule).
                bool related = false, was_satisfied = false;
                for (const Dependency& old : *installed_deps) {
                    if (old.kind != d.kind) continue;
                    bool shares = false;
                    for (const Target& o : old.alternatives)
                        for (const Target& t : d.alternatives) shares |= o.name == t.name;
                    if (!shares) continue;
                    related = true;
                    std::vector<uint32_t> old_sats;
                    for (const Target& o : old.alternatives) u_.satisfiers(v, o, old_sats);
                    for (uint32_t s : old_sats) was_satisfied |= u_.versions[s].installed;
                }
                if (related && !was_satisfied) keep_only = true;
                if (!r_.install_recommends) keep_only = true;
            }
            Item item;
            for (uint32_t s : sats) {
                if (var_of_[s] == no_var) continue;
                if (keep_only && !pkg_installed_[u_.versions[s].package]) continue;
                Lit l = pos_lit(uint32_t(var_of_[s]));
                if (std::find(item.choices.begin(), item.choices.end(), l) == item.choices.end()) item.choices.push_back(l);
            }
            if (weak) {
                if (item.choices.empty()) continue;
                if (!keep_only) {
                    for (Lit l : item.choices) recommended_by_[lit_var(l)].emplace_back(var, uint32_t(items_.size()));
                    weak_.push_back({var, uint32_t(items_.size()), di});
                }
                rec_items_[var].push_back(uint32_t(items_.size()));
                items_.push_back(std::move(item));
                continue;
            }
            lits.clear();
            lits.push_back(neg_lit(var));
            lits.insert(lits.end(), item.choices.begin(), item.choices.end());
            sat_.add_clause(lits, reason({ReasonKind::Dependency, ver.package, v, 0, di}));
            dep_items_[var].push_back(uint32_t(items_.size()));
            items_.push_back(std::move(item));
        }
    }
}

Lit Encoder::first_open(const Sat& sat, const std::vector<Lit>& choices, bool& satisfied) const {
    satisfied = false;
    Lit open = no_lit;
    for (Lit l : choices) {
        LBool val = sat.value(l);
        if (val == LBool::True) {
            satisfied = true;
            return no_lit;
        }
        if (val == LBool::Undef && open == no_lit) open = l;
    }
    return open;
}

Lit Encoder::goal_choice(const Sat& sat, const std::vector<Lit>& choices, bool& satisfied) const {
    Lit open = first_open(sat, choices, satisfied);
    if (open == no_lit) return open;
    for (Lit l : choices) {
        if (sat.value(l) != LBool::Undef) continue;
        for (auto [owner, item] : recommended_by_[lit_var(l)]) {
            const std::vector<Lit>& wanted = items_[item].choices;
            bool met = false;  // first_open() gives no open choice when met
            if (!sat.is_true(pos_lit(owner)) || std::find(wanted.begin(), wanted.end(), open) != wanted.end()) continue;
            if (first_open(sat, wanted, met) == l) return l;  // the or-group's first open choice
        }
    }
    return open;
}

Lit Encoder::next(const Sat& sat) {
    if (trace_ && sat.decision_level() == 0 && !traced_facts_) {
        traced_facts_ = true;
        for (Lit t : sat.trail())
            if (!lit_negated(t)) std::fprintf(stderr, "[0] fact %s\n", u_.describe(version_of_[lit_var(t)]).c_str());
    }
    Lit l = choose(sat);
    if (trace_ && l != no_lit)
        std::fprintf(stderr, "[%u] %s %s\n", sat.decision_level() + 1, lit_negated(l) ? "not" : "install",
                     u_.describe(version_of_[lit_var(l)]).c_str());
    return l;
}

Lit Encoder::choose(const Sat& sat) {
    bool satisfied = false;
    auto trail = sat.trail();
    // 1. The dependencies of everything chosen, in the order it was chosen.
    while (dep_cursor_ < trail.size()) {
        Lit t = trail[dep_cursor_];
        if (!lit_negated(t)) {
            const auto& its = dep_items_[lit_var(t)];
            while (dep_item_ < its.size()) {
                Lit l = first_open(sat, items_[its[dep_item_]].choices, satisfied);
                if (l != no_lit) return l;
                ++dep_item_;
            }
        }
        ++dep_cursor_;
        dep_item_ = 0;
    }
    // 2. The request, then what must stay installed (which version).
    while (hard_cursor_ < hard_goals_.size()) {
        Lit l = goal_choice(sat, hard_goals_[hard_cursor_].choices, satisfied);
        if (l != no_lit) return l;
        ++hard_cursor_;
    }
    // 3. Automatically installed packages: kept when they can be.
    while (soft_cursor_ < soft_goals_.size()) {
        Lit l = goal_choice(sat, soft_goals_[soft_cursor_].choices, satisfied);
        if (l != no_lit) return l;
        ++soft_cursor_;
    }
    // 4. Recommends of what is chosen, never at the price of failing: a
    // decision that leads to a conflict is learnt away.
    while (rec_cursor_ < trail.size()) {
        Lit t = trail[rec_cursor_];
        if (!lit_negated(t)) {
            const auto& its = rec_items_[lit_var(t)];
            while (rec_item_ < its.size()) {
                Lit l = first_open(sat, items_[its[rec_item_]].choices, satisfied);
                if (l != no_lit) return l;
                ++rec_item_;
            }
        }
        ++rec_cursor_;
        rec_item_ = 0;
    }
    return no_lit;
}

Solution Encoder::answer(const Sat& sat) {
    Solution s;
    s.solved = true;
    std::vector<uint8_t> chosen_pkg(u_.packages.size(), 0);
    for (uint32_t var = 0; var < version_of_.size(); ++var)
        if (sat.is_true(pos_lit(var))) {
            uint32_t v = version_of_[var];
            s.selected.push_back(v);
            chosen_pkg[u_.versions[v].package] = 1;
            if (!u_.versions[v].installed) s.install.push_back(v);
        }
    std::sort(s.selected.begin(), s.selected.end());
    std::sort(s.install.begin(), s.install.end());
    for (uint32_t v = 0; v < u_.versions.size(); ++v)
        if (u_.versions[v].installed && !chosen_pkg[u_.versions[v].package]) s.remove.push_back(v);
    std::vector<uint32_t> garbage = autoremovable(u_, r_, s.selected);
    if (r_.autoremove) {
        s.remove.insert(s.remove.end(), garbage.begin(), garbage.end());
        std::sort(s.remove.begin(), s.remove.end());
    } else {
        // An EDSP answer names a package once: what is upgraded gets its
        // Install stanza, so only garbage left at its version is listed (apt too).
        for (uint32_t v : garbage)
            if (u_.versions[v].installed) s.autoremove.push_back(v);
    }
    return s;
}

void Encoder::weak_state(std::vector<Weak>& met, std::vector<Weak>& lost) const {
    met.clear();
    lost.clear();
    for (const Weak& w : weak_) {
        if (!sat_.is_true(pos_lit(w.owner))) continue;
        const std::vector<Lit>& choices = items_[w.item].choices;
        if (std::any_of(choices.begin(), choices.end(), [&](Lit l) { return sat_.is_true(l); })) met.push_back(w);
        else if (std::any_of(choices.begin(), choices.end(), [&](Lit l) { return sat_.level_of(lit_var(l)) > 0; }))
            lost.push_back(w);
    }
}

Solution Encoder::run() {
    discover();
    encode();
    for (const Weak& w : required_weak_) {
        std::vector<Lit> lits{neg_lit(w.owner)};
        const std::vector<Lit>& choices = items_[w.item].choices;
        lits.insert(lits.end(), choices.begin(), choices.end());
        const uint32_t v = version_of_[w.owner];
        sat_.add_clause(lits, reason({ReasonKind::Dependency, u_.versions[v].package, v, 0, w.dep}));
    }
    Solution s;
    bool ok = sat_.solve(*this);
    if (ok) s = answer(sat_);
    else {
        s.error_id = r_.upgrade_all ? (r_.forbid_remove ? "ERR_UNSOLVABLE_UPGRADE" : "ERR_UNSOLVABLE_FULL_UPGRADE")
                                    : "ERR_UNSOLVABLE";
        if (sat_.timed_out()) s.message = "The solver gave up after " + std::to_string(sat_.conflicts) + " conflicts.";
        else {
            for (uint32_t tag : sat_.core()) core_.push_back(reasons_[tag]);
            s.message = explain(u_, r_, core_);
            s.facts = explain_facts(u_, r_, core_);
        }
    }
    s.stats = {sat_.decisions, sat_.propagations, sat_.conflicts, sat_.learnt, sat_.var_count(), sat_.clause_count()};
    return s;
}

}  // namespace

std::vector<uint32_t> obsolete_packages(const Universe& u) {
    std::vector<uint32_t> out(u.packages.size(), kNotObsolete);
    std::unordered_map<std::string, std::vector<uint32_t>> by_source;
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) by_source.emplace(u.versions[v].source, std::vector<uint32_t>{});
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].candidate)
            if (auto it = by_source.find(u.versions[v].source); it != by_source.end()) it->second.push_back(v);
    for (uint32_t p = 0; p < u.packages.size(); ++p) {
        bool installed = false;
        const Version* cand = nullptr;
        for (uint32_t v : u.packages[p].versions) {
            installed = installed || u.versions[v].installed;
            if (u.versions[v].candidate) cand = &u.versions[v];
        }
        if (!installed) continue;
        if (!cand) {
            out[p] = kNoCandidate;
            continue;
        }
        if (!cand->installed) continue;
        // The newer binary that replaces it, the likeliest first: its own
        // name with t64 (libfoo1 -> libfoo1t64), its name with a suffix, a
        // library that is no -dev/-doc/-dbg package, else any.
        const std::string& name = u.names[u.packages[p].name];
        auto likeness = [&](const std::string& other) {
            if (other == name + "t64") return 4;
            if (other.starts_with(name) && other.find('-', name.size()) == std::string::npos) return 3;
            for (const char* aux : {"-dev", "-doc", "-dbg", "-dbgsym"})
                if (other.ends_with(aux)) return 0;
            if (other.starts_with("lib") == name.starts_with("lib")) return 2;
            return 1;
        };
        int best = -1;
        for (uint32_t o : by_source[cand->source]) {
            const Version& ov = u.versions[o];
            if (ov.package == p || u.packages[ov.package].arch != u.packages[p].arch) continue;
            if (ov.pin >= cand->pin && deb::compare_versions(ov.source_version, cand->source_version) > 0) {
                const int l = likeness(u.names[u.packages[ov.package].name]);
                if (l > best) {
                    best = l;
                    out[p] = o;
                }
            }
        }
    }
    return out;
}

// A Recommends lost to an earlier choice that could have gone otherwise
// (plasma-vault's cryfs takes "Depends: fuse" as fuse 2.9 before kdeconnect,
// recommended later, needs fuse3, which Conflicts with it): solved again
// with that Recommends and every one met so far required, the answer is
// taken when it succeeds and removes nothing the first did not. solver3
// keeps such Recommends when its order of work reaches them in time;
// this does not depend on the order. Bounded: each try is a whole solve.
Solution keep_lost_recommends(const Universe& u, const Request& r, const Encoder& first, Solution s) {
    constexpr int kTries = 4;
    std::vector<Encoder::Weak> met, lost, tried;
    first.weak_state(met, lost);
    for (int n = 0; n < kTries; ++n) {
        auto pick = std::find_if(lost.begin(), lost.end(), [&](const Encoder::Weak& w) {
            return std::find(tried.begin(), tried.end(), w) == tried.end();
        });
        if (pick == lost.end()) break;
        tried.push_back(*pick);
        std::vector<Encoder::Weak> required = met;
        required.push_back(*pick);
        Encoder again(u, r);
        again.require(std::move(required));
        Solution t = again.run();
        const bool better = t.solved && std::includes(s.remove.begin(), s.remove.end(), t.remove.begin(), t.remove.end());
        if (std::getenv("APTUS_SOLVER_TRACE"))
            std::fprintf(stderr, "lost Recommends of %s (%s): %s\n", u.describe(first.version_of(pick->owner)).c_str(),
                         u.dependency_text(u.deps(first.version_of(pick->owner))[pick->dep]).c_str(),
                         better ? "kept by solving again" : "cannot be kept");
        if (!better) continue;
        t.stats.decisions += s.stats.decisions;
        t.stats.conflicts += s.stats.conflicts;
        s = std::move(t);
        again.weak_state(met, lost);
    }
    return s;
}

Solution solve(const Universe& u, const Request& r) {
    Encoder e(u, r);
    Solution s = e.run();
    if (s.solved) return keep_lost_recommends(u, r, e, std::move(s));
    if (e.core().empty()) return s;
    // An answer that ends the search: a changed request, checked by solving it.
    auto found = suggest_request(u, r, e.core(), [&](const Request& t) -> std::optional<std::vector<Reason>> {
        Encoder again(u, t);
        if (again.run().solved) return std::nullopt;
        return again.core();
    });
    if (found) {
        s.suggestion = found->words;
        s.message += "\nA request that succeeds (checked):";
        for (const std::string& w : s.suggestion) s.message += " " + w;
    }
    return s;
}

}  // namespace aptus::solver
