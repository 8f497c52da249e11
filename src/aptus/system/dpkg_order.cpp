#include "aptus/system/dpkg_order.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace aptus::system {

using solver::DepKind;
using solver::Universe;

std::string_view dpkg_action_name(DpkgAction a) {
    switch (a) {
        case DpkgAction::Unpack: return "unpack";
        case DpkgAction::Configure: return "configure";
        case DpkgAction::Remove: return "remove";
        case DpkgAction::Purge: return "purge";
    }
    return "";
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

bool is_positive_hard(DepKind k) { return k == DepKind::Depends || k == DepKind::PreDepends; }

// dpkg's view of one package at one moment.
enum class Status : uint8_t { Absent, Unpacked, Configured };

struct Presence {
    uint32_t version = kNone;
    Status status = Status::Absent;
};

// What both the orderer and the checker need to know about the plan: which
// version each package gets or loses, the dependency cycles among the
// installs, and reverse indices limited to the versions that can be on disk
// during the run (installed ones and the plan's), so a universe of every
// available version costs no more than the plan.
struct PlanFacts {
    const Universe& u;
    std::unordered_map<uint32_t, uint32_t> install_of;  // package -> version that comes
    struct Removal {
        uint32_t version;
        bool purge;
    };
    std::unordered_map<uint32_t, Removal> removal_of;  // package -> installed version that goes
    std::vector<uint32_t> installs;                    // the plan's installs, deduplicated
    std::vector<uint32_t> removals;                    // removals dpkg sees (not replaced by an install)
    std::unordered_map<uint32_t, Presence> initial;    // package -> installed version
    std::unordered_map<uint32_t, uint32_t> group_of;   // install version -> cycle group
    std::vector<std::vector<uint32_t>> groups;
    // Installed or planned versions whose Conflicts/Breaks hit a planned install.
    struct Hit {
        uint32_t by;
        DepKind kind;
    };
    std::unordered_map<uint32_t, std::vector<Hit>> hit_by;
    // Installed or planned versions with a Depends/Pre-Depends group a removal
    // satisfies: removal version -> (depender, index of the group in deps()).
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> needed_by;
    // Installed versions of upgraded packages with a Depends/Pre-Depends
    // group an installed version of another upgraded package satisfies:
    // that old version -> (dependant, index of the group in deps()).
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> old_dependants;
    // Packages apt flags Immediate (configured right after their unpack).
    std::unordered_set<uint32_t> immediate;

    PlanFacts(const Universe& universe, const DpkgWork& work) : u(universe) {
        for (uint32_t v = 0; v < u.versions.size(); ++v)
            if (u.versions[v].installed) initial[u.versions[v].package] = {v, Status::Configured};
        for (uint32_t v : work.install)
            if (install_of.emplace(u.versions[v].package, v).second) installs.push_back(v);
        auto add_removal = [&](uint32_t v, bool purge) {
            uint32_t p = u.versions[v].package;
            if (install_of.count(p)) return;  // dpkg replaces it when the new version is unpacked
            if (removal_of.emplace(p, Removal{v, purge}).second) removals.push_back(v);
        };
        for (uint32_t v : work.purge) add_removal(v, true);
        for (uint32_t v : work.remove) add_removal(v, false);

        std::vector<uint32_t> relevant = installs;
        for (const auto& [p, pr] : initial) relevant.push_back(pr.version);
        std::sort(relevant.begin(), relevant.end());
        relevant.erase(std::unique(relevant.begin(), relevant.end()), relevant.end());
        std::unordered_set<uint32_t> removal_set(removals.begin(), removals.end());
        std::vector<uint32_t> out;
        for (uint32_t w : relevant) {
            const auto& deps = u.deps(w);
            for (uint32_t di = 0; di < deps.size(); ++di) {
                const solver::Dependency& d = deps[di];
                if (solver::is_negative(d.kind)) {
                    for (const solver::Target& t : d.alternatives) {
                        out.clear();
                        u.conflicts_with(w, t, out);
                        for (uint32_t h : out)
                            if (is_planned(h)) hit_by[h].push_back({w, d.kind});
                    }
                } else if (is_positive_hard(d.kind)) {
                    for (uint32_t s : satisfiers(w, d)) {
                        if (removal_set.count(s)) needed_by[s].push_back({w, di});
                        if (s != w && is_upgraded_old(w) && is_upgraded_old(s)) old_dependants[s].push_back({w, di});
                    }
                }
            }
        }
        for (auto& [h, list] : hit_by) dedupe(list);
        find_cycles();
        find_immediate();
    }

    // An installed version whose package the plan installs another version of.
    bool is_upgraded_old(uint32_t v) const {
        uint32_t p = u.versions[v].package;
        auto i = initial.find(p);
        auto n = install_of.find(p);
        return i != initial.end() && i->second.version == v && n != install_of.end() && n->second != v;
    }

    // apt's Essential flag: Essential: yes, and the native "apt" package,
    // which apt's cache always flags essential (its ForceEssential list).
    bool apt_essential(uint32_t v) const {
        const solver::Version& ver = u.versions[v];
        const solver::Package& p = u.packages[ver.package];
        return ver.essential || (u.names[p.name] == "apt" && p.arch == u.native_arch);
    }

    bool essential_package(uint32_t p) const {
        auto i = initial.find(p);
        auto n = install_of.find(p);
        return (i != initial.end() && apt_essential(i->second.version)) ||
               (n != install_of.end() && apt_essential(n->second));
    }

    // The package a relation names (apt's target package: the name itself,
    // never its providers), in the architecture the relation means.
    std::optional<uint32_t> target_package(uint32_t from, const solver::Target& t) const {
        std::string_view arch = t.arch;
        if (arch.empty() || arch == "any") arch = u.packages[u.versions[from].package].arch;
        else if (arch == "native") arch = u.native_arch;
        return u.find_package(u.names[t.name], arch);
    }

    // apt configures essential packages right after their unpack, and with
    // them, transitively, every package their installed or coming versions
    // name in Depends/Pre-Depends (apt's Immediate flag; protected packages
    // are not flagged). Installed essential packages the plan leaves alone
    // count too: what they depend on must keep working.
    void find_immediate() {
        std::vector<uint32_t> queue;
        auto flag = [&](uint32_t p) {
            if (immediate.insert(p).second) queue.push_back(p);
        };
        for (const auto& [p, pr] : initial)
            if (essential_package(p)) flag(p);
        for (const auto& [p, v] : install_of)
            if (essential_package(p)) flag(p);
        while (!queue.empty()) {
            uint32_t p = queue.back();
            queue.pop_back();
            for (uint32_t w : versions_on_disk(p))
                for (const solver::Dependency& d : u.deps(w)) {
                    if (!is_positive_hard(d.kind)) continue;
                    for (const solver::Target& t : d.alternatives)
                        if (auto q = target_package(w, t)) flag(*q);
                }
        }
    }

    // The installed and the planned version of package p, where there are.
    std::vector<uint32_t> versions_on_disk(uint32_t p) const {
        std::vector<uint32_t> out;
        if (auto i = initial.find(p); i != initial.end()) out.push_back(i->second.version);
        if (auto n = install_of.find(p); n != install_of.end() && (out.empty() || out[0] != n->second))
            out.push_back(n->second);
        return out;
    }

    // Whether x's Breaks hit the version the plan brings for y's package:
    // then apt removes x before that upgrade (relying on dpkg's
    // --force-depends, which removals get), though y, still there, needs x.
    bool breaks_upgrade_of(uint32_t x, uint32_t y) const {
        auto n = install_of.find(u.versions[y].package);
        if (n == install_of.end() || n->second == y) return false;
        auto h = hit_by.find(n->second);
        if (h == hit_by.end()) return false;
        for (const Hit& hit : h->second)
            if (hit.by == x && hit.kind == DepKind::Breaks) return true;
        return false;
    }

    bool is_planned(uint32_t v) const {
        auto it = install_of.find(u.versions[v].package);
        return it != install_of.end() && it->second == v;
    }

    std::vector<uint32_t> satisfiers(uint32_t from, const solver::Dependency& d) const {
        std::vector<uint32_t> all;
        for (const solver::Target& t : d.alternatives) u.satisfiers(from, t, all);
        return all;
    }

    static void dedupe(std::vector<Hit>& list) {
        std::sort(list.begin(), list.end(),
                  [](const Hit& a, const Hit& b) { return a.by != b.by ? a.by < b.by : a.kind < b.kind; });
        list.erase(std::unique(list.begin(), list.end(),
                               [](const Hit& a, const Hit& b) { return a.by == b.by && a.kind == b.kind; }),
                   list.end());
    }

    // Planned Multi-Arch: same versions of the same name on other
    // architectures: dpkg configures such siblings only at one version, so
    // they are ordered as a cycle.
    std::vector<uint32_t> same_siblings(uint32_t v) const {
        std::vector<uint32_t> out;
        const solver::Version& ver = u.versions[v];
        if (ver.multi_arch != solver::MultiArch::Same) return out;
        for (uint32_t p : u.packages_named(u.packages[ver.package].name)) {
            if (p == ver.package) continue;
            auto it = install_of.find(p);
            if (it != install_of.end() && u.versions[it->second].multi_arch == solver::MultiArch::Same)
                out.push_back(it->second);
        }
        return out;
    }

    // Tarjan's strongly connected components over "v Depends/Pre-Depends on a
    // planned install" (every alternative counts: any of them may be what
    // dpkg finds), iteratively so long chains cannot exhaust the stack.
    void find_cycles() {
        std::unordered_map<uint32_t, std::vector<uint32_t>> edges;
        for (uint32_t v : installs) {
            std::vector<uint32_t>& e = edges[v];
            for (const solver::Dependency& d : u.deps(v)) {
                if (!is_positive_hard(d.kind)) continue;
                for (uint32_t s : satisfiers(v, d))
                    if (s != v && is_planned(s)) e.push_back(s);
            }
            for (uint32_t s : same_siblings(v)) e.push_back(s);
            std::sort(e.begin(), e.end());
            e.erase(std::unique(e.begin(), e.end()), e.end());
        }
        std::unordered_map<uint32_t, uint32_t> index, low;
        std::unordered_set<uint32_t> on_stack;
        std::vector<uint32_t> stack;
        uint32_t counter = 0;
        struct Frame {
            uint32_t v;
            size_t next;
        };
        for (uint32_t root : installs) {
            if (index.count(root)) continue;
            std::vector<Frame> work{{root, 0}};
            index[root] = low[root] = counter++;
            stack.push_back(root);
            on_stack.insert(root);
            while (!work.empty()) {
                uint32_t v = work.back().v;
                const std::vector<uint32_t>& e = edges[v];
                if (work.back().next < e.size()) {
                    uint32_t w = e[work.back().next++];
                    if (!index.count(w)) {
                        index[w] = low[w] = counter++;
                        stack.push_back(w);
                        on_stack.insert(w);
                        work.push_back({w, 0});
                    } else if (on_stack.count(w)) {
                        low[v] = std::min(low[v], index[w]);
                    }
                    continue;
                }
                work.pop_back();
                if (!work.empty()) low[work.back().v] = std::min(low[work.back().v], low[v]);
                if (low[v] != index[v]) continue;
                std::vector<uint32_t> group;
                uint32_t w;
                do {
                    w = stack.back();
                    stack.pop_back();
                    on_stack.erase(w);
                    group.push_back(w);
                } while (w != v);
                if (group.size() > 1) {
                    for (uint32_t m : group) group_of[m] = uint32_t(groups.size());
                    groups.push_back(std::move(group));
                }
            }
        }
    }

    bool same_group(uint32_t a, uint32_t b) const {
        auto ia = group_of.find(a), ib = group_of.find(b);
        return ia != group_of.end() && ib != group_of.end() && ia->second == ib->second;
    }

    bool essential(uint32_t v) const { return u.versions[v].essential || u.versions[v].important; }

    // Sorted by name, then architecture, so the order does not depend on
    // the order the solver listed its answer in.
    void sort_by_name(std::vector<uint32_t>& vs) const {
        std::sort(vs.begin(), vs.end(), [&](uint32_t a, uint32_t b) {
            const std::string &na = u.name_of_version(a), &nb = u.name_of_version(b);
            if (na != nb) return na < nb;
            return u.packages[u.versions[a].package].arch < u.packages[u.versions[b].package].arch;
        });
    }
};

// The dpkg state during a replay: what each package has on disk.
struct DiskState {
    const PlanFacts& f;
    std::unordered_map<uint32_t, Presence> now;

    explicit DiskState(const PlanFacts& facts) : f(facts), now(facts.initial) {}

    Presence at(uint32_t package) const {
        auto it = now.find(package);
        return it == now.end() ? Presence{} : it->second;
    }
    bool present(uint32_t v) const {
        Presence p = at(f.u.versions[v].package);
        return p.version == v && p.status != Status::Absent;
    }
    // Usable by a dependant: configured by this run, or installed and not touched yet.
    bool usable(uint32_t v) const {
        Presence p = at(f.u.versions[v].package);
        return p.version == v && p.status == Status::Configured;
    }
    bool met(uint32_t from, const solver::Dependency& d, uint32_t ignoring = kNone) const {
        for (uint32_t s : f.satisfiers(from, d))
            if (s != ignoring && usable(s)) return true;
        return false;
    }

    // Present versions that cannot be on disk with `v`: Conflicts either way,
    // `v`'s Breaks against them (dpkg deconfigures those), and another
    // architecture of the same name unless both are Multi-Arch: same. Breaks
    // from them against `v` are breakers(): dpkg checks those only when `v`
    // is configured (unpack.c looks at reverse Conflicts alone).
    std::vector<PlanFacts::Hit> clashes(uint32_t v) const {
        std::vector<PlanFacts::Hit> out;
        std::vector<uint32_t> hits;
        for (const solver::Dependency& d : f.u.deps(v)) {
            if (!solver::is_negative(d.kind)) continue;
            for (const solver::Target& t : d.alternatives) {
                hits.clear();
                f.u.conflicts_with(v, t, hits);
                for (uint32_t h : hits)
                    if (present(h)) out.push_back({h, d.kind == DepKind::Breaks ? DepKind::Breaks : DepKind::Conflicts});
            }
        }
        auto it = f.hit_by.find(v);
        if (it != f.hit_by.end())
            for (const PlanFacts::Hit& h : it->second)
                if (h.kind != DepKind::Breaks && present(h.by)) out.push_back({h.by, DepKind::Conflicts});
        const solver::Version& ver = f.u.versions[v];
        for (uint32_t p : f.u.packages_named(f.u.packages[ver.package].name)) {
            if (p == ver.package) continue;
            Presence pr = at(p);
            if (pr.status == Status::Absent) continue;
            bool both_same = ver.multi_arch == solver::MultiArch::Same &&
                             f.u.versions[pr.version].multi_arch == solver::MultiArch::Same;
            if (!both_same) out.push_back({pr.version, DepKind::Conflicts});
        }
        PlanFacts::dedupe(out);
        return out;
    }

    // Present versions of other packages whose Breaks hit `v`: dpkg does not
    // configure `v` while one is on disk.
    std::vector<uint32_t> breakers(uint32_t v) const {
        std::vector<uint32_t> out;
        auto it = f.hit_by.find(v);
        if (it == f.hit_by.end()) return out;
        for (const PlanFacts::Hit& h : it->second)
            if (h.kind == DepKind::Breaks && f.u.versions[h.by].package != f.u.versions[v].package && present(h.by))
                out.push_back(h.by);
        return out;
    }

    // Configured packages that would be left without a usable satisfier of
    // a Depends/Pre-Depends group if `x` went now; not an old version whose
    // coming version `x` Breaks (see PlanFacts::breaks_upgrade_of).
    std::vector<uint32_t> still_needing(uint32_t x) const {
        std::vector<uint32_t> out;
        auto it = f.needed_by.find(x);
        if (it == f.needed_by.end()) return out;
        for (auto [y, di] : it->second) {
            if (y == x || !usable(y) || f.breaks_upgrade_of(x, y)) continue;
            if (!met(y, f.u.deps(y)[di], x)) out.push_back(y);
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }
};

// Walks the plan as apt's package manager does: every install and removal
// in apt's order of scores (essential installs, then removals, then
// installs with Pre-Depends, then those apt configures immediately, then
// the rest, each by name); each install unpacked with what it needs first,
// configured at once when apt would (Immediate packages, Pre-Depends
// targets and what those depend on), and everything else configured at the
// end in the order it was unpacked, in one dpkg call, as apt's
// --configure --pending does. Every rule that dpkg enforces is a
// precondition; a step whose precondition cannot be met yet (something it
// needs is itself still being arranged higher up the walk) is abandoned and
// retried later, so a preference (unpack dependencies first, replace what
// an install Breaks first) never pushes a step out before its dpkg
// preconditions hold. Only what no order can satisfy is forced out in a
// last pass.
class Orderer {
public:
    Orderer(const Universe& u, const DpkgWork& work) : f_(u, work), disk_(f_) {}

    std::vector<DpkgStep> run() {
        std::vector<uint32_t> ordinary, essential;
        for (uint32_t x : f_.removals) (f_.essential(x) ? essential : ordinary).push_back(x);
        f_.sort_by_name(essential);
        std::vector<Item> walk = walk_order(ordinary);
        // Passes until one emits nothing: an abandoned step may succeed once
        // a later one in the same pass has happened.
        for (size_t before = SIZE_MAX; before != steps_.size();) {
            before = steps_.size();
            for (const Item& it : walk) {
                if (!it.removal) {
                    if (stage(it.version) == Stage::Waiting) unpack(it.version);
                    continue;
                }
                std::unordered_set<uint32_t> seen;
                if (disk_.present(it.version) && free_to_remove(it.version, seen)) remove(it.version);
            }
        }
        finish(walk, essential);
        // What no order satisfies still gets its steps; the checker names
        // the rule each one breaks.
        force_ = true;
        for (const Item& it : walk)
            if (!it.removal && stage(it.version) == Stage::Waiting) unpack(it.version);
        finish(walk, essential);
        return std::move(steps_);
    }

private:
    enum class Stage : uint8_t { Waiting, Unpacking, Unpacked, Configuring, Configured };

    struct Item {
        uint32_t version;
        bool removal;
    };

    PlanFacts f_;
    DiskState disk_;
    bool force_ = false;
    std::unordered_map<uint32_t, Stage> stage_;
    std::unordered_set<uint32_t> removing_;
    std::vector<uint32_t> unpacked_order_;
    std::unordered_map<uint32_t, size_t> unpack_index_;
    std::vector<DpkgStep> steps_;

    Stage stage(uint32_t v) const {
        auto it = stage_.find(v);
        return it == stage_.end() ? Stage::Waiting : it->second;
    }

    // The configure of everything unpacked and not configured yet; then
    // what upgraded packages needed until their new versions were
    // configured (a library transition's old half) goes, an essential
    // package last.
    void finish(const std::vector<Item>& walk, const std::vector<uint32_t>& essential) {
        for (size_t before = SIZE_MAX; before != steps_.size();) {
            before = steps_.size();
            configure_pending();
            for (const Item& it : walk)
                if (it.removal) remove(it.version);
        }
        for (uint32_t x : essential) remove(x);
    }

    // apt's score of a package in its install order (pkgOrderList::Score
    // with the default weights; the Priority field's small share is left
    // out, aptus's universe does not keep it): higher goes first.
    int score(const Item& it) const {
        if (it.removal) return 100;
        uint32_t p = f_.u.versions[it.version].package;
        int s = 0;
        if (f_.essential_package(p)) s += 200;
        if (immediate(it.version)) s += 10;
        for (const solver::Dependency& d : f_.u.deps(it.version))
            if (d.kind == DepKind::PreDepends) {
                s += 50;
                break;
            }
        return s;
    }

    // Installs and ordinary removals by score, then by name.
    std::vector<Item> walk_order(const std::vector<uint32_t>& removals) const {
        std::vector<Item> items;
        for (uint32_t v : f_.installs) items.push_back({v, false});
        for (uint32_t x : removals) items.push_back({x, true});
        std::vector<int> scores;
        for (const Item& it : items) scores.push_back(score(it));
        std::vector<size_t> idx(items.size());
        for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
        const Universe& u = f_.u;
        std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
            if (scores[a] != scores[b]) return scores[a] > scores[b];
            uint32_t va = items[a].version, vb = items[b].version;
            const std::string &na = u.name_of_version(va), &nb = u.name_of_version(vb);
            if (na != nb) return na < nb;
            return u.packages[u.versions[va].package].arch < u.packages[u.versions[vb].package].arch;
        });
        std::vector<Item> out;
        for (size_t i : idx) out.push_back(items[i]);
        return out;
    }

    bool immediate(uint32_t v) const { return f_.immediate.count(f_.u.versions[v].package) != 0; }

    // Whether `x` can go now: nothing configured needs it, or only packages
    // that go too and can go now (they are removed first).
    bool free_to_remove(uint32_t x, std::unordered_set<uint32_t>& seen) const {
        if (!seen.insert(x).second) return true;
        for (uint32_t y : disk_.still_needing(x)) {
            auto r = f_.removal_of.find(f_.u.versions[y].package);
            if (r == f_.removal_of.end() || r->second.version != y || !free_to_remove(y, seen)) return false;
        }
        return true;
    }

    // The planned version that should satisfy `d` when nothing usable does.
    uint32_t planned_satisfier(uint32_t from, const solver::Dependency& d) const {
        std::vector<uint32_t> sats = f_.satisfiers(from, d);
        for (uint32_t s : sats)
            if (s != from && f_.is_planned(s) && stage(s) >= Stage::Unpacked) return s;
        for (uint32_t s : sats)
            if (s != from && f_.is_planned(s)) return s;
        return kNone;
    }

    bool group_present(uint32_t m, const solver::Dependency& d) const {
        for (uint32_t sat : f_.satisfiers(m, d))
            if (f_.same_group(m, sat) && disk_.present(sat)) return true;
        return false;
    }

    void emit(DpkgAction a, uint32_t v) { steps_.push_back({a, v}); }

    // Makes way for `v`: what conflicts with it is removed, or replaced by
    // its own new version first. What `v` Breaks is replaced first where it
    // can be; otherwise dpkg's --auto-deconfigure (apt passes it) unconfigures
    // it, and a package that goes is removed later, once what needed it has
    // moved on (a t64 library Breaks its old name, which old versions of
    // packages being upgraded still depend on until they are unpacked).
    // False when a conflict that an earlier step could lift is still there.
    bool clear_way(uint32_t v) {
        bool ok = true;
        for (const PlanFacts::Hit& h : disk_.clashes(v)) {
            uint32_t p = f_.u.versions[h.by].package;
            if (!disk_.present(h.by)) continue;  // an earlier step already dealt with it
            bool hard = h.kind == DepKind::Conflicts;
            auto r = f_.removal_of.find(p);
            if (r != f_.removal_of.end()) {
                if (hard && !remove(r->second.version)) ok = false;
                continue;
            }
            auto i = f_.install_of.find(p);
            if (i == f_.install_of.end() || i->second == h.by) continue;
            if (hard && conflicts_loop(v, i->second)) {
                // Each new version conflicts with the other's old one, so
                // neither can be unpacked first: apt removes the old one for
                // now, and its new version comes later as a fresh install.
                if (!remove_for_now(h.by)) ok = false;
                continue;
            }
            if (!unpack(i->second) && hard) ok = false;
        }
        return ok;
    }

    // Whether `w`, the new version of a package whose old one `v` conflicts
    // with, is being unpacked up the walk and conflicts with the version of
    // `v`'s package still on disk: a loop no order of unpacks breaks.
    bool conflicts_loop(uint32_t v, uint32_t w) {
        if (stage(w) != Stage::Unpacking) return false;
        const Presence old = disk_.at(f_.u.versions[v].package);
        if (old.status == Status::Absent || old.version == v) return false;
        for (const PlanFacts::Hit& h : disk_.clashes(w))
            if (h.by == old.version && h.kind == DepKind::Conflicts) return true;
        return false;
    }

    // A temporary removal (see clear_way): never of an essential package
    // (dpkg refuses), nor of one a configured package still needs.
    bool remove_for_now(uint32_t x) {
        if (!disk_.present(x)) return true;
        if (f_.essential(x) || (!force_ && !disk_.still_needing(x).empty())) return false;
        emit(DpkgAction::Remove, x);
        disk_.now[f_.u.versions[x].package] = {};
        return true;
    }

    // apt unpacks first the new versions of upgraded packages whose
    // installed versions `v` would leave broken: one that depends on the
    // version `v` replaces, or one that Breaks `v` (only a preference: dpkg
    // checks neither at the unpack).
    void unpack_old_dependants_first(uint32_t v) {
        auto old = f_.initial.find(f_.u.versions[v].package);
        if (old != f_.initial.end() && old->second.version != v) {
            auto it = f_.old_dependants.find(old->second.version);
            if (it != f_.old_dependants.end())
                for (auto [w, di] : it->second) {
                    std::vector<uint32_t> sats = f_.satisfiers(w, f_.u.deps(w)[di]);
                    if (std::find(sats.begin(), sats.end(), v) == sats.end())
                        unpack(f_.install_of.at(f_.u.versions[w].package));
                }
        }
        for (uint32_t b : disk_.breakers(v))
            if (f_.is_upgraded_old(b)) unpack(f_.install_of.at(f_.u.versions[b].package));
    }

    bool unpack(uint32_t v) {
        Stage st = stage(v);
        if (st >= Stage::Unpacked) return true;
        if (st == Stage::Unpacking) return false;
        stage_[v] = Stage::Unpacking;
        auto abandon = [&] {
            stage_[v] = Stage::Waiting;
            return false;
        };
        if (!clear_way(v) && !force_) return abandon();
        unpack_old_dependants_first(v);
        bool now = immediate(v);
        // Pre-Depends first, then Depends (deps() keeps the fields' order).
        for (DepKind kind : {DepKind::PreDepends, DepKind::Depends})
            for (const solver::Dependency& d : f_.u.deps(v)) {
                if (d.kind != kind || disk_.met(v, d)) continue;
                uint32_t s = planned_satisfier(v, d);
                if (s == kNone) continue;
                if (kind == DepKind::PreDepends) {
                    // dpkg unpacks nothing whose Pre-Depends are not configured.
                    if (!configure(s) && !force_) return abandon();
                } else if (f_.same_group(v, s)) {
                    // A cycle is entered here: apt unpacks `v` first and the
                    // rest when it configures `v`, or as the walk reaches them.
                } else if (now) {
                    // An immediate package's Depends configured first, so it
                    // works once unpacked; if that cannot be, it is simply
                    // configured later.
                    configure(s);
                } else {
                    // Only a preference: apt unpacks dependencies first.
                    unpack(s);
                }
            }
        emit(DpkgAction::Unpack, v);
        // dpkg --auto-deconfigure: a configured package v Breaks is unconfigured now.
        for (const PlanFacts::Hit& h : disk_.clashes(v))
            if (h.kind == DepKind::Breaks) disk_.now[f_.u.versions[h.by].package].status = Status::Unpacked;
        disk_.now[f_.u.versions[v].package] = {v, Status::Unpacked};
        stage_[v] = Stage::Unpacked;
        unpack_index_[v] = unpacked_order_.size();
        unpacked_order_.push_back(v);
        if (now) configure(v);
        return true;
    }

    // dpkg configures nothing while a package that Breaks it is on disk:
    // one that goes is removed, one that is upgraded is replaced first.
    bool lift_breakers(uint32_t v) {
        bool ok = true;
        for (uint32_t b : disk_.breakers(v)) {
            uint32_t p = f_.u.versions[b].package;
            auto r = f_.removal_of.find(p);
            auto i = f_.install_of.find(p);
            if (r != f_.removal_of.end()) ok = remove(r->second.version) && ok;
            else if (i != f_.install_of.end() && i->second != b) ok = unpack(i->second) && ok;
            else ok = false;
        }
        return ok;
    }

    // Configures `v` now, as apt's immediate configuration does: its cycle
    // unpacked whole, what it depends on configured first.
    bool configure(uint32_t v) {
        Stage s = stage(v);
        if (s == Stage::Configured) return true;
        if (s == Stage::Configuring || s == Stage::Unpacking) return false;
        if (s == Stage::Waiting) {
            if (!unpack(v)) return false;
            if (stage(v) == Stage::Configured) return true;
        }
        std::vector<uint32_t> members{v};
        auto g = f_.group_of.find(v);
        if (g != f_.group_of.end()) members = f_.groups[g->second];
        // `v` is claimed first: a member configured immediately on its
        // unpack below sees `v` as the loop it is (apt's Loop flag) and
        // configures itself alone, before `v`.
        stage_[v] = Stage::Configuring;
        for (uint32_t m : members)
            if (!unpack(m) && !force_) {
                stage_[v] = Stage::Unpacked;
                return false;
            }
        std::vector<uint32_t> ready{v};
        for (uint32_t m : members)
            if (m != v && stage(m) == Stage::Unpacked) {
                stage_[m] = Stage::Configuring;
                ready.push_back(m);
            }
        auto give_up = [&] {
            for (uint32_t r : ready) stage_[r] = Stage::Unpacked;
            return false;
        };
        for (uint32_t m : ready) {
            if (!lift_breakers(m) && !force_) return give_up();
            for (const solver::Dependency& d : f_.u.deps(m)) {
                if (!is_positive_hard(d.kind) || disk_.met(m, d) || group_present(m, d)) continue;
                uint32_t sat = planned_satisfier(m, d);
                if (sat == kNone || f_.same_group(m, sat)) continue;
                if (!configure(sat) && !force_) return give_up();
            }
        }
        // apt configures a cycle depth first from `v`: the members it
        // reached last first, `v` itself last.
        std::sort(ready.begin(), ready.end(), [&](uint32_t a, uint32_t b) {
            if ((a == v) != (b == v)) return b == v;
            return unpack_index_.at(a) > unpack_index_.at(b);
        });
        for (uint32_t m : ready) {
            emit(DpkgAction::Configure, m);
            disk_.now[f_.u.versions[m].package] = {m, Status::Configured};
            stage_[m] = Stage::Configured;
        }
        return stage(v) == Stage::Configured;
    }

    // What is unpacked and not configured yet, configured in one dpkg call
    // in the order it was unpacked (apt leaves these to dpkg's
    // --configure --pending; dpkg orders the dependencies within one call).
    // A package that cannot be configured yet (a Breaks from a package
    // still there, a dependency not unpacked) waits, and with it what
    // depends on it.
    void configure_pending() {
        std::vector<uint32_t> batch;
        for (uint32_t v : unpacked_order_)
            if (stage(v) == Stage::Unpacked) lift_breakers(v);
        for (uint32_t v : unpacked_order_)
            if (stage(v) == Stage::Unpacked) batch.push_back(v);
        if (!force_) drop_unready(batch);
        for (uint32_t m : batch) {
            emit(DpkgAction::Configure, m);
            disk_.now[f_.u.versions[m].package] = {m, Status::Configured};
            stage_[m] = Stage::Configured;
        }
    }

    void drop_unready(std::vector<uint32_t>& batch) const {
        for (bool dropped = true; dropped;) {
            dropped = false;
            std::unordered_set<uint32_t> in(batch.begin(), batch.end());
            auto ready = [&](uint32_t m) {
                if (!disk_.breakers(m).empty()) return false;
                for (const solver::Dependency& d : f_.u.deps(m)) {
                    if (!is_positive_hard(d.kind) || disk_.met(m, d)) continue;
                    bool found = false;
                    for (uint32_t s : f_.satisfiers(m, d))
                        if (in.count(s) && disk_.present(s)) found = true;
                    if (!found) return false;
                }
                return true;
            };
            size_t n = batch.size();
            batch.erase(std::remove_if(batch.begin(), batch.end(), [&](uint32_t m) { return !ready(m); }), batch.end());
            dropped = batch.size() != n;
        }
    }

    bool remove(uint32_t x) {
        if (!disk_.present(x)) return true;
        if (!removing_.insert(x).second) return false;
        // dpkg refuses to remove what a configured package needs: those
        // dependants go first, or their new versions take their place.
        for (uint32_t y : disk_.still_needing(x)) {
            uint32_t p = f_.u.versions[y].package;
            auto r = f_.removal_of.find(p);
            if (r != f_.removal_of.end() && r->second.version == y) {
                remove(y);
                continue;
            }
            auto i = f_.install_of.find(p);
            if (i != f_.install_of.end() && i->second != y) {
                unpack(i->second);
                continue;
            }
            // y stays: something planned takes x's place, configured first,
            // unless it clashes with x (then x has to go first anyway).
            for (const solver::Dependency& d : f_.u.deps(y)) {
                if (!is_positive_hard(d.kind) || disk_.met(y, d, x)) continue;
                uint32_t s = planned_satisfier(y, d);
                if (s == kNone) continue;
                bool clash = false;
                for (const PlanFacts::Hit& h : disk_.clashes(s))
                    if (h.by == x) clash = true;
                if (!clash) configure(s);
            }
        }
        removing_.erase(x);
        if (!disk_.present(x)) return true;
        if (!force_ && !disk_.still_needing(x).empty()) return false;
        emit(f_.removal_of.at(f_.u.versions[x].package).purge ? DpkgAction::Purge : DpkgAction::Remove, x);
        disk_.now[f_.u.versions[x].package] = {};
        return true;
    }
};

}  // namespace

std::vector<DpkgStep> order_dpkg_work(const Universe& universe, const DpkgWork& work) {
    return Orderer(universe, work).run();
}

std::vector<std::string> validate_dpkg_order(const Universe& u, const DpkgWork& work,
                                             const std::vector<DpkgStep>& steps) {
    PlanFacts f(u, work);
    DiskState disk(f);
    std::vector<std::string> problems;
    std::unordered_map<uint32_t, int> unpacked, configured, removed;
    // The versions configured by the dpkg call step i is part of: a run of
    // consecutive Configure steps is one call (the driver joins them).
    std::unordered_set<uint32_t> call;
    size_t call_end = 0;
    auto configure_call = [&](size_t i) -> const std::unordered_set<uint32_t>& {
        if (i >= call_end) {
            call.clear();
            for (call_end = i; call_end < steps.size() && steps[call_end].action == DpkgAction::Configure; ++call_end)
                call.insert(steps[call_end].version);
        }
        return call;
    };
    // Whether a planned install of another package and `v` conflict (either
    // way): only then may the old version of an upgrade go for a while.
    // (What the orderer asks too: the replay's clashes(), while `v` is on disk.)
    auto conflicts_an_install = [&](uint32_t v) {
        const uint32_t p = u.versions[v].package;
        for (uint32_t w : f.installs) {
            if (u.versions[w].package == p) continue;
            for (const PlanFacts::Hit& h : disk.clashes(w))
                if (h.by == v && h.kind == DepKind::Conflicts) return true;
        }
        return false;
    };
    auto step_text = [&](size_t i) {
        return "step " + std::to_string(i + 1) + " (" + std::string(dpkg_action_name(steps[i].action)) + " " +
               u.describe(steps[i].version) + "): ";
    };
    for (size_t i = 0; i < steps.size(); ++i) {
        const DpkgStep& st = steps[i];
        uint32_t v = st.version;
        if (v >= u.versions.size()) {
            problems.push_back("step " + std::to_string(i + 1) + ": no such version");
            continue;
        }
        uint32_t p = u.versions[v].package;
        switch (st.action) {
            case DpkgAction::Unpack: {
                if (!f.is_planned(v)) problems.push_back(step_text(i) + "not an install of the plan");
                if (unpacked[v]++) problems.push_back(step_text(i) + "unpacked twice");
                for (const solver::Dependency& d : u.deps(v))
                    if (d.kind == DepKind::PreDepends && !disk.met(v, d))
                        problems.push_back(step_text(i) + "Pre-Depends " + u.dependency_text(d) + " not configured");
                for (const PlanFacts::Hit& h : disk.clashes(v)) {
                    if (h.kind == DepKind::Breaks) {
                        disk.now[u.versions[h.by].package].status = Status::Unpacked;  // --auto-deconfigure
                        continue;
                    }
                    if (u.versions[h.by].package == p) continue;
                    problems.push_back(step_text(i) + "conflicts with " + u.describe(h.by) + ", still on disk");
                }
                disk.now[p] = {v, Status::Unpacked};
                break;
            }
            case DpkgAction::Configure: {
                if (configured[v]++) problems.push_back(step_text(i) + "configured twice");
                Presence pr = disk.at(p);
                if (pr.version != v || pr.status != Status::Unpacked) {
                    problems.push_back(step_text(i) + "not unpacked");
                    break;
                }
                const std::unordered_set<uint32_t>& call = configure_call(i);
                for (uint32_t b : disk.breakers(v))
                    problems.push_back(step_text(i) + u.describe(b) + " Breaks it, still on disk");
                for (const solver::Dependency& d : u.deps(v)) {
                    if (!is_positive_hard(d.kind) || disk.met(v, d)) continue;
                    // dpkg defers a package until what it needs in the same
                    // call is configured; across calls, only cycles wait.
                    bool cycle = false;
                    for (uint32_t s : f.satisfiers(v, d))
                        if ((call.count(s) || f.same_group(v, s)) && disk.present(s)) cycle = true;
                    if (!cycle)
                        problems.push_back(step_text(i) + std::string(solver::dep_kind_name(d.kind)) + " " +
                                           u.dependency_text(d) + " not configured");
                }
                if (u.versions[v].multi_arch == solver::MultiArch::Same)
                    for (uint32_t q : u.packages_named(u.packages[p].name)) {
                        Presence sib = disk.at(q);
                        if (q == p || sib.status == Status::Absent) continue;
                        if (u.versions[sib.version].multi_arch == solver::MultiArch::Same &&
                            u.versions[sib.version].version != u.versions[v].version)
                            problems.push_back(step_text(i) + "Multi-Arch: same sibling " + u.describe(sib.version) +
                                               " is at another version");
                    }
                disk.now[p] = {v, Status::Configured};
                break;
            }
            case DpkgAction::Remove:
            case DpkgAction::Purge: {
                auto r = f.removal_of.find(p);
                if (f.is_upgraded_old(v) && st.action == DpkgAction::Remove && conflicts_an_install(v)) {
                    // A temporary removal out of a conflicts loop: once,
                    // before the new version is unpacked, with nothing
                    // configured needing it.
                    if (removed[v]++) problems.push_back(step_text(i) + "removed twice");
                    if (disk.at(p).version != v) problems.push_back(step_text(i) + "not on disk");
                    for (uint32_t y : disk.still_needing(v))
                        problems.push_back(step_text(i) + u.describe(y) + " still needs it");
                    disk.now[p] = {};
                    break;
                }
                if (r == f.removal_of.end() || r->second.version != v) {
                    problems.push_back(step_text(i) + "not a removal dpkg has to do");
                    break;
                }
                if (r->second.purge != (st.action == DpkgAction::Purge))
                    problems.push_back(step_text(i) + (r->second.purge ? "the plan purges it" : "the plan only removes it"));
                if (removed[v]++) problems.push_back(step_text(i) + "removed twice");
                if (!disk.present(v)) {
                    problems.push_back(step_text(i) + "not on disk");
                    break;
                }
                for (uint32_t y : disk.still_needing(v))
                    problems.push_back(step_text(i) + u.describe(y) + " still needs it");
                disk.now[p] = {};
                break;
            }
        }
    }
    for (uint32_t v : f.installs) {
        if (!unpacked.count(v)) problems.push_back(u.describe(v) + " is never unpacked");
        if (!configured.count(v)) problems.push_back(u.describe(v) + " is never configured");
    }
    for (uint32_t x : f.removals)
        if (!removed.count(x)) problems.push_back(u.describe(x) + " is never removed");
    for (const auto& [p, pr] : disk.now)
        if (pr.status == Status::Unpacked) problems.push_back(u.describe(pr.version) + " is left unpacked, not configured");
    return problems;
}

}  // namespace aptus::system
