#include "aptus/install/history_target.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>


namespace aptus::install {
namespace {

using system::HistoryEntry;
using system::HistoryItem;

const HistoryEntry& entry_at(std::span<const HistoryEntry> entries, size_t id) {
    if (id < 1 || id > entries.size())
        throw std::out_of_range("history entry " + std::to_string(id) + " of " + std::to_string(entries.size()));
    return entries[id - 1];
}

// The mark a package was installed with: its last Install line among
// `entries`; nullopt when none has one.
std::optional<bool> logged_mark(std::span<const HistoryEntry> entries, const std::string& package) {
    for (auto e = entries.rbegin(); e != entries.rend(); ++e)
        for (const HistoryItem& it : e->install)
            if (it.package == package) return it.automatic;
    return std::nullopt;
}

// A package's state as a log line tells it: installed at a version, or not.
struct LoggedState {
    std::string version;  // "": not installed
    bool operator==(const LoggedState&) const = default;
};

struct Touch {
    const HistoryItem* item;
    LoggedState before, after;
};

// The items of an entry with the state before and after each, in apt's
// order of the lines (Install, Reinstall, Upgrade, Downgrade, Remove, Purge).
std::vector<Touch> touches(const HistoryEntry& e) {
    std::vector<Touch> out;
    for (const HistoryItem& it : e.install) out.push_back({&it, {""}, {it.new_version}});
    for (const HistoryItem& it : e.reinstall) out.push_back({&it, {it.new_version}, {it.new_version}});
    for (const auto* list : {&e.upgrade, &e.downgrade})
        for (const HistoryItem& it : *list) out.push_back({&it, {it.old_version}, {it.new_version}});
    for (const auto* list : {&e.remove, &e.purge})
        for (const HistoryItem& it : *list) out.push_back({&it, {it.old_version}, {""}});
    return out;
}

}  // namespace

TargetState undo_target(std::span<const HistoryEntry> entries, size_t id) {
    const HistoryEntry& e = entry_at(entries, id);
    const auto before = entries.first(id - 1);
    TargetState out;
    for (const HistoryItem& it : e.install) out.push_back({.package = it.package});
    for (const auto* list : {&e.upgrade, &e.downgrade})
        for (const HistoryItem& it : *list)
            if (!it.old_version.empty()) out.push_back({.package = it.package, .version = it.old_version});
    for (const auto* list : {&e.remove, &e.purge})
        for (const HistoryItem& it : *list)
            if (!it.old_version.empty())
                out.push_back({.package = it.package, .version = it.old_version,
                               .automatic = logged_mark(before, it.package)});
    return out;
}

TargetState redo_target(std::span<const HistoryEntry> entries, size_t id) {
    const HistoryEntry& e = entry_at(entries, id);
    TargetState out;
    // A line without its version (not apt's) cannot be installed again.
    for (const HistoryItem& it : e.install)
        if (!it.new_version.empty())
            out.push_back({.package = it.package, .version = it.new_version, .automatic = it.automatic});
    for (const HistoryItem& it : e.reinstall)
        if (!it.new_version.empty()) out.push_back({.package = it.package, .version = it.new_version, .reinstall = true});
    for (const auto* list : {&e.upgrade, &e.downgrade})
        for (const HistoryItem& it : *list)
            if (!it.new_version.empty()) out.push_back({.package = it.package, .version = it.new_version});
    for (const HistoryItem& it : e.remove) out.push_back({.package = it.package});
    for (const HistoryItem& it : e.purge) out.push_back({.package = it.package, .purge = true});
    return out;
}

TargetState rollback_target(std::span<const HistoryEntry> entries, size_t id) {
    entry_at(entries, id);
    std::vector<std::string> order;  // packages as the later entries first touched them
    std::unordered_map<std::string, std::pair<LoggedState, LoggedState>> net;  // first before, last after
    for (const HistoryEntry& e : entries.subspan(id))
        for (const Touch& t : touches(e)) {
            auto [it, fresh] = net.try_emplace(t.item->package, t.before, t.after);
            if (fresh) order.push_back(t.item->package);
            else it->second.second = t.after;
        }
    const auto up_to = entries.first(id);
    TargetState out;
    for (const std::string& package : order) {
        const auto& [then, now] = net.at(package);
        if (then == now) continue;
        PackageTarget t{.package = package, .version = then.version};
        // A package that comes back gets the mark it was installed with; one
        // that stays keeps its own.
        if (!then.version.empty() && now.version.empty()) t.automatic = logged_mark(up_to, package);
        out.push_back(std::move(t));
    }
    return out;
}

namespace {

// history's "name:arch" as a request word's name: native and "all" packages
// by their name alone.
std::string word_name(const std::string& package, std::string_view native_architecture) {
    const auto colon = package.rfind(':');
    if (colon == std::string::npos) return package;
    const std::string_view arch = std::string_view(package).substr(colon + 1);
    if (arch == native_architecture || arch == "all") return package.substr(0, colon);
    return package;
}

// The cache's package of history's "name:arch" (a package of "all" is
// found under the native architecture and the other way round).
const cache::Package* find_logged(const cache::Cache& cache, const std::string& package) {
    const auto colon = package.rfind(':');
    if (colon == std::string::npos) return cache.find_package(package, cache.native_architecture());
    const std::string_view name = std::string_view(package).substr(0, colon);
    const std::string_view arch = std::string_view(package).substr(colon + 1);
    if (const cache::Package* p = cache.find_package(name, arch)) return p;
    if (arch == cache.native_architecture()) return cache.find_package(name, "all");
    if (arch == "all") return cache.find_package(name, cache.native_architecture());
    return nullptr;
}

}  // namespace

std::vector<std::string> target_words(const TargetState& target, std::string_view native_architecture) {
    std::vector<std::string> out;
    for (const PackageTarget& t : target)
        out.push_back(word_name(t.package, native_architecture) + (t.version.empty() ? "-" : "=" + t.version));
    return out;
}

Goal target_goal(const config::Config& config, system::SystemUniverse& su, const cache::Cache& cache,
                 const system::Candidates& candidates, const TargetState& target) {
    const std::string native(cache.native_architecture());
    std::vector<std::string> errors, words;
    std::vector<std::pair<const PackageTarget*, const cache::Package*>> named;
    for (const PackageTarget& t : target) {
        const cache::Package* p = find_logged(cache, t.package);
        const cache::Version* current = p ? cache.current_version(*p) : nullptr;
        if (t.version.empty()) {
            if (!current) continue;  // not installed already
        } else {
            const cache::Version* wanted = nullptr;
            if (p)
                for (const cache::Version& v : cache.versions_of(*p))
                    if (cache.str(v.version) == t.version && (&v == current || downloadable(cache, v))) wanted = &v;
            if (!wanted) {
                errors.push_back("Version " + t.version + " of " + word_name(t.package, native) +
                                 " is not available any more: no source has it and it is not installed");
                continue;
            }
            if (wanted == current && !t.reinstall) {
                // Installed as it should be: only a mark the log gives, if any.
                if (t.automatic && *t.automatic != ((p->flags & cache::kPackageAuto) != 0)) named.push_back({&t, p});
                continue;
            }
        }
        words.push_back(target_words({t}, native).front());
        named.push_back({&t, p});
    }
    if (!errors.empty()) {
        Goal goal;
        goal.request.errors = std::move(errors);
        return goal;
    }
    Goal goal = read_goal(config, su, cache, candidates, Verb::Install, words);
    request::CommandRequest& cr = goal.request;
    for (const auto& [t, p] : named) {
        if (!p) continue;
        const bool auto_now = (p->flags & cache::kPackageAuto) != 0;
        const bool installed = cache.current_version(*p) != nullptr;
        if (t->version.empty()) {
            if (t->purge) goal.purges.push_back(p);
            continue;
        }
        // Installed again at the version it has (redo of a reinstall).
        if (t->reinstall && std::find(cr.already_installed.begin(), cr.already_installed.end(), p) != cr.already_installed.end())
            cr.reinstall.push_back(p);
        // Naming a package makes it manual; the target keeps its mark or
        // gives the log's.
        const std::optional<bool> mark = t->automatic ? t->automatic : installed ? std::optional(auto_now) : std::nullopt;
        if (!mark) continue;
        goal.marks.push_back({p, *mark});
        std::erase(cr.now_manual, p);
        if (installed && !*mark && auto_now) cr.now_manual.push_back(p);
    }
    return goal;
}

}  // namespace aptus::install
