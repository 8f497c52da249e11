#include "aptus/install/satisfy.hpp"

#include <algorithm>
#include <cctype>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/architecture.hpp"
#include "aptus/deb/relation.hpp"

namespace aptus::install {
namespace {

Error problem(std::string_view word) { return Error("Problem parsing dependency: " + std::string(word)); }

// dpkg's obsolete '<' and '>' (meaning <= and >=), which apt refuses here
// rather than guess.
void refuse_obsolete_operators(std::string_view word) {
    for (size_t i = 0; i < word.size(); ++i) {
        if (word[i] != '(') continue;
        size_t op = i + 1;
        while (op < word.size() && std::isspace(static_cast<unsigned char>(word[op]))) ++op;
        if (op >= word.size() || (word[op] != '<' && word[op] != '>')) continue;
        const char c = word[op];
        const char next = op + 1 < word.size() ? word[op + 1] : '\0';
        if (next == c || next == '=') continue;
        const std::string twice(2, c), with_equal = std::string(1, c) + "=";
        throw Error("Invalid operator '" + std::string(1, c) + "' at offset " + std::to_string(op) + ", did you mean '" +
                    twice + "' or '" + with_equal + "'? - in: " + std::string(word));
    }
}

// One word read: its relation list and whether it lists Conflicts.
struct ReadWord {
    deb::RelationList list;
    bool conflicts = false;
};

void read_word(std::string_view word, ReadWord& out) {
    std::string_view text = trim(word);
    if (text.empty()) throw problem(word);
    out.conflicts = text.substr(0, 10) == "Conflicts:";
    if (out.conflicts) text = trim(text.substr(10));
    // Another field's name ("Recommends: foo") is no relation.
    else if (size_t colon = text.find(':'); colon != std::string_view::npos && colon + 1 < text.size() &&
                                            std::isspace(static_cast<unsigned char>(text[colon + 1])))
        throw problem(word);
    refuse_obsolete_operators(word);
    try {
        deb::parse_relations(text, out.conflicts ? deb::RelationField::BuildConflicts : deb::RelationField::BuildDepends,
                             out.list);
    } catch (const Error&) {
        throw problem(word);
    }
    if (out.list.group_count() == 0) throw problem(word);
}

// The groups of a word that apply on `host` with `profiles` active, as the
// solver's relations.
void add_relations(solver::Universe& u, const ReadWord& w, std::string_view host,
                   std::span<const std::string_view> profiles, std::vector<solver::Dependency>& out) {
    const solver::DepKind kind = w.conflicts ? solver::DepKind::Conflicts : solver::DepKind::Depends;
    for (std::span<const deb::Relation> group : w.list.groups()) {
        std::vector<solver::Target> alternatives;
        for (const deb::Relation& r : group) {
            if (!deb::arch_restrictions_match(w.list.arch_restrictions(r), host)) continue;
            if (!deb::profiles_match(w.list, r, profiles)) continue;
            solver::Target t;
            t.name = u.intern(r.name);
            t.arch = std::string(r.arch_qualifier);
            t.op = r.op;
            t.version = std::string(r.version);
            alternatives.push_back(std::move(t));
        }
        if (alternatives.empty()) continue;
        if (w.conflicts) {
            for (solver::Target& t : alternatives) out.push_back({kind, {std::move(t)}});
        } else {
            out.push_back({kind, std::move(alternatives)});
        }
    }
}

}  // namespace

void check_satisfy_words(std::span<const std::string> words) {
    for (const std::string& word : words) {
        ReadWord w;
        read_word(word, w);
    }
}

uint32_t add_satisfy_placeholder(system::SystemUniverse& su, const config::Config& config,
                                 std::span<const std::string> words, std::string_view name) {
    solver::Universe& u = su.universe;
    std::string host = config.find("APT::Get::Host-Architecture");
    if (host.empty()) host = u.native_arch;
    // A value ("a,b" as well as "a b", from -P or a file), else the list
    // items (DEB_BUILD_PROFILES).
    const std::string profile_text = config.find("APT::Build-Profiles");
    const std::vector<std::string> profile_items = config.find_list("APT::Build-Profiles");
    std::vector<std::string_view> profiles;
    for (std::string_view p : split_words(profile_text))
        for_each_list_item(p, [&](std::string_view one) { profiles.push_back(one); });
    if (profile_text.empty())
        for (const std::string& p : profile_items) profiles.push_back(p);

    solver::Version v;
    v.version = u.text("1");
    v.arch = u.text(host);
    // A number as every APT-ID (apt's solvers read them so), past the cache's.
    v.id = u.unique_text(std::to_string(std::max(su.universe_version.size(), su.universe.versions.size())));
    v.candidate = true;
    for (const std::string& word : words) {
        ReadWord w;
        read_word(word, w);
        add_relations(u, w, host, profiles, v.deps);
    }
    v.package = u.package(name, host);
    const uint32_t added = u.add_version(std::move(v));
    u.finalize();
    // The placeholder has no record in the cache.
    su.cache_version.resize(u.versions.size(), ~uint32_t{0});
    (void)added;
    return u.versions[added].package;
}

std::vector<uint32_t> placeholder_satisfiers(const system::SystemUniverse& su, uint32_t placeholder,
                                             const solver::Solution& solution) {
    const solver::Universe& u = su.universe;
    std::vector<uint8_t> chosen(u.versions.size(), 0);
    for (uint32_t v : solution.selected) chosen[v] = 1;
    std::vector<uint32_t> out, sats;
    for (uint32_t v : u.packages[placeholder].versions) {
        if (!chosen[v]) continue;
        for (const solver::Dependency& d : u.deps(v)) {
            if (d.kind != solver::DepKind::Depends) continue;
            bool met = false;
            for (const solver::Target& t : d.alternatives) {
                sats.clear();
                u.satisfiers(v, t, sats);
                for (uint32_t sat : sats)
                    if (chosen[sat]) {
                        const uint32_t p = u.versions[sat].package;
                        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
                        met = true;
                        break;
                    }
                if (met) break;
            }
        }
    }
    return out;
}

void drop_placeholder(const system::SystemUniverse& su, uint32_t placeholder, solver::Solution& solution) {
    auto is_placeholder = [&](uint32_t version) { return su.universe.versions[version].package == placeholder; };
    std::erase_if(solution.install, is_placeholder);
    std::erase_if(solution.remove, is_placeholder);
    std::erase_if(solution.autoremove, is_placeholder);
    std::erase_if(solution.selected, is_placeholder);
}

}  // namespace aptus::install
