#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>

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

// The relation fields of every version (Depends ... Breaks, as they were
// written, nothing else of the stanza) and where each version's are, kept by
// the universe's relation source; index = the version's index in the universe.
// The text is kept in blocks of kBlock bytes (a version's fields never
// straddle two): one growing string would double its capacity, and the
// moment it moves holds both copies.
struct Relations {
    static constexpr size_t kBlock = size_t{1} << 20;
    struct Place {
        uint32_t block = 0;
        uint32_t offset = 0;
        uint32_t size = 0;
        uint32_t line = 0;
    };
    std::vector<std::string> blocks;
    std::string name;
    std::vector<Place> places;

    // The block the next `size` bytes go to.
    std::string& room_for(size_t size) {
        if (blocks.empty() || blocks.back().size() + size > blocks.back().capacity()) {
            blocks.emplace_back();
            blocks.back().reserve(std::max(kBlock, size));
        }
        return blocks.back();
    }
    std::string_view text(const Place& at) const {
        return std::string_view(blocks[at.block]).substr(at.offset, at.size);
    }
};

// The Request stanza's fields, kept as text: the stanza's own bytes are gone
// by the time the packages it names exist.
struct RequestFields {
    unsigned line = 0;
    std::string install, remove;
    bool upgrade = false;      // "Upgrade: yes", EDSP before 0.5
    bool upgrade_all = false;  // any of Upgrade, Upgrade-All, Dist-Upgrade
    std::optional<std::string> forbid_remove, forbid_new_install, strict_pinning, install_recommends,
        install_suggests;
    bool autoremove = false;
};

std::optional<std::string> field_text(const deb::Stanza& st, std::string_view name) {
    if (auto v = st.get(name)) return std::string(*v);
    return std::nullopt;
}

// Reads the scenario stanza by stanza out of pieces of the stream, so that
// only the universe and the relation fields stay: a scenario is 40-60 MB of
// text, two thirds of it fields the solver never reads.
class ScenarioReader {
public:
    ScenarioReader(Scenario& sc, std::string_view name) : sc_(sc), u_(sc.universe), name_(name) {
        relations_ = std::make_shared<Relations>();
        relations_->name = std::string(name);
    }

    // Reads the complete stanzas of `text` (which starts a stanza and ends
    // after one, or at the end of the scenario); `first_line` is its first
    // line's number in the scenario.
    void read(std::string_view text, uint32_t first_line) {
        deb::TagFileOptions options;
        options.first_line = first_line;
        deb::TagFileReader reader(text, name_, options);
        deb::Stanza st;
        while (reader.next(st)) {
            if (!seen_request_) {
                request(st);
                continue;
            }
            version(st);
        }
    }

    void finish() {
        if (!seen_request_) throw file_error(name_, 1, "an EDSP scenario starts with a Request stanza");
        u_.finalize();
        u_.relation_source = [relations = relations_](uint32_t v, NameInterner intern, std::vector<Dependency>& deps) {
            const Relations::Place& at = relations->places[v];
            parse_stanza_relations(intern, relations->text(at), relations->name, at.line, deps);
        };
        Request& r = sc_.request;
        for (auto w : split_words(req_.install)) r.install.push_back(request_package(u_, w, name_, req_.line));
        for (auto w : split_words(req_.remove)) r.remove.push_back(request_package(u_, w, name_, req_.line));
        r.upgrade_all = req_.upgrade_all;
        // EDSP before 0.5 said "Upgrade: yes" for apt-get upgrade (no removals, no
        // new packages); 0.5 writes the Forbid-* fields explicitly.
        r.forbid_remove = (req_.forbid_remove && yes(*req_.forbid_remove)) || (req_.upgrade && !req_.forbid_remove);
        r.forbid_new_install = (req_.forbid_new_install && yes(*req_.forbid_new_install)) ||
                               (req_.upgrade && !req_.forbid_new_install);
        r.autoremove = req_.autoremove;
        if (req_.strict_pinning) r.strict_pinning = !iequals(trim(*req_.strict_pinning), "no");
        if (req_.install_recommends) r.install_recommends = yes(*req_.install_recommends);
        if (req_.install_suggests) r.install_suggests = yes(*req_.install_suggests);
    }

private:
    void request(const deb::Stanza& st) {
        if (!st.get("Request")) throw file_error(name_, st.line, "an EDSP scenario starts with a Request stanza");
        seen_request_ = true;
        if (auto a = st.get("Architecture")) u_.native_arch = std::string(trim(*a));
        u_.architectures.push_back(u_.native_arch);
        for (auto a : split_words(st.value_or_empty("Architectures")))
            if (a != u_.native_arch) u_.architectures.emplace_back(a);
        req_.line = st.line;
        req_.install = std::string(st.value_or_empty("Install"));
        req_.remove = std::string(st.value_or_empty("Remove"));
        req_.upgrade = yes(st.value_or_empty("Upgrade"));
        req_.upgrade_all =
            req_.upgrade || yes(st.value_or_empty("Upgrade-All")) || yes(st.value_or_empty("Dist-Upgrade"));
        req_.forbid_remove = field_text(st, "Forbid-Remove");
        req_.forbid_new_install = field_text(st, "Forbid-New-Install");
        req_.autoremove = yes(st.value_or_empty("Autoremove"));
        req_.strict_pinning = field_text(st, "Strict-Pinning");
        req_.install_recommends = field_text(st, "Install-Recommends");
        req_.install_suggests = field_text(st, "Install-Suggests");
    }

    void version(const deb::Stanza& st) {
        auto pkg = st.get("Package");
        auto ver = st.get("Version");
        auto arch = st.get("Architecture");
        auto id = st.get("APT-ID");
        if (!pkg || !ver || !arch || !id)
            throw file_error(name_, st.line, "a package stanza needs Package, Version, Architecture and APT-ID");
        Version v;
        // A scenario lists a package's versions one after the other: the
        // package of the last stanza, and its texts, are looked up once.
        const std::string_view name = trim(*pkg), arch_text = trim(*arch);
        if (!last_package_ || name != last_name_ || arch_text != last_arch_.view()) {
            last_package_ = u_.package(name, arch_text);
            last_name_ = name;
            last_arch_ = u_.text(arch_text);
        }
        v.package = *last_package_;
        v.version = u_.text(trim(*ver));
        v.arch = last_arch_;
        v.id = u_.unique_text(trim(*id));
        if (auto pin = st.get("APT-Pin")) {
            std::string_view p = trim(*pin);
            int value = 0;
            auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), value);
            if (ec != std::errc() || ptr != p.data() + p.size())
                throw file_error(name_, st.line, "bad APT-Pin '" + std::string(p) + "'");
            v.pin = value;
        }
        v.multi_arch = multi_arch(st.value_or_empty("Multi-Arch"));
        v.installed = yes(st.value_or_empty("Installed"));
        v.candidate = yes(st.value_or_empty("APT-Candidate"));
        v.essential = yes(st.value_or_empty("Essential"));
        v.important = yes(st.value_or_empty("Protected")) || yes(st.value_or_empty("Important"));
        v.required = st.value_or_empty("Priority") == "required";
        v.hold = yes(st.value_or_empty("Hold"));
        const std::string_view source = trim(st.value_or_empty("Source"));
        v.source = source == last_source_.view() ? last_source_ : (last_source_ = u_.text(source));
        // Most binaries carry their source's version.
        const std::string_view source_version = trim(st.value_or_empty("Source-Version"));
        v.source_version = source_version == v.version.view() ? v.version : u_.text(source_version);
        if (yes(st.value_or_empty("APT-Automatic"))) u_.packages[v.package].automatic = true;
        try {
            if (const deb::Field* f = st.find("Provides")) {
                deb::parse_relations(f->value, deb::RelationField::Provides, rels_);
                for (const deb::Relation& rel : rels_.relations())
                    v.provides.push_back({u_.intern(rel.name), u_.text(rel.version), u_.text(rel.arch_qualifier)});
            }
        } catch (const Error& e) {
            throw e.with_context(name_ + ":" + std::to_string(st.line));
        }
        // The relation fields as a stanza of their own, parsed when the
        // solver first looks at this version.
        const deb::Field* fields[std::size(dep_fields)];
        size_t size = 0;
        for (size_t i = 0; i < std::size(dep_fields); ++i)
            if ((fields[i] = st.find(dep_fields[i].name))) size += dep_fields[i].name.size() + 3 + fields[i]->value.size();
        std::string& kept = relations_->room_for(size);
        const size_t offset = kept.size();
        for (size_t i = 0; i < std::size(dep_fields); ++i)
            if (fields[i]) {
                kept += dep_fields[i].name;
                kept += ": ";
                kept += fields[i]->value;
                kept += '\n';
            }
        v.deps_pending = true;
        relations_->places.push_back({uint32_t(relations_->blocks.size() - 1), uint32_t(offset), uint32_t(size),
                                      uint32_t(st.line)});
        u_.add_version(std::move(v));
    }

    Scenario& sc_;
    Universe& u_;
    std::string name_;
    std::shared_ptr<Relations> relations_;
    RequestFields req_;
    bool seen_request_ = false;
    // The last stanza's package and texts (see version()).
    std::optional<uint32_t> last_package_;
    std::string last_name_;
    Text last_arch_, last_source_;
    deb::RelationList rels_;
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

Scenario read_edsp(const ByteSource& source, std::string_view name) {
    Scenario sc;
    ScenarioReader reader(sc, name);
    // Whole stanzas are read as soon as an empty line ends them; the rest
    // waits for the next piece.
    std::string pending;
    uint32_t line = 1;
    constexpr size_t kPiece = size_t{1} << 20;
    for (;;) {
        const size_t had = pending.size();
        pending.resize(had + kPiece);
        const size_t got = source(pending.data() + had, kPiece);
        pending.resize(had + got);
        const bool end = got == 0;
        size_t cut = end ? pending.size() : pending.rfind("\n\n");
        if (cut == std::string::npos) continue;
        if (!end) cut += 2;
        const std::string_view whole(pending.data(), cut);
        reader.read(whole, line);
        line += uint32_t(std::count(whole.begin(), whole.end(), '\n'));
        pending.erase(0, cut);
        if (end) break;
    }
    reader.finish();
    return sc;
}

Scenario read_edsp(std::string text, std::string_view name) {
    size_t at = 0;
    return read_edsp(
        [&](char* buffer, size_t size) {
            const size_t n = std::min(size, text.size() - at);
            std::memcpy(buffer, text.data() + at, n);
            at += n;
            return n;
        },
        name);
}

}  // namespace aptus::edsp
