// apt's mark-and-sweep over the installation the solver chose: roots are the
// manual, essential, protected and held packages and the request; everything an
// automatic package is reached from through the important relations stays.
#include <regex.h>

#include <algorithm>
#include <deque>

#include "aptus/base/error.hpp"

#include "aptus/deb/version.hpp"
#include "aptus/solver/keep_roots.hpp"
#include "aptus/solver/solver.hpp"

namespace aptus::solver {

namespace {

// apt's rule looks at the installed version (CurrentVer) of the package.
bool installed_required(const Universe& u, uint32_t package) {
    for (uint32_t v : u.packages[package].versions)
        if (u.versions[v].installed && u.versions[v].required) return true;
    return false;
}

}  // namespace

std::vector<std::optional<RootKind>> keep_roots(const Universe& u, const Request& r, const std::vector<uint32_t>& selected) {
    std::vector<uint8_t> was_installed(u.packages.size(), 0), requested(u.packages.size(), 0);
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) was_installed[u.versions[v].package] = 1;
    for (uint32_t p : r.install) requested[p] = 1;

    // apt compiles these with REG_EXTENDED | REG_ICASE | REG_NOSUB.
    std::vector<regex_t> never;
    for (const std::string& pattern : r.never_autoremove) {
        regex_t re;
        if (::regcomp(&re, pattern.c_str(), REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0) {
            for (regex_t& x : never) ::regfree(&x);
            throw Error("APT::NeverAutoRemove: bad regular expression '" + pattern + "'");
        }
        never.push_back(re);
    }
    auto protected_name = [&](const std::string& name) {
        for (const regex_t& re : never)
            if (::regexec(&re, name.c_str(), 0, nullptr, 0) == 0) return true;
        return false;
    };

    std::vector<std::optional<RootKind>> roots(selected.size());
    for (size_t i = 0; i < selected.size(); ++i) {
        const Version& ver = u.versions[selected[i]];
        const Package& pkg = u.packages[ver.package];
        if (was_installed[ver.package] && !pkg.automatic) roots[i] = RootKind::Manual;
        else if (requested[ver.package]) roots[i] = RootKind::Requested;
        else if (ver.essential) roots[i] = RootKind::Essential;
        else if (ver.important) roots[i] = RootKind::Protected;
        else if (installed_required(u, ver.package)) roots[i] = RootKind::Required;
        else if (protected_name(u.names[pkg.name])) roots[i] = RootKind::NeverAutoRemove;
        // A held package stays as it is, and so does what it needs (apt).
        else if (ver.hold && ver.installed) roots[i] = RootKind::Held;
    }
    for (regex_t& x : never) ::regfree(&x);
    return roots;
}

namespace {

// Of several providers that meet a relation on a virtual name, apt keeps
// per source package only those built from its newest source version
// (old library flavours of one source are garbage once a newer one
// provides the same).
void newest_source_providers(const Universe& u, const Dependency& d, std::vector<uint32_t>& group) {
    if (group.size() < 2) return;
    auto by_provides = [&](uint32_t v) {
        const uint32_t name = u.packages[u.versions[v].package].name;
        return std::none_of(d.alternatives.begin(), d.alternatives.end(),
                            [&](const Target& t) { return t.name == name; });
    };
    std::vector<uint32_t> kept;
    for (uint32_t v : group) {
        const Version& ver = u.versions[v];
        bool older = by_provides(v) && std::any_of(group.begin(), group.end(), [&](uint32_t o) {
                         const Version& other = u.versions[o];
                         return by_provides(o) && other.source == ver.source &&
                                deb::compare_versions(other.source_version, ver.source_version) > 0;
                     });
        if (!older) kept.push_back(v);
    }
    group = std::move(kept);
}

// The marking itself: which versions of `selected` are kept (reached[v]),
// each one told to `marks` as it is reached when that is given.
std::vector<uint8_t> mark_kept(const Universe& u, const Request& r, const std::vector<uint32_t>& selected,
                               std::vector<KeepMark>* marks) {
    std::vector<uint8_t> in(u.versions.size(), 0), reached(u.versions.size(), 0);
    std::vector<uint8_t> was_installed(u.packages.size(), 0);
    for (uint32_t v : selected) in[v] = 1;
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) was_installed[u.versions[v].package] = 1;

    std::deque<uint32_t> queue;
    std::vector<std::optional<RootKind>> roots = keep_roots(u, r, selected);
    for (size_t i = 0; i < selected.size(); ++i)
        if (roots[i]) {
            reached[selected[i]] = 1;
            queue.push_back(selected[i]);
            if (marks) marks->push_back({selected[i], roots[i]});
        }
    // Normalisation's other half: in a full upgrade, an or-group whose first
    // chosen way is new (the fresh install's choice) no longer keeps the old
    // installed alternatives; anything else still needing them does.
    bool normalising = r.upgrade_all && !r.forbid_remove;
    std::vector<uint32_t> sats, group, real;  // real: the satisfiers named by the relation itself
    while (!queue.empty()) {
        uint32_t v = queue.front();
        queue.pop_front();
        for (const Dependency& d : u.deps(v)) {
            bool important = d.kind == DepKind::Depends || d.kind == DepKind::PreDepends ||
                             (d.kind == DepKind::Recommends && r.recommends_important) ||
                             (d.kind == DepKind::Suggests && r.suggests_important);
            if (!important) continue;
            // Otherwise every installed way of meeting the relation is kept, as apt does.
            group.clear();
            real.clear();
            for (const Target& t : d.alternatives) {
                sats.clear();
                u.satisfiers(v, t, sats);
                for (uint32_t s : sats)
                    if (in[s]) {
                        group.push_back(s);
                        if (u.packages[u.versions[s].package].name == t.name) real.push_back(s);
                    }
            }
            if (r.autoremove_real_first && !real.empty()) group.swap(real);
            if (normalising && !group.empty() && !was_installed[u.versions[group.front()].package]) group.resize(1);
            newest_source_providers(u, d, group);
            for (uint32_t s : group)
                if (!reached[s]) {
                    reached[s] = 1;
                    queue.push_back(s);
                    if (marks) marks->push_back({s, std::nullopt});
                }
        }
    }
    return reached;
}

}  // namespace

std::vector<KeepMark> keep_marks(const Universe& u, const Request& r, const std::vector<uint32_t>& selected) {
    std::vector<KeepMark> marks;
    mark_kept(u, r, selected, &marks);
    return marks;
}

std::vector<uint32_t> autoremovable(const Universe& u, const Request& r, const std::vector<uint32_t>& selected,
                                    bool with_new) {
    std::vector<uint8_t> was_installed(u.packages.size(), 0);
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) was_installed[u.versions[v].package] = 1;
    const std::vector<uint8_t> reached = mark_kept(u, r, selected, nullptr);
    std::vector<uint32_t> garbage;
    for (uint32_t v : selected)
        if (!reached[v] && (with_new || was_installed[u.versions[v].package])) garbage.push_back(v);
    return garbage;
}

}  // namespace aptus::solver
