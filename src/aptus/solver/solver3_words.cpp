#include "aptus/solver/solver3_words.hpp"

#include <algorithm>
#include <unordered_set>

#include "aptus/deb/version.hpp"
#include "aptus/solver/solver3_trail.hpp"

namespace aptus::solver {
namespace {

// apt's words for a comparison (pkgCache::CompType): "<<" and ">>" are
// "<" and ">".
std::string_view comparison(deb::RelationOp op) {
    switch (op) {
        case deb::RelationOp::Less: return "<";
        case deb::RelationOp::Greater: return ">";
        default: return deb::relation_op_text(op);
    }
}

// How solver3 names things: a package always with its architecture, a
// version as "name:arch=version", a relation's target as written (an
// architecture only where it is not the native one's or was written).
class Words {
public:
    explicit Words(const Universe& u) : u_(u) {}

    std::string arch_of(uint32_t package) const {
        const std::string& a = u_.packages[package].arch;
        return a == "all" ? u_.native_arch : a;
    }
    std::string package(uint32_t p) const { return u_.names[u_.packages[p].name] + ":" + arch_of(p); }
    std::string version(uint32_t v) const { return package(u_.versions[v].package) + "=" + u_.versions[v].version; }
    // A package as a relation names it: no architecture for the native one.
    std::string short_package(uint32_t p) const {
        const std::string arch = arch_of(p);
        return arch == u_.native_arch ? u_.names[u_.packages[p].name] : package(p);
    }
    std::string target(uint32_t from, const Target& t) const {
        std::string out = u_.names[t.name];
        if (t.arch == "any") out += ":any";
        else if (t.arch == "native") out += ":" + u_.native_arch;
        else if (!t.arch.empty()) out += ":" + t.arch;
        else if (const std::string a = arch_of(u_.versions[from].package); a != u_.native_arch) out += ":" + a;
        if (t.op != deb::RelationOp::None) out += " (" + std::string(comparison(t.op)) + " " + t.version + ")";
        return out;
    }
    std::string relation(uint32_t from, const Dependency& d) const {
        std::string out;
        for (const Target& t : d.alternatives) out += (out.empty() ? "" : " | ") + target(from, t);
        return out;
    }

private:
    const Universe& u_;
};

std::optional<uint32_t> candidate(const Universe& u, uint32_t p) {
    for (uint32_t v : u.packages[p].versions)
        if (u.versions[v].candidate) return v;
    return std::nullopt;
}

// Two architectures of one name cannot both be installed unless both are
// Multi-Arch: same (apt's implicit Conflicts).
bool siblings_clash(const Universe& u, uint32_t v, uint32_t w) {
    const Version& a = u.versions[v];
    const Version& b = u.versions[w];
    return a.package != b.package && u.packages[a.package].name == u.packages[b.package].name &&
           !(a.multi_arch == MultiArch::Same && b.multi_arch == MultiArch::Same);
}

// The Conflicts or Breaks of `from` that hits `hit`, if any.
const Dependency* conflict_hitting(const Universe& u, uint32_t from, uint32_t hit) {
    std::vector<uint32_t> hits;
    for (const Dependency& d : u.deps(from)) {
        if (!is_negative(d.kind)) continue;
        for (const Target& t : d.alternatives) {
            hits.clear();
            u.conflicts_with(from, t, hits);
            if (std::find(hits.begin(), hits.end(), hit) != hits.end()) return &d;
        }
    }
    return nullptr;
}

// The shapes the request alone decides, as solver3 words them; what the
// replay (solver3_trail) does not explain.
std::optional<std::string> request_shapes(const Universe& u, const Request& r) {
    const Words w(u);
    // What solver3 selects before any dependency: the requests, then the
    // manual packages that stay installed (named without their version).
    struct Asked {
        uint32_t package, version;
        bool kept = false;
    };
    std::vector<Asked> asked;
    for (uint32_t p : r.install)
        if (auto v = candidate(u, p)) asked.push_back({p, *v});
    const size_t requested = asked.size();
    if (!r.remove_manual && !r.upgrade_all)
        for (uint32_t p = 0; p < u.packages.size(); ++p) {
            if (u.packages[p].automatic || std::find(r.install.begin(), r.install.end(), p) != r.install.end() ||
                std::find(r.remove.begin(), r.remove.end(), p) != r.remove.end())
                continue;
            for (uint32_t v : u.packages[p].versions)
                if (u.versions[v].installed) asked.push_back({p, v, true});
        }
    auto selected = [&](const Asked& a) { return a.kept ? w.package(a.package) : w.version(a.version); };
    // "[selected X]": the Conflicts names what X provides itself.
    auto provided_by_itself = [&](const Asked& by, const Dependency& d) -> std::string {
        for (const Target& t : d.alternatives)
            for (const Provide& pv : u.versions[by.version].provides)
                if (pv.name == t.name) return "\n         [selected " + w.package(by.package) + "]";
        return "";
    };

    // Two requests: solver3 selects them in order, and a relation fires
    // from the package that has it.
    for (size_t j = 0; j < asked.size(); ++j)
        for (size_t i = 0; i < std::min(j, requested); ++i) {
            const Asked& a = asked[i];
            const Asked& b = asked[j];
            if (!b.kept && siblings_clash(u, a.version, b.version))
                return "   1. " + w.package(b.package) + " is not selected for install because:\n      1. " +
                       w.version(a.version) + " is selected for install\n      2. " + w.package(b.package) +
                       " Conflicts " + w.short_package(a.package) + "\n   2. " + w.version(b.version) +
                       " is selected for install";
            if (const Dependency* d = conflict_hitting(u, b.version, a.version))
                return "   1. " + w.version(a.version) + " is selected for install\n   2. " + w.version(a.version) +
                       " is not selected for install because:\n      1. " + selected(b) +
                       " is selected for install\n      2. " + w.package(b.package) + " " + std::string(apt_dep_type_name(d->kind)) +
                       " " + w.relation(b.version, *d) + provided_by_itself(b, *d);
            if (b.kept) continue;  // a manual package's own relations: aptus's explanation
            if (const Dependency* d = conflict_hitting(u, a.version, b.version))
                return "   1. " + w.version(b.version) + " is not selected for install because:\n      1. " +
                       w.version(a.version) + " is selected for install\n      2. " + w.package(a.package) + " " +
                       std::string(apt_dep_type_name(d->kind)) + " " + w.relation(a.version, *d) + "\n   2. " + w.version(b.version) +
                       " is selected for install";
        }

    // A requested removal that what stays installed needs: an Essential or
    // protected package's relation is propagated at once (the removal and
    // the install it forces conflict); a manual package is decided after
    // the removals, and its relation then has no choice left.
    std::vector<bool> removed(u.packages.size(), false);
    for (uint32_t p : r.remove) removed[p] = true;
    std::vector<uint32_t> hits;
    auto only_removed = [&](uint32_t from, const Dependency& d, uint32_t& which) {
        bool any = false;
        for (const Target& t : d.alternatives) {
            hits.clear();
            u.satisfiers(from, t, hits);
            for (uint32_t h : hits) {
                if (!removed[u.versions[h].package]) return false;
                which = u.versions[h].package;
                any = true;
            }
        }
        return any;
    };
    for (int pass = 0; pass < 2 && !r.remove.empty(); ++pass)
        for (uint32_t p = 0; p < u.packages.size(); ++p) {
            if (removed[p]) continue;
            std::optional<uint32_t> inst;
            for (uint32_t v : u.packages[p].versions)
                if (u.versions[v].installed) inst = v;
            if (!inst) continue;
            const Version& iv = u.versions[*inst];
            const bool forced = iv.essential || iv.important;
            if (pass == 0 ? !forced : (forced || u.packages[p].automatic || r.remove_manual)) continue;
            for (const Dependency& d : u.deps(*inst)) {
                if (d.kind != DepKind::Depends && d.kind != DepKind::PreDepends) continue;
                uint32_t gone = 0;
                if (!only_removed(*inst, d, gone)) continue;
                if (pass == 0)
                    return "   1. " + w.package(gone) + " is selected for removal\n   2. " + w.package(gone) +
                           " is selected for install because:\n      1. " + w.package(p) +
                           " is selected for install\n      2. " + w.package(p) + " " + std::string(apt_dep_type_name(d.kind)) + " " +
                           w.relation(*inst, d);
                return "   1. " + w.package(p) + " is selected for install\n   2. " + w.package(p) + " " +
                       std::string(apt_dep_type_name(d.kind)) + " " + w.relation(*inst, d) +
                       "\n      but none of the choices are installable:\n      - " + w.package(gone) +
                       " is selected for removal";
            }
        }

    // A requested package's dependency: no choice at all, or every choice
    // another requested architecture of its name excludes.
    for (size_t ai = 0; ai < requested; ++ai)
        for (const Dependency& d : u.deps(asked[ai].version)) {
            const Asked& a = asked[ai];
            if (d.kind != DepKind::Depends && d.kind != DepKind::PreDepends) continue;
            std::vector<uint32_t> choices;
            for (const Target& t : d.alternatives) {
                hits.clear();
                u.satisfiers(a.version, t, hits);
                for (uint32_t h : hits)
                    if (std::find(choices.begin(), choices.end(), h) == choices.end()) choices.push_back(h);
            }
            std::string why;
            bool all_excluded = true;
            std::vector<uint32_t> told;  // packages whose exclusion is said already
            for (uint32_t c : choices) {
                auto by = std::find_if(asked.begin(), asked.end(),
                                       [&](const Asked& o) { return siblings_clash(u, o.version, c); });
                if (by == asked.end()) {
                    all_excluded = false;
                    break;
                }
                const uint32_t cp = u.versions[c].package;
                if (std::find(told.begin(), told.end(), cp) != told.end()) continue;
                told.push_back(cp);
                why += "\n      - " + w.package(cp) + " is not selected for install because:\n        1. " +
                       selected(*by) + " is selected for install\n        2. " + w.package(cp) +
                       " Conflicts " + w.short_package(by->package);
            }
            if (!all_excluded) continue;
            return "   1. " + w.version(a.version) + " is selected for install\n   2. " + w.package(a.package) + " " +
                   std::string(apt_dep_type_name(d.kind)) + " " + w.relation(a.version, d) +
                   "\n      but none of the choices are installable:" + (choices.empty() ? "\n      [no choices]" : why);
        }
    return std::nullopt;
}

// solver3's account of one decision (its LongWhyStr): a fact or a choice is
// just "selected"; anything else is the chain of reasons from a fact to it,
// then for each or-group on the way the choices that could not be taken.
// `seen` keeps a decision told once from being told again ("as above").
class Account {
public:
    Account(const solver3::Trail& t) : t_(t), w_(t.universe()) {}

    std::string text(solver3::Var v) const {
        if (v == solver3::kNoVar) return "";  // a clause of the request itself
        return t_.is_package(v) ? w_.package(t_.package_of(v)) : w_.version(t_.version_of(v));
    }

    std::string clause(int32_t c) const {
        const solver3::Clause& cl = t_.clause(c);
        std::string out = cl.reason == solver3::kNoVar ? "" : text(cl.reason);
        if (cl.dep) {
            out += " " + std::string(apt_dep_type_name(cl.dep->kind)) + " ";
            if (!cl.implicit) return out + w_.relation(cl.dep_from, *cl.dep);
            const Universe& u = t_.universe();
            for (size_t i = 0; i < cl.dep->alternatives.size(); ++i) {
                const Target& tg = cl.dep->alternatives[i];
                out += (i ? " | " : "") + u.names[tg.name] + (tg.arch == u.native_arch ? "" : ":" + tg.arch);
                if (!tg.version.empty()) out += " (!= " + tg.version + ")";
            }
            return out;
        }
        if (cl.group == solver3::Group::SelectVersion && cl.negative) return out + " conflicts with other versions of itself";
        if (cl.group == solver3::Group::SelectVersion && t_.is_package(cl.reason)) {
            out += cl.solutions.size() > 1 ? " is available in versions " : " is available in version ";
            for (size_t i = 0; i < cl.solutions.size(); ++i)
                out += (i ? ", " : "") + t_.universe().versions[t_.version_of(cl.solutions[i])].version;
            return out;
        }
        out += " -> ";
        for (solver3::Var s : cl.solutions) out += " | " + text(s);
        return out;
    }

    std::string selection(solver3::Var v, bool decision) const {
        const Universe& u = t_.universe();
        const auto inst = t_.installed(t_.package_of(v));
        if (!decision && t_.is_package(v) && inst) return text(v) + " is selected for removal";
        if (decision && !t_.is_package(v) && inst && *inst != t_.version_of(v))
            return text(v) + (deb::compare_versions(u.versions[*inst].version.view(),
                                                    u.versions[t_.version_of(v)].version.view()) < 0
                                  ? " is selected as an upgrade"
                                  : " is selected as a downgrade");
        return text(v) + (decision ? " is selected for install" : " is not selected for install");
    }

    // The variable a clause's decision is best told by: for a clause of the
    // variable itself, the choice that made it so; else the clause's owner.
    solver3::Var best_reason(int32_t c, solver3::Var v) const {
        if (c == solver3::kNoClause) return solver3::kNoVar;
        const solver3::Clause& cl = t_.clause(c);
        if (cl.reason == v)
            for (solver3::Var s : cl.solutions) {
                const solver3::Decision d = t_.state(s).decision;
                if (cl.negative ? d == solver3::Decision::Must : d == solver3::Decision::MustNot) return s;
            }
        return cl.reason;
    }

    std::string why(solver3::Var v, bool decision, int32_t rc, std::string prefix) {
        using solver3::Decision;
        std::string out;
        auto children = [&](int32_t c, solver3::Var skip) {
            const solver3::Clause& cl = t_.clause(c);
            if (cl.solutions.empty()) out += prefix + "[no choices]\n";
            for (solver3::Var s : cl.solutions) {
                if (s == skip) continue;
                const solver3::VarState& st = t_.state(s);
                if (st.decision == Decision::None) out += prefix + "- " + text(s) + " is undecided\n";
                else out += prefix + "- " + why(s, st.decision == Decision::Must, st.reason, prefix + "  ").substr(prefix.size() + 2);
            }
        };
        // "pkg=ver selects pkg" says nothing to the user: tell the version.
        if (t_.is_package(v) && decision && rc != solver3::kNoClause &&
            t_.clause(rc).group == solver3::Group::SelectVersion) {
            v = t_.clause(rc).reason;
            rc = t_.state(v).reason;
        }
        if (rc == solver3::kNoClause) return prefix + selection(v, decision) + "\n";
        const solver3::VarState& vs = t_.state(v);
        if (vs.decision != Decision::None && decision == (vs.decision == Decision::Must) && vs.reason == rc) {
            if (seen_.count(v)) return prefix + selection(v, decision) + " as above\n";
            seen_.insert(v);
        }
        if (!decision && !t_.clause(rc).negative) {
            out += prefix + clause(rc) + "\n" + prefix + "but none of the choices are installable:\n";
            children(rc, solver3::kNoVar);
            return out;
        }
        std::vector<solver3::Var> path;
        for (solver3::Var r = best_reason(rc, v); r != solver3::kNoVar; r = best_reason(t_.state(r).reason, r))
            path.push_back(r);
        out += prefix + selection(v, decision) + " because:\n";
        const size_t width = std::to_string(path.size() + 1).size();
        auto number = [&](size_t i) {
            std::string n = std::to_string(i);
            return std::string(width > n.size() ? width - n.size() : 0, ' ') + n;
        };
        const std::string blank(width, ' ');
        size_t i = 1;
        for (auto it = path.rbegin(); it != path.rend(); ++it, ++i) {
            const solver3::VarState& st = t_.state(*it);
            if (t_.is_package(*it) && st.reason != solver3::kNoClause &&
                t_.clause(st.reason).group == solver3::Group::SelectVersion) {
                --i;
                continue;
            }
            if (seen_.count(*it)) {
                if (it + 1 == path.rend() || !seen_.count(*(it + 1)))
                    out += prefix + (i == 1 ? "" : "1-") + std::to_string(i) + ". " +
                           selection(*it, st.decision == Decision::Must) + " as above\n";
                continue;
            }
            seen_.insert(*it);
            if (st.reason != solver3::kNoClause) {
                out += prefix + number(i) + ". " + clause(st.reason) + "\n";
                if (t_.clause(st.reason).solutions.size() > 1)
                    out += prefix + blank + "  [selected " + text(*it) + " for " +
                           (st.decision == Decision::Must ? "install" : "remove") + "]\n";
            } else {
                out += prefix + number(i) + ". " + selection(*it, st.decision == Decision::Must) + "\n";
            }
        }
        out += prefix + number(i) + ". " + clause(rc) + "\n";
        if (t_.clause(rc).solutions.size() > 1) out += prefix + blank + "  [selected " + text(best_reason(rc, v)) + "]\n";
        bool first = true;
        auto context = [&](int32_t c, solver3::Var skip) {
            if (first) out += prefix + "For context, additional choices that could not be installed:\n";
            first = false;
            out += prefix + "* In " + clause(c) + ":\n";
            prefix += "  ";
            children(c, skip);
            prefix.resize(prefix.size() - 2);
        };
        for (auto it = path.rbegin(); it != path.rend(); ++it) {
            const int32_t c = t_.state(*it).reason;
            if (c == solver3::kNoClause || t_.clause(c).solutions.size() <= 1 || t_.clause(c).negative) continue;
            context(c, *it);
        }
        if (t_.clause(rc).solutions.size() > 1 && !t_.clause(rc).negative) context(rc, v);
        return out;
    }

private:
    const solver3::Trail& t_;
    Words w_;
    std::unordered_set<solver3::Var> seen_;
};

// apt's message printer sets every line after the first under the first
// one's text ("E: "): three more spaces than LongWhyStr's own prefix.
std::string indented(std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    std::string out;
    for (char c : s) {
        out += c;
        if (c == '\n') out += "   ";
    }
    return out;
}

}  // namespace

std::optional<std::string> solver3_conflicting_decisions(const Universe& u, const Request& r) {
    // A removal is told by the shapes first: solver3 reaches a manual
    // package's relation on a removed one later than the replay does (in
    // its work order, where it finds no choice left), and the shapes were
    // checked against solver3's own output.
    if (!r.remove.empty())
        if (auto shaped = request_shapes(u, r)) return shaped;
    solver3::Trail trail(u, r);
    if (auto c = trail.run()) {
        Account a(trail);
        const std::string one = a.why(c->var, c->first_decision, c->first_reason, "   ");
        const std::string two = a.why(c->var, c->second_decision, c->second_reason, "   ");
        return "   1. " + indented(one.substr(3)) + "\n   2. " + indented(two.substr(3));
    }
    // The replay found no conflict (or gave up): what the shapes say.
    return r.remove.empty() ? request_shapes(u, r) : std::nullopt;
}

}  // namespace aptus::solver
