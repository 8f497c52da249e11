// Reading an external solver's EDSP answer back into the universe it was
// asked about, and turning it into a Solution the plan code takes as it
// takes solve()'s.
#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_map>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/edsp/edsp.hpp"

namespace aptus::edsp {

using namespace solver;
namespace {

std::string version_words(const Universe& u, uint32_t v) {
    return "package " + u.package_name(u.versions[v].package) + " version " + u.versions[v].version;
}

}  // namespace

EdspAnswer read_edsp_answer(std::string_view text, const Universe& u, std::string_view name) {
    EdspAnswer a;
    std::unordered_map<std::string_view, uint32_t> by_id;
    by_id.reserve(u.versions.size());
    for (uint32_t v = 0; v < u.versions.size(); ++v) by_id.emplace(u.versions[v].id, v);

    deb::TagFileReader reader(text, std::string(name));
    deb::Stanza st;
    std::set<uint32_t> named;  // packages an Install or Remove stanza named
    while (reader.next(st)) {
        std::string_view kind;
        for (std::string_view k : {"Install", "Remove", "Autoremove"})
            if (st.get(k)) {
                kind = k;
                break;
            }
        if (kind.empty()) {
            if (st.get("Progress")) continue;
            if (auto error = st.get("Error")) {
                a.failed = true;
                a.error_id = std::string(trim(*error));
                a.error_message = deb::field_text(st.value_or_empty("Message"));
                return a;  // apt reads no further
            }
            a.warnings.push_back(std::string(name) + ":" + std::to_string(st.line) + ": skipped a stanza that is neither " +
                                 "Install, Remove, Autoremove, Progress nor Error");
            continue;
        }
        std::string_view id = trim(*st.get(kind));
        auto it = by_id.find(id);
        if (it == by_id.end()) {
            a.errors.push_back(std::string(name) + ":" + std::to_string(st.line) + ": the " + std::string(kind) +
                               " stanza names APT-ID '" + std::string(id) + "', which the scenario does not hold");
            continue;
        }
        uint32_t v = it->second;
        if (kind == "Autoremove") {
            a.autoremove.push_back(v);
            continue;
        }
        uint32_t p = u.versions[v].package;
        if (!named.insert(p).second) {
            a.errors.push_back("Solver selected " + version_words(u, v) +
                               " multiple times (had a previous stanza for the package)");
            continue;
        }
        if (kind == "Install") {
            if (u.versions[v].installed)
                a.errors.push_back("Solver wants to install " + version_words(u, v) + " which is already installed!");
            else
                a.install.push_back(v);
            continue;
        }
        bool installed = false;
        for (uint32_t w : u.packages[p].versions) installed = installed || u.versions[w].installed;
        if (!installed)
            a.warnings.push_back("Solver wants to remove " + version_words(u, v) + " which isn't installed!");
        else
            a.remove.push_back(v);
    }
    return a;
}

Solution solution_from_answer(const Universe& u, const Request& r, const EdspAnswer& a) {
    Solution s;
    if (a.failed) {
        s.error_id = a.error_id.empty() ? "ERR_UNKNOWN" : a.error_id;
        s.message = a.error_message;
        return s;
    }
    if (!a.errors.empty()) {
        s.error_id = "ERR_BAD_ANSWER";
        for (const std::string& e : a.errors) s.message += (s.message.empty() ? "" : "\n") + e;
        return s;
    }
    std::vector<uint8_t> goes(u.packages.size(), 0), replaced(u.packages.size(), 0);
    for (uint32_t v : a.remove) goes[u.versions[v].package] = 1;
    for (uint32_t v : a.install) replaced[u.versions[v].package] = 1;
    std::vector<uint32_t> before;
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        if (!u.versions[v].installed) continue;
        before.push_back(v);
        uint32_t p = u.versions[v].package;
        if (goes[p]) s.remove.push_back(v);
        else if (!replaced[p]) s.selected.push_back(v);
    }
    s.install = a.install;
    std::sort(s.install.begin(), s.install.end());
    s.selected.insert(s.selected.end(), s.install.begin(), s.install.end());
    std::sort(s.selected.begin(), s.selected.end());

    // apt refuses an answer that leaves broken packages behind; so does
    // this, counting only what was not broken before.
    std::vector<std::string> was = check_installation(u, before);
    std::set<std::string> known(was.begin(), was.end());
    std::string broken;
    for (const std::string& problem : check_installation(u, s.selected))
        if (!known.count(problem)) broken += "\n" + problem;
    if (!broken.empty()) {
        Solution bad;
        bad.error_id = "ERR_BAD_ANSWER";
        bad.message = "The solver's answer leaves broken packages:" + broken;
        return bad;
    }

    // What nothing needs any more: aptus's marking of the new system, and
    // what the solver itself called garbage where it stays as it is.
    std::vector<uint32_t> garbage;
    for (uint32_t v : autoremovable(u, r, s.selected))
        if (u.versions[v].installed) garbage.push_back(v);
    for (uint32_t v : a.autoremove)
        if (u.versions[v].installed && std::binary_search(s.selected.begin(), s.selected.end(), v)) garbage.push_back(v);
    std::sort(garbage.begin(), garbage.end());
    garbage.erase(std::unique(garbage.begin(), garbage.end()), garbage.end());
    if (r.autoremove) {
        s.remove.insert(s.remove.end(), garbage.begin(), garbage.end());
        std::sort(s.remove.begin(), s.remove.end());
    } else {
        s.autoremove = std::move(garbage);
    }
    s.solved = true;
    return s;
}

}  // namespace aptus::edsp
