// Packages and dpkg status stanzas into package and version records.
#include <array>
#include <unordered_map>

#include <optional>

#include "aptus/base/compression.hpp"
#include "aptus/base/file.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "build_state.hpp"
#include "status_words.hpp"

namespace aptus::cache::detail {
namespace {

using F = BinaryField;
constexpr F kOther = kFieldCount;

// `name` is `want` in any case; the canonical spelling is checked inline
// first, as every archive writes it.
template <size_t N>
bool is_field(std::string_view name, const char (&want)[N]) {
    std::string_view w(want, N - 1);
    return name == w || iequals(name, w);
}

// The fields the cache keeps, found by length and first letter, so that a
// name costs one comparison and a field the cache does not keep (Filename,
// Homepage, MD5sum, SHA256, Maintainer, Tag...) mostly none: the name
// comparisons were a tenth of preparing a stanza.
F classify(std::string_view n) {
    // The one long name the cache keeps, outside the table's range.
    if (n.size() == 24) return is_field(n, "Phased-Update-Percentage") ? kPhased : kOther;
    if (n.size() < 4 || n.size() > 15) return kOther;
    switch (n.size() * 32 + (n[0] | 0x20) - 'a') {
#define APTUS_FIELD(lit, id) \
    case (sizeof(lit) - 1) * 32 + (lit[0] | 0x20) - 'a': \
        return is_field(n, lit) ? id : kOther;
#define APTUS_FIELD2(lit, id, lit2, id2) \
    case (sizeof(lit) - 1) * 32 + (lit[0] | 0x20) - 'a': \
        return is_field(n, lit) ? id : is_field(n, lit2) ? id2 : kOther;
        APTUS_FIELD("Size", kSize)
        APTUS_FIELD2("Source", kSource, "Status", kStatus)
        APTUS_FIELD("Breaks", kBreaks)
        APTUS_FIELD("Package", kPackage)
        APTUS_FIELD("Version", kVersion)
        APTUS_FIELD("Section", kSection)
        APTUS_FIELD("Depends", kDepends)
        APTUS_FIELD2("Priority", kPriority, "Provides", kProvides)
        APTUS_FIELD("Suggests", kSuggests)
        APTUS_FIELD("Replaces", kReplaces)
        APTUS_FIELD("Enhances", kEnhances)
        APTUS_FIELD("Essential", kEssential)
        APTUS_FIELD("Important", kImportant)
        APTUS_FIELD("Protected", kProtected)
        APTUS_FIELD("Conflicts", kConflicts)
        APTUS_FIELD("Multi-Arch", kMultiArch)
        APTUS_FIELD("Recommends", kRecommends)
        APTUS_FIELD("Description", kDescription)
        APTUS_FIELD("Description-en", kDescriptionEn)
        APTUS_FIELD("Pre-Depends", kPreDepends)
        APTUS_FIELD("Architecture", kArchitecture)
        APTUS_FIELD("Installed-Size", kInstalledSize)
        APTUS_FIELD("Description-md5", kDescriptionMd5)
#undef APTUS_FIELD
#undef APTUS_FIELD2
    }
    return kOther;
}

// The description a stanza carries: its Description, else the English one
// some archives give only as Description-en (apt reads that as a translation
// for "en", so search and show find it).
template <class Values>
std::string_view own_description(const Values& val) {
    return val[kDescription].empty() ? val[kDescriptionEn] : val[kDescription];
}

uint64_t parse_number(std::string_view s) {
    uint64_t v = 0;
    for (char c : trim(s)) {
        if (!is_digit(c)) return v;
        v = v * 10 + uint64_t(c - '0');
    }
    return v;
}

Priority parse_priority(std::string_view s) {
    if (iequals(s, "required")) return Priority::Required;
    if (iequals(s, "important")) return Priority::Important;
    if (iequals(s, "standard")) return Priority::Standard;
    if (iequals(s, "optional")) return Priority::Optional;
    if (iequals(s, "extra")) return Priority::Extra;
    return Priority::Unknown;
}

MultiArch parse_multi_arch(std::string_view s) {
    if (iequals(s, "same")) return MultiArch::Same;
    if (iequals(s, "foreign")) return MultiArch::Foreign;
    if (iequals(s, "allowed")) return MultiArch::Allowed;
    return MultiArch::No;
}

constexpr deb::RelationField kRelationFields[] = {
    deb::RelationField::Depends, deb::RelationField::PreDepends, deb::RelationField::Recommends,
    deb::RelationField::Suggests, deb::RelationField::Enhances, deb::RelationField::Breaks,
    deb::RelationField::Conflicts, deb::RelationField::Replaces,
};

// Phased-Update-Percentage as the flags keep it; apt ignores a value above
// 100 (with a warning) and treats a missing one as 100.
uint16_t phase_flags(std::string_view value) {
    std::string_view digits = trim(value);
    if (digits.empty() || digits.size() > 3) return 0;
    unsigned n = 0;
    for (char c : digits) {
        if (!is_digit(c)) return 0;
        n = n * 10 + unsigned(c - '0');
    }
    return n < 100 ? uint16_t((n + 1) << kVersionPhaseShift) : 0;
}

std::string_view first_line(std::string_view v) { return v.substr(0, std::min(v.find('\n'), v.size())); }

}  // namespace

uint32_t BuildState::package(uint32_t name_index, StringId arch) {
    if (name_index >= first_package_of_name.size())
        first_package_of_name.resize(std::max<size_t>(name_index + 1, first_package_of_name.size() * 2), kNone);
    uint32_t* link = &first_package_of_name[name_index];
    for (; *link != kNone; link = &next_package_of_name[*link])
        if (packages[*link].architecture == arch) return *link;
    auto id = uint32_t(packages.size());
    *link = id;
    Package p{};
    p.name = name_index;
    p.architecture = arch;
    p.first_version = kNone;
    p.current_version = kNone;
    packages.push_back(p);
    next_package_of_name.push_back(kNone);
    return id;
}

uint32_t BuildState::find_package(StringId name, StringId arch) const {
    if (name >= name_of_string.size() || name_of_string[name] == kNone) return kNone;
    uint32_t n = name_of_string[name];
    if (n >= first_package_of_name.size()) return kNone;
    for (uint32_t p = first_package_of_name[n]; p != kNone; p = next_package_of_name[p])
        if (packages[p].architecture == arch) return p;
    return kNone;
}

void prepare_binary_stanza(const deb::Stanza& s, const TextPiece& piece, deb::RelationList& scratch,
                           std::vector<PreparedStanza::Relation>& store, PreparedStanza& out) {
    out.value.fill({});
    std::array<uint32_t, kFieldCount> line{};
    for (const deb::Field& field : s.fields) {
        F k = classify(field.name);
        // A field given twice: the last one counts, as apt reads it.
        if (k != kOther) {
            out.value[k] = field.value;
            line[k] = field.line;
        }
    }
    auto hashed = [](std::string_view v) { return Hashed{v, v.empty() ? 0 : hash_string(v)}; };
    const auto& val = out.value;
    out.line = s.line;
    out.offset = piece.offset_of(s.raw.data());
    out.length = uint32_t(s.raw.size());
    out.package = hashed(val[kPackage]);
    out.architecture = hashed(val[kArchitecture]);
    out.version = hashed(trim(val[kVersion]));
    out.section = hashed(val[kSection]);
    out.source_version_given = false;
    out.source_name = out.source_version = {};
    if (std::string_view src = val[kSource]; !src.empty()) {
        size_t paren = src.find('(');
        out.source_name = hashed(trim(src.substr(0, paren)));
        if (paren != std::string_view::npos) {
            std::string_view rest = src.substr(paren + 1);
            out.source_version = hashed(trim(rest.substr(0, rest.find(')'))));
            out.source_version_given = true;
        }
    }
    std::string_view desc = own_description(val);
    out.short_description = hashed(first_line(desc));
    out.description_offset = desc.empty() ? 0 : piece.offset_of(desc.data());
    out.description_md5 = parse_md5(val[kDescriptionMd5]);

    out.relation_errors.clear();
    out.relations = nullptr;
    out.relations_begin = uint32_t(store.size());
    auto add_relations = [&](F k, deb::RelationField kind, uint8_t type) {
        if (val[k].data() == nullptr) return;
        try {
            deb::parse_relations(val[k], kind, scratch);
        } catch (const Error& e) {
            out.relation_errors.push_back({line[k], e.what()});
            return;
        }
        for (auto group : scratch.groups()) {
            for (size_t a = 0; a < group.size(); ++a) {
                const deb::Relation& r = group[a];
                store.push_back({hashed(r.name), hashed(r.version), hashed(r.arch_qualifier), type, uint8_t(r.op),
                              uint8_t(a + 1 < group.size() ? kDepOrNext : 0)});
            }
        }
    };
    for (int i = 0; i < 8; ++i) add_relations(F(kDepends + i), kRelationFields[i], uint8_t(i));
    out.depends_count = uint32_t(store.size()) - out.relations_begin;
    add_relations(kProvides, deb::RelationField::Provides, 0);
    out.provides_count = uint32_t(store.size()) - out.relations_begin - out.depends_count;
}

void prefetch_binary_stanza(const BuildState& st, const PreparedStanza& s) {
    st.pool.prefetch(s.package.hash);
    st.pool.prefetch(s.version.hash);
    for (const PreparedStanza::Relation& r : s.depends()) {
        st.pool.prefetch(r.name.hash);
        if (!r.version.text.empty()) st.pool.prefetch(r.version.hash);
    }
    for (const PreparedStanza::Relation& r : s.provides()) st.pool.prefetch(r.name.hash);
}

namespace {

// Whether the stanza `s` carries the data of `v` that apt's version hash and
// SameVersion look at (see add_binary_stanza).
bool same_version_data(const BuildState& st, const Version& v, const PreparedStanza& s) {
    const auto& val = s.value;
    if (v.installed_size != uint32_t(std::min<uint64_t>(parse_number(val[kInstalledSize]), UINT32_MAX))) return false;
    uint64_t size = parse_number(val[kSize]);
    uint64_t v_size = uint64_t(v.size_low) | (uint64_t(v.size_high) << 32);
    if (size != 0 && v_size != 0 && size != v_size) return false;
    if (v.multi_arch != parse_multi_arch(val[kMultiArch])) return false;
    auto hashed_type = [](uint8_t t) {
        auto d = DepType(t);
        return d == DepType::Depends || d == DepType::PreDepends || d == DepType::Conflicts ||
               d == DepType::Breaks || d == DepType::Replaces;
    };
    auto mine = std::span<const Dependency>(st.dependencies.data() + v.first_dependency, v.dependency_count);
    auto a = mine.begin();
    for (const PreparedStanza::Relation& r : s.depends()) {
        if (!hashed_type(r.type)) continue;
        while (a != mine.end() && !hashed_type(uint8_t(a->type))) ++a;
        if (a == mine.end()) return false;
        if (uint8_t(a->type) != r.type || uint8_t(a->op) != r.op || a->flags != r.flags) return false;
        if (!iequals(st.pool.view(st.names[a->target]), r.name.text)) return false;
        if (st.pool.view(a->version) != r.version.text) return false;
        if (st.pool.view(a->arch_qualifier) != r.arch_qualifier.text) return false;
        ++a;
    }
    while (a != mine.end() && !hashed_type(uint8_t(a->type))) ++a;
    return a == mine.end();
}

}  // namespace

void add_binary_stanza(BuildState& st, const PreparedStanza& s, uint32_t file, StringId index_arch, bool from_status,
                       const std::string& file_name) {
    const auto& val = s.value;
    if (val[kPackage].empty()) {
        st.warn(file_name + ":" + std::to_string(s.line) + ": stanza without Package field skipped");
        return;
    }
    auto intern = [&](const Hashed& h) { return h.text.empty() ? StringId(0) : st.pool.intern(h.text, h.hash); };
    std::string_view arch_text = val[kArchitecture];
    StringId arch = arch_text.empty() ? st.native_arch : intern(s.architecture);
    // Architecture-independent packages are filed under the native
    // architecture, as apt does, whichever architecture's index lists them:
    // the copies in binary-amd64 and binary-i386 are one version with two
    // files ("all" is not a package architecture).
    StringId pkg_arch = arch_text == "all" ? st.native_arch : arch;
    StringId name_str = intern(s.package);
    uint32_t pkg = st.package(st.name(name_str), pkg_arch);

    if (from_status) {
        Package& p = st.packages[pkg];
        p.flags |= kPackageInStatus;
        if (!parse_status_words(val[kStatus], p.selection, p.status_flag, p.state))
            st.warn(file_name + ":" + std::to_string(s.line) + ": bad Status '" + std::string(val[kStatus]) + "' for " +
                    std::string(val[kPackage]));
    }
    if (val[kVersion].empty()) {
        if (!from_status) st.warn(file_name + ":" + std::to_string(s.line) + ": stanza without Version skipped");
        return;
    }
    StringId ver_str = intern(s.version);

    // The same version in several files is one version with several files;
    // the first file listed keeps its data. As in apt, a stanza of the same
    // version string whose relations or sizes differ is another version
    // (apt's version hash: Installed-Size, Depends, Pre-Depends, Conflicts,
    // Breaks, Replaces; then Size and Multi-Arch), read after the first so
    // it sorts after it. The status too: an installed version whose
    // relations differ from the archive's of the same string is another
    // version, and the archive's is an upgrade of it (apt's rule).
    // A half-installed package's record is what dpkg wrote before the
    // unpack finished (its fields may be missing): it joins the archive's
    // version of its string, which a run again must fetch.
    uint32_t ver = kNone, first_read = kNone;
    for (uint32_t v = st.packages[pkg].first_version; v != kNone; v = st.next_version[v]) {
        if (st.versions[v].version != ver_str) continue;
        first_read = v;  // the list is newest-read first
        if (same_version_data(st, st.versions[v], s)) ver = v;  // the first read that matches
    }
    if (ver == kNone && from_status && st.packages[pkg].state == InstallState::HalfInstalled) ver = first_read;
    if (ver == kNone) {
        ver = uint32_t(st.versions.size());
        Version v{};
        v.package = pkg;
        v.version = ver_str;
        v.architecture = arch;
        v.section = intern(s.section);
        if (!val[kSource].empty()) {
            v.source_name = intern(s.source_name);
            v.source_version = s.source_version_given ? intern(s.source_version) : ver_str;
        } else {
            v.source_name = name_str;
            v.source_version = ver_str;
        }
        v.short_description = intern(s.short_description);
        v.description_file = kNone;
        // The stanza's own Description first: multi-line in status files and
        // many third-party archives; Debian's Packages hold the short line
        // only and a Translation file found by Description-md5 replaces it.
        if (!own_description(val).empty()) {
            v.description_file = file;
            v.description_offset = s.description_offset;
            v.description_length = uint32_t(own_description(val).size());
        }
        v.installed_size = uint32_t(std::min<uint64_t>(parse_number(val[kInstalledSize]), UINT32_MAX));
        uint64_t size = parse_number(val[kSize]);
        v.size_low = uint32_t(size);
        v.size_high = uint32_t(size >> 32);
        v.priority = parse_priority(val[kPriority]);
        v.multi_arch = parse_multi_arch(val[kMultiArch]);
        if (iequals(val[kEssential], "yes")) v.flags |= kVersionEssential;
        if (iequals(val[kImportant], "yes")) v.flags |= kVersionImportant;
        if (iequals(val[kProtected], "yes")) v.flags |= kVersionProtected;
        v.flags |= phase_flags(val[kPhased]);

        for (const PreparedStanza::RelationError& e : s.relation_errors)
            st.warn(file_name + ":" + std::to_string(e.line) + ": " + e.what);
        v.first_dependency = uint32_t(st.dependencies.size());
        for (const PreparedStanza::Relation& r : s.depends()) {
            Dependency d{};
            d.target = st.name(intern(r.name));
            d.version = intern(r.version);
            d.arch_qualifier = intern(r.arch_qualifier);
            d.type = DepType(r.type);
            d.op = DepOp(r.op);
            d.flags = r.flags;
            st.dependencies.push_back(d);
        }
        v.dependency_count = uint32_t(st.dependencies.size()) - v.first_dependency;
        v.first_provide = uint32_t(st.provides.size());
        for (const PreparedStanza::Relation& r : s.provides()) {
            uint32_t target = st.name(intern(r.name));
            st.provides.push_back({ver, target, intern(r.version), intern(r.arch_qualifier)});
        }
        v.provide_count = uint32_t(st.provides.size()) - v.first_provide;
        st.versions.push_back(v);
        st.next_version.push_back(st.packages[pkg].first_version);
        st.version_md5.push_back(s.description_md5);
        st.packages[pkg].first_version = ver;
        ++st.packages[pkg].version_count;
    }
    st.files.push_back({ver, file, s.offset, s.length});
    if (from_status) {
        Version& v = st.versions[ver];
        v.flags |= kVersionInStatus;
        // The status has the long description of what is installed even when
        // the archive's stanza left it to a Translation file.
        std::string_view desc = val[kDescription];
        bool short_only = v.description_file == kNone || v.description_length == first_line(desc).size();
        if (short_only && desc.find('\n') != std::string_view::npos) {
            v.description_file = file;
            v.description_offset = s.description_offset;
            v.description_length = uint32_t(desc.size());
        }
        Package& p = st.packages[pkg];
        if (p.state != InstallState::NotInstalled && p.state != InstallState::ConfigFiles) p.current_version = ver;
    }
}

void add_source_stanza(BuildState& st, const deb::Stanza& s, const TextPiece& piece, uint32_t file) {
    SourcePackage p{};
    p.name = st.pool.intern(s.value_or_empty("Package"));
    p.version = st.pool.intern(trim(s.value_or_empty("Version")));
    p.binaries = st.pool.intern(s.value_or_empty("Binary"));
    p.section = st.pool.intern(s.value_or_empty("Section"));
    p.maintainer = st.pool.intern(s.value_or_empty("Maintainer"));
    p.directory = st.pool.intern(s.value_or_empty("Directory"));
    p.index_file = file;
    p.offset = piece.offset_of(s.raw.data());
    p.length = uint32_t(s.raw.size());
    st.sources.push_back(p);
}

// Hex digit values, 0x10 for every other byte: a table and no branch per
// digit (with branches, the random mix of digits and letters mispredicts
// about every other one).
constexpr std::array<uint8_t, 256> kHexValue = [] {
    std::array<uint8_t, 256> v{};
    for (auto& x : v) x = 0x10;
    for (int c = '0'; c <= '9'; ++c) v[c] = uint8_t(c - '0');
    for (int c = 'a'; c <= 'f'; ++c) v[c] = uint8_t(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; ++c) v[c] = uint8_t(c - 'A' + 10);
    return v;
}();

Md5 parse_md5(std::string_view hex) {
    if (hex.size() != 32) return {};
    uint64_t half[2] = {0, 0};
    unsigned bad = 0;
    for (size_t i = 0; i < 32; ++i) {
        unsigned d = kHexValue[static_cast<unsigned char>(hex[i])];
        bad |= d;
        half[i / 16] = half[i / 16] << 4 | (d & 0xf);
    }
    if (bad & 0x10) return {};
    return {half[1], half[0]};
}

void add_translation_stanza(Translations& t, const deb::Stanza& s, const TextPiece& piece, uint32_t file,
                            bool replaces_short) {
    const deb::Field* md5 = nullptr;
    const deb::Field* desc = nullptr;
    for (const deb::Field& f : s.fields) {
        if (iequals(f.name, "Description-md5")) md5 = &f;
        else if (f.name.size() > 12 && iequals(f.name.substr(0, 12), "Description-")) desc = &f;
    }
    if (md5 == nullptr || desc == nullptr) return;
    t.add(parse_md5(md5->value), file, piece.offset_of(desc->value.data()), uint32_t(desc->value.size()),
          replaces_short);
}

bool needs_translated_short_descriptions(const BuildState& st) {
    for (size_t i = 0; i < st.versions.size(); ++i)
        if (st.versions[i].short_description == 0 && !st.version_md5[i].empty()) return true;
    return false;
}

void resolve_long_descriptions(const BuildState& st, const Translations& t, HugeVector<Version>& versions,
                               const HugeVector<uint32_t>& new_index) {
    for (size_t i = 0; i < st.version_md5.size(); ++i) {
        const Translations::Entry* e = t.find(st.version_md5[i]);
        if (e == nullptr) continue;
        Version& v = versions[new_index[i]];
        v.description_file = e->file;
        v.description_offset = e->offset;
        v.description_length = e->length;
    }
}

void resolve_descriptions(BuildState& st, const Translations& t) {
    // Translation files mapped again only for a version without a short
    // description of its own (rare: Packages files carry the short line).
    struct Text {
        std::optional<MappedFile> map;
        std::string data;
        std::string_view view;
    };
    std::unordered_map<uint32_t, Text> mapped;
    for (size_t i = 0; i < st.versions.size(); ++i) {
        Version& v = st.versions[i];
        const Translations::Entry* e = t.find(st.version_md5[i]);
        if (e == nullptr) continue;
        v.description_file = e->file;
        v.description_offset = e->offset;
        v.description_length = e->length;
        if (v.short_description != 0 && !e->replaces_short) continue;
        auto it = mapped.find(e->file);
        if (it == mapped.end()) {
            std::string path(st.pool.view(st.index_files[e->file].path));
            try {
                it = mapped.try_emplace(e->file).first;
                Text& text = it->second;
                if (compression_from_path(path) == Compression::None) {
                    text.map.emplace(path);
                    text.view = text.map->view();
                } else {
                    text.data = read_decompressed(path);
                    text.view = text.data;
                }
            } catch (const Error& err) {
                throw err.with_context("while building the package cache");
            }
        }
        std::string_view text = it->second.view;
        if (size_t(e->offset) + e->length > text.size()) continue;  // changed under us: the stamp shows it
        v.short_description = st.pool.intern(first_line(text.substr(e->offset, e->length)));
    }
}

}  // namespace aptus::cache::detail
