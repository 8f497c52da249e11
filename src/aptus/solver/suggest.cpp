#include "aptus/solver/suggest.hpp"

#include <algorithm>

#include "aptus/deb/version.hpp"

namespace aptus::solver {
namespace {

bool contains(const std::vector<uint32_t>& v, uint32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The name a command line gives: the native architecture is left out.
std::string word_name(const Universe& u, uint32_t p) {
    const std::string& arch = u.packages[p].arch;
    const std::string& name = u.names[u.packages[p].name];
    return arch == u.native_arch ? name : name + ":" + arch;
}

// "name", or "name=version" when the request's version is not the one a
// policy would choose by itself (a higher pin, or the same pin and a
// higher version, exists): the user named it.
std::string install_word(const Universe& u, uint32_t p) {
    const Version* cand = nullptr;
    for (uint32_t v : u.packages[p].versions)
        if (u.versions[v].candidate) cand = &u.versions[v];
    std::string w = word_name(u, p);
    if (!cand) return w;
    for (uint32_t v : u.packages[p].versions) {
        const Version& o = u.versions[v];
        if (&o == cand) continue;
        if (o.pin > cand->pin || (o.pin == cand->pin && deb::compare_versions(o.version, cand->version) > 0))
            return w + "=" + cand->version;
    }
    return w;
}

// Everything installed that must go with the request's removals: a package
// one of whose Depends or Pre-Depends groups nothing installed that stays
// can meet, until no more join; in the order they join. What a new package
// could meet instead is not counted (it may need what goes as well): the
// set may be larger than needed, never too small.
std::vector<uint32_t> removal_closure(const Universe& u, const Request& r) {
    std::vector<bool> going(u.packages.size(), false);
    for (uint32_t p : r.remove) going[p] = true;
    std::vector<uint32_t> out;
    std::vector<uint32_t> sats;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t p = 0; p < u.packages.size(); ++p) {
            if (going[p]) continue;
            for (uint32_t v : u.packages[p].versions) {
                if (!u.versions[v].installed) continue;
                for (const Dependency& d : u.deps(v)) {
                    if (d.kind != DepKind::Depends && d.kind != DepKind::PreDepends) continue;
                    sats.clear();
                    for (const Target& t : d.alternatives) u.satisfiers(v, t, sats);
                    // Met now by what is installed, and not after the removals.
                    const bool met_now = std::any_of(sats.begin(), sats.end(),
                                                     [&](uint32_t s) { return u.versions[s].installed; });
                    const bool met_after = std::any_of(sats.begin(), sats.end(), [&](uint32_t s) {
                        return u.versions[s].installed && !going[u.versions[s].package];
                    });
                    if (!met_now || met_after) continue;
                    going[p] = true;
                    out.push_back(p);
                    grew = true;
                    break;
                }
                if (going[p]) break;
            }
        }
    }
    return out;
}

}  // namespace

std::vector<RemovalBlocker> removal_blockers(const Universe& u, const Request& r) {
    std::vector<RemovalBlocker> out;
    for (uint32_t p : removal_closure(u, r)) {
        bool vital = false;
        for (uint32_t v : u.packages[p].versions)
            if (u.versions[v].installed) vital = vital || u.versions[v].essential || u.versions[v].important;
        if (vital || !u.packages[p].automatic) out.push_back({p, vital});
    }
    return out;
}

std::vector<std::string> request_words(const Universe& u, const Request& r) {
    std::vector<std::string> w;
    if (r.upgrade_all) w.push_back(r.forbid_remove ? "upgrade" : "full-upgrade");
    else if (r.install.empty()) w.push_back(r.purge ? "purge" : "remove");
    else w.push_back("install");
    for (uint32_t p : r.install) w.push_back(install_word(u, p));
    const bool removing_verb = w[0] == "remove" || w[0] == "purge";
    for (uint32_t p : r.remove) w.push_back(word_name(u, p) + (removing_verb ? "" : "-"));
    if (r.allow_remove_essential) w.push_back("--allow-remove-essential");
    if (!r.strict_pinning) w.push_back("--no-strict-pinning");
    if (!r.install_recommends) w.push_back("--no-install-recommends");
    return w;
}

std::optional<Suggestion> suggest_request(const Universe& u, const Request& r, const std::vector<Reason>& core,
                                          const TrySolve& try_solve) {
    bool vital = false, manual = false, unpinned = false;
    std::vector<uint32_t> manual_pkgs, requested, held;
    for (const Reason& re : core) {
        switch (re.kind) {
        case ReasonKind::Essential:
        case ReasonKind::Protected: vital = true; break;
        case ReasonKind::Manual:
            manual = true;
            if (!contains(manual_pkgs, re.package)) manual_pkgs.push_back(re.package);
            break;
        case ReasonKind::Hold:
            if (!contains(held, re.package)) held.push_back(re.package);
            break;
        case ReasonKind::RequestInstall:
        case ReasonKind::RequestRemove:
            if (!contains(requested, re.package)) requested.push_back(re.package);
            break;
        case ReasonKind::Dependency: {
            // A choice that only strict pinning rules out.
            std::vector<uint32_t> sats;
            for (const Target& t : u.deps(re.version)[re.dep].alternatives) u.satisfiers(re.version, t, sats);
            unpinned = unpinned || std::any_of(sats.begin(), sats.end(), [&](uint32_t s) {
                const Version& v = u.versions[s];
                return !v.installed && !v.candidate && v.pin >= 0 && !contains(r.install, v.package);
            });
            // A choice the user's own version request rules out: that request is one to change.
            for (uint32_t s : sats) {
                const uint32_t p = u.versions[s].package;
                if (!u.versions[s].candidate && contains(r.install, p) && !contains(requested, p)) requested.push_back(p);
            }
            break;
        }
        default: break;
        }
    }
    // Bounded: each try is a whole solve.
    int budget = 8;
    std::vector<Reason> failed_core;
    auto succeeds = [&](const Request& t) {
        if (budget-- <= 0) return false;
        std::optional<std::vector<Reason>> c = try_solve(t);
        if (!c) return true;
        failed_core = std::move(*c);
        return false;
    };
    auto suggestion = [&](Request t) {
        Suggestion s;
        s.words = request_words(u, t);
        s.request = std::move(t);
        return s;
    };
    // A removal with everything that must go with it.
    if (!r.remove.empty() && (vital || manual)) {
        Request t = r;
        for (const RemovalBlocker& b : removal_blockers(u, r)) {
            t.remove.push_back(b.package);
            t.allow_remove_essential = t.allow_remove_essential || b.vital;
        }
        if ((t.remove.size() > r.remove.size() || t.allow_remove_essential != r.allow_remove_essential) && succeeds(t))
            return suggestion(std::move(t));
    }
    // The held packages named, which lifts their holds for the request.
    if (!held.empty() && !r.upgrade_all) {
        Request t = r;
        for (uint32_t p : held)
            if (!contains(t.install, p)) t.install.push_back(p);
        if (succeeds(t)) return suggestion(std::move(t));
    }
    if (unpinned && r.strict_pinning) {
        Request t = r;
        t.strict_pinning = false;
        if (succeeds(t)) return suggestion(std::move(t));
    }
    // The manual packages that stand in the way of an installation, removed
    // too (after the switches: removing what the user installed is the
    // bigger change); when the solver then meets more of them (a library transition:
    // libnettle8, then libhogweed6, then libgnutls30), those as well, round
    // after round, so the answer names them all at once.
    if (manual && !r.install.empty()) {
        Request t = r;
        std::vector<uint32_t> in_the_way = manual_pkgs;
        for (int round = 0; round < 4; ++round) {
            const size_t before = t.remove.size();
            for (uint32_t p : in_the_way)
                if (!contains(t.remove, p) && !contains(t.install, p)) t.remove.push_back(p);
            if (t.remove.size() == before) break;
            if (succeeds(t)) return suggestion(std::move(t));
            in_the_way.clear();
            for (const Reason& re : failed_core)
                if (re.kind == ReasonKind::Manual) in_the_way.push_back(re.package);
        }
    }
    // One requested package left out, the last requested first (the
    // earlier words of a command line are usually the point of it). A
    // version the user named stays the candidate in the universe, so
    // leaving out `libc6=2.36` does not bring libc6's own candidate back
    // (the try fails; what is suggested then leaves out another request).
    std::vector<uint32_t> order = requested;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        auto pos = [&](uint32_t p) {
            auto it = std::find(r.install.begin(), r.install.end(), p);
            if (it != r.install.end()) return size_t(it - r.install.begin());
            return r.install.size() + size_t(std::find(r.remove.begin(), r.remove.end(), p) - r.remove.begin());
        };
        return pos(a) > pos(b);
    });
    for (uint32_t p : order) {
        Request t = r;
        std::erase(t.install, p);
        std::erase(t.remove, p);
        if (t.install.empty() && t.remove.empty() && !t.upgrade_all) continue;
        if (succeeds(t)) return suggestion(std::move(t));
    }
    return std::nullopt;
}

}  // namespace aptus::solver
