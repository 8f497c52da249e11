#include "aptus/solver/solver3_words.hpp"

#include <algorithm>

namespace aptus::solver {
namespace {

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
        if (t.op != deb::RelationOp::None) out += " (" + std::string(deb::relation_op_text(t.op)) + " " + t.version + ")";
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

}  // namespace

std::optional<std::string> solver3_conflicting_decisions(const Universe& u, const Request& r) {
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

}  // namespace aptus::solver
