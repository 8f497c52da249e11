// `why`: a breadth-first search from the roots, run with the strongest set of
// relations first (Depends/Pre-Depends, then also Recommends, then also
// Suggests), so the first chain found is the shortest of the strongest.
// `why-not`: the direct facts against the candidate — collisions with what is
// installed, relations nothing installable meets — nested through or-groups
// whose every choice is itself kept out; the solver is the last resort.
#include "aptus/solver/why.hpp"

#include <algorithm>
#include <deque>

#include "aptus/solver/keep_roots.hpp"

namespace aptus::solver {

std::string_view root_kind_name(RootKind k) {
    switch (k) {
    case RootKind::Manual: return "manual";
    case RootKind::Requested: return "requested";
    case RootKind::Essential: return "essential";
    case RootKind::Protected: return "protected";
    case RootKind::Required: return "required";
    case RootKind::NeverAutoRemove: return "never-autoremove";
    case RootKind::Held: return "held";
    }
    return "?";
}

namespace {

// 0 = Depends/Pre-Depends, 1 = Recommends, 2 = Suggests, 3 = not a keeping relation.
int strength_of(DepKind k) {
    switch (k) {
    case DepKind::Depends:
    case DepKind::PreDepends: return 0;
    case DepKind::Recommends: return 1;
    case DepKind::Suggests: return 2;
    default: return 3;
    }
}

struct Link {
    uint32_t from;  // version
    uint32_t dep;   // index into deps(from)
};

}  // namespace

WhyResult why(const Universe& u, const std::vector<uint32_t>& selected, uint32_t package, const Request& r) {
    WhyResult out;
    std::vector<uint8_t> in(u.versions.size(), 0);
    for (uint32_t v : selected) in[v] = 1;
    bool found = false;
    for (uint32_t v : u.packages[package].versions)
        if (in[v]) {
            out.version = v;
            found = true;
        }
    if (!found) return out;

    std::vector<uint32_t> sorted = selected;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::optional<RootKind>> roots = keep_roots(u, r, sorted);
    for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] == out.version && roots[i]) {
            out.verdict = WhyResult::Verdict::Root;
            out.root = *roots[i];
            return out;
        }

    constexpr Link none{~uint32_t{0}, 0};
    std::vector<uint32_t> sats;
    for (int level = 0; level < 3; ++level) {
        std::vector<Link> parent(u.versions.size(), none);
        std::vector<uint8_t> seen(u.versions.size(), 0);
        std::deque<uint32_t> queue;
        for (size_t i = 0; i < sorted.size(); ++i)
            if (roots[i]) {
                seen[sorted[i]] = 1;
                queue.push_back(sorted[i]);
            }
        while (!queue.empty() && !seen[out.version]) {
            uint32_t v = queue.front();
            queue.pop_front();
            const std::vector<Dependency>& deps = u.deps(v);
            for (uint32_t di = 0; di < deps.size(); ++di) {
                if (strength_of(deps[di].kind) > level) continue;
                for (const Target& t : deps[di].alternatives) {
                    sats.clear();
                    u.satisfiers(v, t, sats);
                    for (uint32_t s : sats)
                        if (in[s] && !seen[s]) {
                            seen[s] = 1;
                            parent[s] = {v, di};
                            queue.push_back(s);
                        }
                }
            }
        }
        if (!seen[out.version]) continue;
        out.verdict = WhyResult::Verdict::Chain;
        int weakest = 0;
        for (uint32_t v = out.version; parent[v].from != none.from; v = parent[v].from) {
            const Dependency& d = u.deps(parent[v].from)[parent[v].dep];
            weakest = std::max(weakest, strength_of(d.kind));
            out.steps.push_back({parent[v].from, d.kind, u.dependency_text(d), v, 0});
        }
        std::reverse(out.steps.begin(), out.steps.end());
        out.strength = weakest == 0 ? DepKind::Depends : weakest == 1 ? DepKind::Recommends : DepKind::Suggests;
        uint32_t first = out.steps.front().from;
        for (size_t i = 0; i < sorted.size(); ++i)
            if (sorted[i] == first) out.root = *roots[i];
        return out;
    }
    out.verdict = WhyResult::Verdict::Unreached;
    return out;
}

namespace {

// The facts of why-not, found against a fixed installed system.
class KeptOut {
public:
    KeptOut(const Universe& u) : u_(u), installed_(u.packages.size(), no_version), visiting_(u.versions.size(), 0) {
        for (uint32_t v = 0; v < u.versions.size(); ++v)
            if (u.versions[v].installed) installed_[u.versions[v].package] = v;
    }

    // Facts keeping `v` out, appended to `out` at `depth`; false when none.
    bool explain(uint32_t v, uint32_t depth, std::vector<WhyStep>& out) {
        if (visiting_[v] || depth > max_depth) return false;
        visiting_[v] = 1;
        bool found = collisions(v, depth, out) || unmet(v, depth, out);
        visiting_[v] = 0;
        return found;
    }

private:
    static constexpr uint32_t no_version = ~uint32_t{0};
    static constexpr uint32_t max_depth = 6;

    // An installed version collides for good only when an upgrade of its
    // package would not help: it is its own candidate (or has none), or its
    // candidate collides as well. The version `v` would replace never counts.
    bool stays(uint32_t x, uint32_t v, const std::vector<uint32_t>& colliding) const {
        const Version& xv = u_.versions[x];
        if (!xv.installed || xv.package == u_.versions[v].package) return false;
        for (uint32_t c : u_.packages[xv.package].versions)
            if (u_.versions[c].candidate && c != x)
                return std::find(colliding.begin(), colliding.end(), c) != colliding.end();
        return true;
    }

    bool collisions(uint32_t v, uint32_t depth, std::vector<WhyStep>& out) {
        const std::vector<Dependency>& deps = u_.deps(v);
        std::vector<uint32_t> hit;
        for (const Dependency& d : deps) {
            if (!is_negative(d.kind)) continue;
            hit.clear();
            u_.conflicts_with(v, d.alternatives[0], hit);
            for (uint32_t x : hit)
                if (stays(x, v, hit)) {
                    out.push_back({v, d.kind, u_.dependency_text(d), x, depth});
                    return true;
                }
        }
        for (uint32_t x = 0; x < u_.versions.size(); ++x) {
            if (!u_.versions[x].installed || u_.versions[x].package == u_.versions[v].package) continue;
            for (const Dependency& d : u_.deps(x)) {
                if (!is_negative(d.kind)) continue;
                hit.clear();
                u_.conflicts_with(x, d.alternatives[0], hit);
                if (std::find(hit.begin(), hit.end(), v) == hit.end()) continue;
                if (!candidate_breaks_too(x, v)) continue;
                out.push_back({x, d.kind, u_.dependency_text(d), v, depth});
                return true;
            }
        }
        return false;
    }

    // Whether the version installed `x` would be upgraded to (its package's
    // candidate, or `x` itself) still has a Conflicts/Breaks hitting `v`.
    bool candidate_breaks_too(uint32_t x, uint32_t v) const {
        uint32_t c = x;
        for (uint32_t o : u_.packages[u_.versions[x].package].versions)
            if (u_.versions[o].candidate) c = o;
        if (c == x) return true;
        std::vector<uint32_t> hit;
        for (const Dependency& d : u_.deps(c)) {
            if (!is_negative(d.kind)) continue;
            hit.clear();
            u_.conflicts_with(c, d.alternatives[0], hit);
            if (std::find(hit.begin(), hit.end(), v) != hit.end()) return true;
        }
        return false;
    }

    // A version that may be chosen: installed, or its package's candidate.
    bool possible(uint32_t s) const { return u_.versions[s].installed || u_.versions[s].candidate; }

    bool unmet(uint32_t v, uint32_t depth, std::vector<WhyStep>& out) {
        std::vector<uint32_t> sats;
        for (const Dependency& d : u_.deps(v)) {
            if (d.kind != DepKind::Depends && d.kind != DepKind::PreDepends) continue;
            sats.clear();
            for (const Target& t : d.alternatives) u_.satisfiers(v, t, sats);
            // Met by what stays installed: nothing to explain.
            bool met = false;
            std::vector<uint32_t> choices;
            for (uint32_t s : sats) {
                if (u_.versions[s].installed && installed_[u_.versions[s].package] == s) met = true;
                if (possible(s) && std::find(choices.begin(), choices.end(), s) == choices.end()) choices.push_back(s);
            }
            if (met) continue;
            if (choices.empty()) {
                out.push_back({v, d.kind, u_.dependency_text(d), std::nullopt, depth});
                return true;
            }
            // Kept out only when every choice is; each choice's facts nest under it.
            std::vector<WhyStep> nested;
            bool all_out = true;
            for (uint32_t s : choices) {
                std::vector<WhyStep> sub;
                sub.push_back({v, d.kind, u_.dependency_text(d), s, depth});
                if (!explain(s, depth + 1, sub)) {
                    all_out = false;
                    break;
                }
                nested.insert(nested.end(), sub.begin(), sub.end());
            }
            if (all_out) {
                out.insert(out.end(), nested.begin(), nested.end());
                return true;
            }
        }
        return false;
    }

    const Universe& u_;
    std::vector<uint32_t> installed_;  // by package
    std::vector<uint8_t> visiting_;
};

}  // namespace

WhyNotResult why_not(const Universe& u, uint32_t package, const Request& r) {
    WhyNotResult out;
    std::optional<uint32_t> cand;
    for (uint32_t v : u.packages[package].versions) {
        if (u.versions[v].installed) {
            out.verdict = WhyNotResult::Verdict::Installed;
            out.version = v;
            return out;
        }
        if (u.versions[v].candidate) cand = v;
    }
    if (!cand) {
        out.verdict = WhyNotResult::Verdict::NoCandidate;
        return out;
    }
    out.version = *cand;
    KeptOut facts(u);
    if (facts.explain(*cand, 0, out.steps)) {
        out.verdict = WhyNotResult::Verdict::KeptOut;
        return out;
    }
    // No single fact: the combination may still be impossible (two
    // dependencies whose choices exclude each other); the solver knows.
    Request ask = r;
    ask.install = {package};
    ask.remove.clear();
    ask.upgrade_all = false;
    ask.autoremove = false;
    Solution s = solve(u, ask);
    if (!s.solved) {
        out.verdict = WhyNotResult::Verdict::KeptOut;
        out.solver_message = s.message;
        return out;
    }
    out.verdict = WhyNotResult::Verdict::Installable;
    return out;
}

}  // namespace aptus::solver
