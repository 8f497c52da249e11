#include "aptus/solver/solver3_trail.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <tuple>

#include "aptus/deb/version.hpp"

namespace aptus::solver::solver3 {
namespace {

// Far more than any request APT's tests or a real failure needs; past it the
// replay is not worth its time and aptus's own words are shown instead.
constexpr size_t kStepLimit = 200000;

bool same_relation(const Dependency& a, const Dependency& b) {
    if (a.kind != b.kind || a.alternatives.size() != b.alternatives.size()) return false;
    for (size_t i = 0; i < a.alternatives.size(); ++i) {
        const Target& x = a.alternatives[i];
        const Target& y = b.alternatives[i];
        if (x.name != y.name || x.arch != y.arch || x.op != y.op || x.version != y.version) return false;
    }
    return true;
}

bool critical(DepKind k) { return k != DepKind::Recommends && k != DepKind::Suggests; }

}  // namespace

Trail::Trail(const Universe& u, const Request& r) : u_(u), r_(r), states_(u.packages.size() + u.versions.size()) {}

std::optional<uint32_t> Trail::installed(uint32_t package) const {
    for (uint32_t v : u_.packages[package].versions)
        if (u_.versions[v].installed) return v;
    return std::nullopt;
}

std::optional<uint32_t> Trail::candidate(uint32_t package) const {
    for (uint32_t v : u_.packages[package].versions)
        if (u_.versions[v].candidate) return v;
    return std::nullopt;
}

bool Trail::important(DepKind k) const {
    if (k == DepKind::Recommends) return r_.install_recommends;
    if (k == DepKind::Suggests) return r_.install_suggests;
    return true;
}

// solver3's preference between two versions when it orders the choices of
// a clause (apt's CompareProviders3): true when `a` goes first. `target` is
// the package the relation names first, whose own name is preferred.
bool Trail::compare_versions(uint32_t a, uint32_t b, std::optional<uint32_t> target) const {
    const Version& va = u_.versions[a];
    const Version& vb = u_.versions[b];
    const uint32_t pa = va.package, pb = vb.package;
    if (pa == pb) {
        if (a == b) return false;
        if (r_.upgrade_all)
            if (auto cand = candidate(pa); cand && (a == *cand || b == *cand)) return a == *cand;
        if (auto inst = installed(pa); inst && (a == *inst || b == *inst)) return a == *inst;
        if (va.pin != vb.pin) return va.pin > vb.pin;
        return deb::compare_versions(va.version.view(), vb.version.view()) > 0;
    }
    // Multi-Arch: same where another architecture of its name is installed.
    auto same_installed = [&](const Version& v) {
        if (v.multi_arch != MultiArch::Same) return false;
        for (uint32_t p : u_.packages_named(u_.packages[v.package].name))
            if (installed(p)) return true;
        return false;
    };
    if (va.multi_arch == MultiArch::Same || vb.multi_arch == MultiArch::Same)
        if (bool ia = same_installed(va), ib = same_installed(vb); ia != ib) return ia;
    if (bool ia = installed(pa).has_value(), ib = installed(pb).has_value(); ia != ib) return ia;
    const uint32_t na = u_.packages[pa].name, nb = u_.packages[pb].name;
    if (na != nb && target) {
        const uint32_t nt = u_.packages[*target].name;
        if (na == nt) return true;
        if (nb == nt) return false;
    }
    if (va.essential != vb.essential) return va.essential;
    if (va.important != vb.important) return va.important;
    const std::string_view aa = u_.packages[pa].arch.view(), ab = u_.packages[pb].arch.view();
    if (aa != ab) {
        if (aa == u_.native_arch) return true;
        if (ab == u_.native_arch) return false;
        for (const std::string& arch : u_.architectures) {
            if (arch == aa) return true;
            if (arch == ab) return false;
        }
    }
    if (int c = u_.names[na].compare(u_.names[nb]); c != 0) return c < 0;
    return pa > pb;
}

// A package compares as solver3's "best" version of it, which, as its
// std::max with a "goes first" order picks, is the one ordered last.
bool Trail::compare_vars(Var a, Var b, std::optional<uint32_t> target) const {
    auto as_version = [&](Var v) {
        if (!is_package(v)) return version_of(v);
        const auto& vs = u_.packages[uint32_t(v)].versions;
        uint32_t res = vs.front();
        for (uint32_t x : vs)
            if (compare_versions(res, x, std::nullopt)) res = x;
        return res;
    };
    return compare_versions(as_version(a), as_version(b), target);
}

// apt's cache gives each version of a Multi-Arch name relations it never
// wrote: Breaks on the other architectures at another version (Multi-Arch:
// same), Conflicts with them otherwise. Their Target::arch is the other
// package's architecture; a version of a Breaks goes in Target::version.
std::vector<Dependency> Trail::implicit_deps(uint32_t version) const {
    std::vector<Dependency> out;
    const Version& v = u_.versions[version];
    if (v.arch == "all") return out;
    const Package& own = u_.packages[v.package];
    for (uint32_t q : u_.packages_named(own.name)) {
        if (q == v.package) continue;
        Dependency d;
        Target t;
        t.name = own.name;
        t.arch = u_.packages[q].arch.str();
        if (v.multi_arch == MultiArch::Same) {
            d.kind = DepKind::Breaks;
            t.version = v.version.str();
        } else {
            d.kind = DepKind::Conflicts;
        }
        d.alternatives.push_back(std::move(t));
        out.push_back(std::move(d));
    }
    return out;
}

// One or-group as a clause, its choices in solver3's order. An unversioned
// relation on a real package nothing provides is met by the package itself
// (solver3 picks its version later); anything else by the versions.
Clause Trail::translate(uint32_t from, const Dependency& d, Var reason, bool implicit) {
    const uint32_t fp = u_.versions[from].package;
    const bool from_installed = installed(fp).has_value();
    Clause c;
    c.reason = reason;
    c.optional = true;
    if (!from_installed && !important(d.kind)) return c;
    if (!critical(d.kind) && !important(d.kind)) return c;
    c.optional = !critical(d.kind);
    c.negative = is_negative(d.kind);
    c.dep = d;
    c.implicit = implicit;
    c.dep_from = from;
    const std::string from_arch = u_.packages[fp].arch.str();
    std::optional<uint32_t> target;
    if (!d.alternatives.empty()) {
        const Target& t0 = d.alternatives.front();
        target = u_.find_package(u_.names[t0.name], t0.arch.empty() || t0.arch == "any" ? from_arch
                                                    : t0.arch == "native"               ? u_.native_arch
                                                                                        : t0.arch);
    }
    std::vector<uint32_t> hits;
    for (const Target& t : d.alternatives) {
        const size_t begin = c.solutions.size();
        if (implicit) {
            if (auto q = u_.find_package(u_.names[t.name], t.arch))
                for (uint32_t w : u_.packages[*q].versions)
                    if (t.version.empty() || u_.versions[w].version != t.version) c.solutions.push_back(version_var(w));
        } else {
            // A relation every version of the package it names meets, on a
            // name nothing provides, is met by the package itself.
            bool whole_package = !c.negative && t.arch.empty() && u_.providers_of(t.name).empty();
            std::optional<uint32_t> own;
            if (whole_package) {
                own = u_.find_package(u_.names[t.name], from_arch);
                for (uint32_t q : u_.packages_named(t.name))
                    for (uint32_t w : u_.packages[q].versions)
                        if (q != own && u_.versions[w].multi_arch == MultiArch::Foreign) whole_package = false;
            }
            if (whole_package && own && t.op != deb::RelationOp::None) {
                hits.clear();
                u_.satisfiers(from, t, hits);
                for (uint32_t w : u_.packages[*own].versions)
                    if (std::find(hits.begin(), hits.end(), w) == hits.end()) whole_package = false;
            }
            if (whole_package && own && !u_.packages[*own].versions.empty()) {
                c.solutions.push_back(package_var(*own));
            } else {
                hits.clear();
                if (c.negative) {
                    u_.conflicts_with(from, t, hits);
                    // The other architectures have their own clauses, but a
                    // Multi-Arch: foreign one provides the name for every
                    // architecture, so it is a choice of this one too.
                    if (t.arch.empty())
                        std::erase_if(hits, [&](uint32_t h) {
                            const Package& hp = u_.packages[u_.versions[h].package];
                            return hp.name == t.name && hp.arch != from_arch &&
                                   u_.versions[h].multi_arch != MultiArch::Foreign;
                        });
                    // apt lists the version itself among what its Conflicts
                    // on a name it provides hits (it never acts on it).
                    for (const Provide& pv : u_.versions[from].provides)
                        if (pv.name == t.name && (t.op == deb::RelationOp::None || !pv.version.empty()) &&
                            std::find(hits.begin(), hits.end(), from) == hits.end())
                            hits.push_back(from);
                } else {
                    u_.satisfiers(from, t, hits);
                }
                for (uint32_t h : hits) c.solutions.push_back(version_var(h));
            }
        }
        std::stable_sort(c.solutions.begin() + long(begin), c.solutions.end(),
                         [&](Var a, Var b) { return compare_vars(a, b, target); });
    }
    std::stable_sort(c.solutions.begin(), c.solutions.end(), [&](Var a, Var b) {
        bool ia = installed(package_of(a)).has_value(), ib = installed(package_of(b)).has_value();
        return ia && !ib;
    });
    if (std::none_of(c.solutions.begin(), c.solutions.end(),
                     [&](Var s) { return installed(package_of(s)).has_value(); }))
        c.group = Group::SatisfyNew;
    return c;
}

int32_t Trail::register_clause(Clause c) {
    if (c.optional && !c.dep && c.group == Group::Satisfy && c.solutions.empty()) return kNoClause;
    const int32_t id = int32_t(clauses_.size());
    if (c.reason != kNoVar) states_[size_t(c.reason)].clauses.push_back(id);
    for (Var s : c.solutions) states_[size_t(s)].rclauses.push_back(id);
    clauses_.push_back(std::move(c));
    return id;
}

// solver3 learns the clauses of a variable when it is first selected, and
// of everything those reach: a package's version choice and the relations
// all its versions share, a version's own relations and "one version only".
void Trail::discover(Var start) {
    std::vector<Var> queue{start};
    for (size_t head = 0; head < queue.size(); ++head) {
        Var v = queue[head];
        if (!is_package(v) && !states_[package_of(v)].discovered) v = package_var(package_of(v));
        if (states_[size_t(v)].discovered) continue;
        states_[size_t(v)].discovered = true;
        const uint32_t p = package_of(v);
        const auto& versions = u_.packages[p].versions;
        auto all_deps = [&](uint32_t ver) {
            std::vector<std::pair<Dependency, bool>> out;
            for (const Dependency& d : u_.deps(ver)) {
                out.emplace_back(d, false);
                // apt's cache holds an unqualified Conflicts or Breaks once
                // per architecture of the name: "foo" for the depender's
                // own, "foo:i386" for each other.
                if (!is_negative(d.kind) || d.alternatives.size() != 1 || !d.alternatives[0].arch.empty()) continue;
                const std::string own_arch = u_.packages[u_.versions[ver].package].arch.str();
                for (uint32_t q : u_.packages_named(d.alternatives[0].name)) {
                    if (u_.packages[q].arch == own_arch) continue;
                    Dependency other = d;
                    other.alternatives[0].arch = u_.packages[q].arch.str();
                    out.emplace_back(std::move(other), false);
                }
            }
            for (Dependency& d : implicit_deps(ver)) out.emplace_back(std::move(d), true);
            return out;
        };
        if (is_package(v)) {
            Clause select;
            select.reason = v;
            select.group = Group::SelectVersion;
            for (uint32_t w : versions) select.solutions.push_back(version_var(w));
            std::stable_sort(select.solutions.begin(), select.solutions.end(),
                             [&](Var a, Var b) { return compare_vars(a, b, p); });
            register_clause(std::move(select));
            if (!versions.empty()) {
                const auto first = all_deps(versions.front());
                std::vector<std::vector<std::pair<Dependency, bool>>> others;
                for (size_t i = 1; i < versions.size(); ++i) others.push_back(all_deps(versions[i]));
                for (const auto& [d, implicit] : first) {
                    bool everywhere = std::all_of(others.begin(), others.end(), [&](const auto& list) {
                        return std::any_of(list.begin(), list.end(),
                                           [&](const auto& o) { return same_relation(o.first, d); });
                    });
                    if (everywhere) register_clause(translate(versions.front(), d, v, implicit));
                }
            }
        } else {
            const uint32_t ver = version_of(v);
            Clause up;
            up.reason = v;
            up.group = Group::SelectVersion;
            up.solutions = {package_var(p)};
            register_clause(std::move(up));
            for (uint32_t other : versions) {
                if (other == ver) continue;
                Clause no;
                no.reason = v;
                no.group = Group::SelectVersion;
                no.negative = true;
                no.solutions = {version_var(other)};
                register_clause(std::move(no));
            }
            for (const auto& [d, implicit] : all_deps(ver)) {
                const auto& shared = states_[p].clauses;
                if (std::any_of(shared.begin(), shared.end(), [&](int32_t c) {
                        return clauses_[size_t(c)].dep && same_relation(*clauses_[size_t(c)].dep, d);
                    }))
                    continue;
                register_clause(translate(ver, d, v, implicit));
            }
        }
        for (int32_t c : states_[size_t(v)].clauses)
            for (Var s : clauses_[size_t(c)].solutions)
                if (states_[size_t(s)].decision != Decision::MustNot || states_[size_t(s)].depth > 0) queue.push_back(s);
    }
}

// solver3's work order: required clauses with one choice left first, then
// required before optional, then by group, then fewer choices.
bool Trail::work_less(const Work& a, const Work& b) const {
    const Clause& ca = clauses_[size_t(a.clause)];
    const Clause& cb = clauses_[size_t(b.clause)];
    const bool ua = !ca.optional && a.size < 2, ub = !cb.optional && b.size < 2;
    if (ua != ub) return ub;
    if (ca.optional != cb.optional) return ca.optional;
    if (ca.group != cb.group) return ca.group > cb.group;
    if ((a.size < 2) != (b.size < 2)) return b.size < 2;
    if (a.size == 1 && b.size == 1) return ca.solutions.size() < cb.solutions.size();
    return false;
}

bool Trail::enqueue(Var v, bool decision, int32_t reason) {
    VarState& st = states_[size_t(v)];
    const Decision want = decision ? Decision::Must : Decision::MustNot;
    if (st.decision != Decision::None) {
        if (st.decision == want) return true;
        last_ = Conflict{v, st.decision == Decision::Must, st.reason, decision, reason};
        return false;
    }
    st.decision = want;
    st.depth = depth();
    st.reason = reason;
    solved_.push_back(Solved{v, std::nullopt});
    prop_queue_.push_back(v);
    return true;
}

bool Trail::assume(Var v, bool decision) {
    choices_.push_back(solved_.size());
    return enqueue(v, decision, kNoClause);
}

bool Trail::propagate() {
    while (prop_head_ < prop_queue_.size()) {
        const Var v = prop_queue_[prop_head_++];
        const Decision d = states_[size_t(v)].decision;
        if (d == Decision::Must) {
            discover(v);
            const std::vector<int32_t> own = states_[size_t(v)].clauses;
            for (int32_t c : own)
                if (!add_work(Work{c, depth()})) return false;
            const std::vector<int32_t> in = states_[size_t(v)].rclauses;
            for (int32_t c : in) {
                const Clause& cl = clauses_[size_t(c)];
                if (!cl.negative || cl.optional || cl.reason == kNoVar || itself(cl, v)) continue;
                if (!enqueue(cl.reason, false, c)) return false;
            }
        } else if (d == Decision::MustNot) {
            const std::vector<int32_t> in = states_[size_t(v)].rclauses;
            for (int32_t c : in) {
                const Clause& cl = clauses_[size_t(c)];
                if (cl.negative || cl.reason == kNoVar) continue;
                const Decision rd = states_[size_t(cl.reason)].decision;
                if (rd == Decision::MustNot) continue;
                const auto open = std::count_if(cl.solutions.begin(), cl.solutions.end(),
                                                [&](Var s) { return states_[size_t(s)].decision != Decision::MustNot; });
                if (open == 1 && rd == Decision::Must) {
                    if (cl.optional) {
                        if (!add_work(Work{c, depth()})) return false;
                    } else {
                        for (Var s : cl.solutions)
                            if (states_[size_t(s)].decision == Decision::None && !enqueue(s, true, c)) return false;
                    }
                    continue;
                }
                if (open >= 1 || cl.optional) continue;
                if (!enqueue(cl.reason, false, c)) return false;
            }
        }
    }
    return true;
}

bool Trail::itself(const Clause& c, Var s) const {
    return c.dep && c.reason != kNoVar && package_of(c.reason) == package_of(s);
}

bool Trail::add_work(Work w) {
    const Clause& cl = clauses_[size_t(w.clause)];
    if (cl.negative) {
        for (Var s : cl.solutions)
            if (!itself(cl, s) && !enqueue(s, false, w.clause)) return false;
        return true;
    }
    // A required clause with one choice is a fact at once.
    if (cl.solutions.size() == 1 && !cl.optional) return enqueue(cl.solutions.front(), true, w.clause);
    w.size = size_t(std::count_if(cl.solutions.begin(), cl.solutions.end(),
                                  [&](Var s) { return states_[size_t(s)].decision != Decision::MustNot; }));
    work_.push_back(w);
    std::push_heap(work_.begin(), work_.end(), [this](const Work& a, const Work& b) { return work_less(a, b); });
    return true;
}

void Trail::push(Var v, const Work& w) {
    choices_.push_back(solved_.size());
    solved_.push_back(Solved{v, w});
}

void Trail::undo_one() {
    Solved item = solved_.back();
    if (item.assigned != kNoVar) {
        VarState& st = states_[size_t(item.assigned)];
        st.decision = Decision::None;
        st.reason = kNoClause;
        st.depth = 0;
    }
    if (item.work) add_work(*item.work);
    solved_.pop_back();
}

// Back to before the last choice, which then becomes "not this" without a
// reason (solver3 prints such a choice as merely "not selected").
bool Trail::pop() {
    if (depth() == 0) return false;
    if (choices_.back() == solved_.size()) {
        choices_.pop_back();
        return true;
    }
    const Var choice = solved_[choices_.back()].assigned;
    for (size_t n = solved_.size() - choices_.back(); n > 0; --n) undo_one();
    choices_.pop_back();
    std::erase_if(work_, [&](const Work& w) { return w.depth > depth() || w.erased; });
    std::make_heap(work_.begin(), work_.end(), [this](const Work& a, const Work& b) { return work_less(a, b); });
    return choice == kNoVar || enqueue(choice, false, kNoClause);
}

bool Trail::solve() {
    auto less = [this](const Work& a, const Work& b) { return work_less(a, b); };
    while (true) {
        if (++steps_ > kStepLimit) {
            gave_up_ = true;
            return false;
        }
        while (!propagate())
            if (!pop()) return false;
        if (work_.empty()) return true;
        std::pop_heap(work_.begin(), work_.end(), less);
        Work item = work_.back();
        work_.pop_back();
        if (item.erased) continue;
        solved_.push_back(Solved{kNoVar, item});
        const Clause& cl = clauses_[size_t(item.clause)];
        if (std::any_of(cl.solutions.begin(), cl.solutions.end(),
                        [&](Var s) { return states_[size_t(s)].decision == Decision::Must; }))
            continue;
        bool found = false;
        for (Var s : cl.solutions) {
            if (states_[size_t(s)].decision == Decision::MustNot) continue;
            if (item.size > 1 || cl.optional) push(s, item);
            if (!enqueue(s, true, item.clause) && !pop()) return false;
            found = true;
            break;
        }
        if (!found && !cl.optional) {
            last_ = Conflict{cl.reason, true, states_[size_t(cl.reason)].reason, false, item.clause};
            if (!pop()) return false;
        }
    }
}

// What solver3 knows before it chooses anything: versions strict pinning
// rules out, holds, removals, and what must be installed or stay — the
// requests first, in their order, then the installed packages.
bool Trail::facts() {
    if (r_.strict_pinning)
        for (uint32_t v = 0; v < u_.versions.size(); ++v)
            if (!u_.versions[v].installed && !u_.versions[v].candidate && !enqueue(version_var(v), false, kNoClause))
                return false;
    // apt walks its packages in its cache's hash-table order, and the
    // order of the facts decides which of two clashing chains is told
    // first (request/apt_hash_order.hpp has the same key: apt's bucket of
    // the name, then its length, then its bytes).
    auto key = [&](uint32_t p) {
        const std::string& name = u_.names[u_.packages[p].name];
        uint32_t h = 5381;
        for (char ch : name) h = h * 33 + uint32_t(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        // Of one name, apt's list has the foreign architectures first.
        return std::tuple(h % 196613U, name.size(), std::string_view(name), u_.packages[p].arch == u_.native_arch);
    };
    std::vector<uint32_t> order(u_.packages.size());
    for (uint32_t p = 0; p < order.size(); ++p) order[p] = p;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    std::vector<Var> manual;
    for (uint32_t p : order) {
        const Package& pkg = u_.packages[p];
        if (pkg.versions.empty()) continue;
        const bool wants = std::find(r_.install.begin(), r_.install.end(), p) != r_.install.end();
        const bool drops = std::find(r_.remove.begin(), r_.remove.end(), p) != r_.remove.end();
        const auto inst = installed(p);
        const auto cand = candidate(p);
        if (inst && u_.versions[*inst].hold && !wants && !drops) {
            if (!enqueue(version_var(*inst), true, kNoClause)) return false;
        } else if (drops || (!inst && r_.forbid_new_install && !wants)) {
            if (!enqueue(package_var(p), false, kNoClause)) return false;
        } else if (wants || inst) {
            const std::optional<uint32_t> shown = inst ? inst : cand;
            const bool essential = shown && (u_.versions[*shown].essential || u_.versions[*shown].important);
            const bool automatic = inst && pkg.automatic;
            const bool optional = ((automatic && !r_.forbid_remove) || r_.remove_manual) && !essential && !wants;
            if (!optional) {
                const bool keep = !wants || !cand || cand == inst;
                if (!keep ? !enqueue(version_var(*cand), true, kNoClause) : !enqueue(package_var(p), true, kNoClause))
                    return false;
                continue;
            }
            const bool upgrade = cand != inst;
            Clause keep_it;
            keep_it.group = automatic ? (upgrade ? Group::UpgradeAuto : Group::KeepAuto)
                                      : (upgrade ? Group::UpgradeManual : Group::InstallManual);
            keep_it.optional = true;
            keep_it.solutions = {package_var(p)};
            Clause some_version = keep_it;
            some_version.solutions.clear();
            for (uint32_t w : pkg.versions) some_version.solutions.push_back(version_var(w));
            std::stable_sort(some_version.solutions.begin(), some_version.solutions.end(),
                             [&](Var a, Var b) { return compare_vars(a, b, p); });
            if (!add_work(Work{register_clause(std::move(keep_it)), depth()})) return false;
            if (!add_work(Work{register_clause(std::move(some_version)), depth()})) return false;
            if (pkg.versions.size() > 1) discover(package_var(p));
            if (!automatic) manual.push_back(package_var(p));
        }
    }
    if (!propagate()) return false;
    for (Var m : manual)
        if (!assume(m, true) || !propagate())
            if (!pop()) return false;
    return true;
}

std::optional<Conflict> Trail::run() {
    if (!facts()) return last_;
    if (!solve()) return gave_up_ ? std::nullopt : last_;
    return std::nullopt;
}

}  // namespace aptus::solver::solver3
