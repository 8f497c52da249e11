#include <charconv>
#include <memory>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/relation.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/edsp/edsp.hpp"
#include "aptus/edsp/stanza_relations.hpp"

namespace aptus::edsp {

using namespace solver;
namespace {

bool yes(std::string_view v) { return iequals(trim(v), "yes"); }

MultiArch multi_arch(std::string_view v) {
    v = trim(v);
    if (iequals(v, "same")) return MultiArch::Same;
    if (iequals(v, "foreign")) return MultiArch::Foreign;
    if (iequals(v, "allowed")) return MultiArch::Allowed;
    return MultiArch::No;
}

// "name:arch" as the request writes it; a name without ":" is native.
uint32_t request_package(Universe& u, std::string_view word, std::string_view file, unsigned line) {
    std::string_view name = word, arch = u.native_arch;
    if (auto colon = word.rfind(':'); colon != std::string_view::npos) {
        name = word.substr(0, colon);
        arch = word.substr(colon + 1);
    }
    auto p = u.find_package(name, arch);
    if (!p) throw file_error(file, line, "the request names '" + std::string(word) + "', which the scenario does not hold");
    return *p;
}

struct FieldKind {
    std::string_view name;
    deb::RelationField field;
    DepKind kind;
};
constexpr FieldKind dep_fields[] = {
    {"Depends", deb::RelationField::Depends, DepKind::Depends},
    {"Pre-Depends", deb::RelationField::PreDepends, DepKind::PreDepends},
    {"Recommends", deb::RelationField::Recommends, DepKind::Recommends},
    {"Suggests", deb::RelationField::Suggests, DepKind::Suggests},
    {"Conflicts", deb::RelationField::Conflicts, DepKind::Conflicts},
    {"Breaks", deb::RelationField::Breaks, DepKind::Breaks},
};

// The scenario text and where each version's stanza is in it, kept by the
// universe's relation source; index = the version's index in the universe.
struct Stanzas {
    struct Place {
        size_t offset = 0;
        uint32_t size = 0;
        uint32_t line = 0;
    };
    std::string text;
    std::string name;
    std::vector<Place> places;
};

}  // namespace

void parse_stanza_relations(NameInterner intern, std::string_view stanza, std::string_view file, uint32_t line,
                            std::vector<Dependency>& out) {
    deb::TagFileReader reader(stanza, std::string(file));
    deb::Stanza st;
    if (!reader.next(st)) return;
    deb::RelationList rels;
    try {
        for (const FieldKind& fk : dep_fields) {
            const deb::Field* f = st.find(fk.name);
            if (!f) continue;
            deb::parse_relations(f->value, fk.field, rels);
            for (std::span<const deb::Relation> alts : rels.groups()) {
                Dependency d;
                d.kind = fk.kind;
                for (const deb::Relation& rel : alts)
                    d.alternatives.push_back({intern(rel.name), std::string(rel.arch_qualifier), rel.op, std::string(rel.version)});
                out.push_back(std::move(d));
            }
        }
    } catch (const Error& e) {
        throw e.with_context(std::string(file) + ":" + std::to_string(line));
    }
}

Scenario read_edsp(std::string owned_text, std::string_view name) {
    Scenario sc;
    Universe& u = sc.universe;
    auto stanzas = std::make_shared<Stanzas>();
    stanzas->text = std::move(owned_text);
    stanzas->name = std::string(name);
    std::string_view text = stanzas->text;
    Request& r = sc.request;
    deb::TagFileReader reader(text, std::string(name));
    deb::Stanza st;
    if (!reader.next(st) || !st.get("Request"))
        throw file_error(name, 1, "an EDSP scenario starts with a Request stanza");
    deb::Stanza req = st;  // views into `text`, which outlives this function
    std::string_view file = name;
    if (auto a = req.get("Architecture")) u.native_arch = std::string(trim(*a));
    u.architectures.push_back(u.native_arch);
    for (auto a : split_words(req.value_or_empty("Architectures")))
        if (a != u.native_arch) u.architectures.emplace_back(a);

    deb::RelationList rels;
    // One stanza per version: counting them first spares the moves of a growing vector.
    size_t count = 0;
    for (size_t at = text.find("\nPackage:"); at != std::string_view::npos; at = text.find("\nPackage:", at + 1)) ++count;
    u.versions.reserve(count);
    stanzas->places.reserve(count);
    while (reader.next(st)) {
        auto pkg = st.get("Package");
        auto ver = st.get("Version");
        auto arch = st.get("Architecture");
        auto id = st.get("APT-ID");
        if (!pkg || !ver || !arch || !id)
            throw file_error(file, st.line, "a package stanza needs Package, Version, Architecture and APT-ID");
        Version v;
        v.package = u.package(trim(*pkg), trim(*arch));
        v.version = u.text(trim(*ver));
        v.arch = u.text(trim(*arch));
        v.id = u.text(trim(*id));
        if (auto pin = st.get("APT-Pin")) {
            std::string_view p = trim(*pin);
            int value = 0;
            auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), value);
            if (ec != std::errc() || ptr != p.data() + p.size())
                throw file_error(file, st.line, "bad APT-Pin '" + std::string(p) + "'");
            v.pin = value;
        }
        v.multi_arch = multi_arch(st.value_or_empty("Multi-Arch"));
        v.installed = yes(st.value_or_empty("Installed"));
        v.candidate = yes(st.value_or_empty("APT-Candidate"));
        v.essential = yes(st.value_or_empty("Essential"));
        v.important = yes(st.value_or_empty("Protected")) || yes(st.value_or_empty("Important"));
        v.required = st.value_or_empty("Priority") == "required";
        v.hold = yes(st.value_or_empty("Hold"));
        v.source = u.text(trim(st.value_or_empty("Source")));
        v.source_version = u.text(trim(st.value_or_empty("Source-Version")));
        if (yes(st.value_or_empty("APT-Automatic"))) u.packages[v.package].automatic = true;
        try {
            if (const deb::Field* f = st.find("Provides")) {
                deb::parse_relations(f->value, deb::RelationField::Provides, rels);
                for (const deb::Relation& rel : rels.relations())
                    v.provides.push_back({u.intern(rel.name), u.text(rel.version), u.text(rel.arch_qualifier)});
            }
        } catch (const Error& e) {
            throw e.with_context(std::string(file) + ":" + std::to_string(st.line));
        }
        v.deps_pending = true;
        stanzas->places.push_back({size_t(st.raw.data() - text.data()), uint32_t(st.raw.size()), uint32_t(st.line)});
        u.add_version(std::move(v));
    }
    u.finalize();
    u.relation_source = [stanzas](uint32_t v, NameInterner intern, std::vector<Dependency>& deps) {
        const Stanzas::Place& at = stanzas->places[v];
        parse_stanza_relations(intern, std::string_view(stanzas->text).substr(at.offset, at.size), stanzas->name, at.line,
                               deps);
    };

    for (auto w : split_words(req.value_or_empty("Install")))
        r.install.push_back(request_package(u, w, file, req.line));
    for (auto w : split_words(req.value_or_empty("Remove")))
        r.remove.push_back(request_package(u, w, file, req.line));
    r.upgrade_all = yes(req.value_or_empty("Upgrade-All")) || yes(req.value_or_empty("Upgrade")) ||
                    yes(req.value_or_empty("Dist-Upgrade"));
    // EDSP before 0.5 said "Upgrade: yes" for apt-get upgrade (no removals, no
    // new packages); 0.5 writes the Forbid-* fields explicitly.
    bool old_upgrade = yes(req.value_or_empty("Upgrade"));
    r.forbid_remove = yes(req.value_or_empty("Forbid-Remove")) || (old_upgrade && !req.get("Forbid-Remove"));
    r.forbid_new_install = yes(req.value_or_empty("Forbid-New-Install")) || (old_upgrade && !req.get("Forbid-New-Install"));
    r.autoremove = yes(req.value_or_empty("Autoremove"));
    if (auto sp = req.get("Strict-Pinning")) r.strict_pinning = !iequals(trim(*sp), "no");
    if (auto ir = req.get("Install-Recommends")) r.install_recommends = yes(*ir);
    if (auto is = req.get("Install-Suggests")) r.install_suggests = yes(*is);
    return sc;
}

}  // namespace aptus::edsp
