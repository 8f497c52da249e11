#include "aptus/request/release_walk.hpp"

#include <algorithm>
#include <optional>

#include "aptus/request/request.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::request {
namespace {

struct Walk {
    system::SystemUniverse& su;
    const cache::Cache& c;
    const std::string& release;
    bool recommends, suggests;
};

// What apt calls an installable candidate here: every Depends and
// Pre-Depends of `version` met by what is installed now, and nothing
// installed that its Conflicts or Breaks hit.
bool installable_now(const solver::Universe& u, uint32_t version) {
    std::vector<uint32_t> sats;
    for (size_t di = 0; di < u.deps(version).size(); ++di) {
        const solver::Dependency d = u.deps(version)[di];
        sats.clear();
        if (solver::is_negative(d.kind)) {
            u.conflicts_with(version, d.alternatives[0], sats);
            for (uint32_t s : sats)
                if (u.versions[s].installed) return false;
            continue;
        }
        if (d.kind != solver::DepKind::Depends && d.kind != solver::DepKind::PreDepends) continue;
        bool met = false;
        for (const solver::Target& t : d.alternatives) u.satisfiers(version, t, sats);
        for (uint32_t s : sats) met = met || u.versions[s].installed;
        if (!met) return false;
    }
    return true;
}

bool move_dependencies(Walk& w, uint32_t version, std::vector<ReleaseMove>& moved) {
    solver::Universe& u = w.su.universe;
    const size_t mark = moved.size();
    auto undo_to = [&](size_t to) {
        while (moved.size() > to) {
            const ReleaseMove& m = moved.back();
            for (uint32_t o : u.packages[m.package].versions) u.versions[o].candidate = o == m.from;
            moved.pop_back();
        }
    };
    std::vector<uint32_t> sats;
    // deps() may intern names and so grow the universe: index, not reference.
    for (size_t di = 0; di < u.deps(version).size(); ++di) {
        const solver::Dependency d = u.deps(version)[di];
        bool hard = d.kind == solver::DepKind::Depends || d.kind == solver::DepKind::PreDepends;
        if (!hard && !(d.kind == solver::DepKind::Recommends && w.recommends) &&
            !(d.kind == solver::DepKind::Suggests && w.suggests))
            continue;
        // A versioned name:any stands for apt's name:any pseudo package,
        // which has no version to pick: never met here, never moved.
        auto pseudo = [](const solver::Target& t) { return t.arch == "any" && t.op != deb::RelationOp::None; };
        // Met: by what is installed, or by a candidate installable now.
        bool met = false;
        for (const solver::Target& t : d.alternatives) {
            if (pseudo(t)) continue;
            sats.clear();
            u.satisfiers(version, t, sats);
            for (uint32_t s : sats)
                met = met || u.versions[s].installed || (u.versions[s].candidate && installable_now(u, s));
        }
        if (met) continue;
        // Only a versioned relation can be helped by another candidate.
        bool switched = false;
        for (const solver::Target& t : d.alternatives) {
            if (pseudo(t) || switched || t.op == deb::RelationOp::None) continue;
            sats.clear();
            u.satisfiers(version, t, sats);
            for (uint32_t p : u.packages_named(t.name)) {
                // The package's first version in the release, as apt's
                // release match finds it; it must meet the relation.
                std::optional<uint32_t> pick;
                for (uint32_t o : u.packages[p].versions)
                    if (in_release(w.c, w.c.versions()[w.su.cache_version[o]], w.release)) {
                        pick = o;
                        break;
                    }
                if (!pick || std::find(sats.begin(), sats.end(), *pick) == sats.end()) continue;
                if (u.versions[*pick].candidate &&
                    std::any_of(moved.begin(), moved.end(), [&](const ReleaseMove& m) { return m.package == p; })) {
                    switched = true;  // moved already: its dependencies were walked then
                    break;
                }
                uint32_t from = cache::kNone;
                for (uint32_t o : u.packages[p].versions)
                    if (u.versions[o].candidate) from = o;
                const size_t before = moved.size();
                for (uint32_t o : u.packages[p].versions) u.versions[o].candidate = o == *pick;
                moved.push_back({p, from, *pick, version});
                if (!move_dependencies(w, *pick, moved)) {
                    undo_to(before);
                    continue;
                }
                switched = true;
                break;
            }
        }
        if (!switched && hard) {
            undo_to(mark);
            return false;
        }
    }
    return true;
}

}  // namespace

std::vector<ReleaseMove> follow_release(system::SystemUniverse& su, const cache::Cache& c, uint32_t version,
                                        const std::string& release, bool recommends, bool suggests) {
    Walk w{su, c, release, recommends, suggests};
    std::vector<ReleaseMove> moved;
    if (!move_dependencies(w, version, moved)) return {};  // undone already
    return moved;
}

std::vector<std::string> release_move_notes(const system::SystemUniverse& su, const cache::Cache& c,
                                            const std::vector<ReleaseMove>& moves, const std::string& placeholder_name) {
    std::vector<std::string> out;
    for (const ReleaseMove& m : moves) {
        const cache::Version& cv = c.versions()[su.cache_version[m.to]];
        const uint32_t by = m.because < su.cache_version.size() ? su.cache_version[m.because] : cache::kNone;
        const std::string because =
            by == cache::kNone ? placeholder_name : full_name(c, c.package_of(c.versions()[by]));
        out.push_back("Selected version '" + std::string(c.str(cv.version)) + "' (" + release_text(c, cv) + ") for '" +
                      full_name(c, c.package_of(cv)) + "' because of '" + because + "'");
    }
    return out;
}

}  // namespace aptus::request
