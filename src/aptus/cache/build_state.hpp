// Everything the builder accumulates before the layout pass. Records use the
// on-disk structs with build-time indices (names and packages in the order
// first seen); layout.cpp sorts them and rewrites every index.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/cache/format.hpp"
#include "aptus/deb/relation.hpp"
#include "aptus/deb/tagfile.hpp"
#include "hash.hpp"
#include "index_text.hpp"
#include "string_pool.hpp"

namespace aptus::cache::detail {

// A Description-md5 as its 16 bytes: the builder matches Packages and
// Translation stanzas by it, and nothing reads it from the cache, so it is
// neither interned nor stored. All zero: absent, or not 32 hex digits.
struct Md5 {
    uint64_t lo = 0, hi = 0;
    bool empty() const { return lo == 0 && hi == 0; }
    bool operator==(const Md5&) const = default;
};
Md5 parse_md5(std::string_view hex);

// Where each Description-md5's text is in the Translation files, the first
// file listed winning. Filled on its own thread while the Packages files are
// read.
class Translations {
public:
    struct Entry {
        Md5 md5;
        uint32_t file, offset, length;  // the Description-<lang> value
        bool replaces_short = false;    // IndexInput::replaces_packages_description
    };
    Translations() : slots_(1u << 16, kNone) {}
    // Room for `entries` without growing (each growth rehashes every entry).
    void reserve(size_t entries) {
        entries_.reserve(entries);
        size_t slots = slots_.size();
        while (slots < entries * 2) slots *= 2;
        if (slots > slots_.size()) slots_.assign(slots, kNone);  // only while empty
    }
    void add(const Md5& md5, uint32_t file, uint32_t offset, uint32_t length, bool replaces_short) {
        if (md5.empty()) return;
        size_t i = probe(md5);
        if (slots_[i] != kNone) return;
        slots_[i] = uint32_t(entries_.size());
        entries_.push_back({md5, file, offset, length, replaces_short});
        if (entries_.size() * 2 > slots_.size()) grow();
    }
    const Entry* find(const Md5& md5) const {
        if (md5.empty()) return nullptr;
        uint32_t e = slots_[probe(md5)];
        return e == kNone ? nullptr : &entries_[e];
    }

private:
    // An md5 is uniformly distributed already: its low half is the hash.
    size_t probe(const Md5& md5) const {
        size_t mask = slots_.size() - 1;
        for (size_t i = md5.lo & mask;; i = (i + 1) & mask) {
            uint32_t e = slots_[i];
            if (e == kNone || entries_[e].md5 == md5) return i;
        }
    }
    void grow() {
        slots_.assign(slots_.size() * 2, kNone);
        size_t mask = slots_.size() - 1;
        for (uint32_t e = 0; e < entries_.size(); ++e) {
            size_t i = entries_[e].md5.lo & mask;
            while (slots_[i] != kNone) i = (i + 1) & mask;
            slots_[i] = e;
        }
    }
    HugeVector<Entry> entries_;
    HugeVector<uint32_t> slots_;
};

struct BuildState {
    StringPool pool;
    StringId native_arch = 0;

    std::vector<StringId> names;            // build name index -> string
    HugeVector<uint32_t> name_of_string;   // string id -> build name index, kNone

    HugeVector<Package> packages;          // first_version: head of the version list
    // A name's packages (one per architecture) as a list: build name index ->
    // first package, and package -> next package of the same name; kNone ends.
    HugeVector<uint32_t> first_package_of_name;
    HugeVector<uint32_t> next_package_of_name;

    HugeVector<Version> versions;
    HugeVector<uint32_t> next_version;     // next version of the same package, kNone
    HugeVector<Md5> version_md5;           // each version's Description-md5
    HugeVector<Dependency> dependencies;   // grouped by version, in parse order
    HugeVector<Provide> provides;
    HugeVector<VersionFile> files;         // any order; layout groups them

    std::vector<IndexFile> index_files;
    std::vector<Release> releases;
    std::vector<SourcePackage> sources;

    Diagnostics diagnostics;
    // The diagnostics as the Warnings section holds them, made by lay_out:
    // they are shown again by every run that reuses the cache.
    std::string diagnostics_text;
    deb::RelationList relations;  // reused for every field

    uint32_t name(StringId s) {
        if (s >= name_of_string.size()) name_of_string.resize(std::max<size_t>(s + 1, name_of_string.size() * 2), kNone);
        uint32_t n = name_of_string[s];
        if (n != kNone) return n;
        // apt's names are case-insensitive: a spelling with capitals is the
        // name in lower case ("WorldOfGoo" in an index is the installed
        // "worldofgoo"; dpkg's own names are lower case).
        std::string_view text = pool.view(s);
        if (std::any_of(text.begin(), text.end(), [](char c) { return ascii_lower(c) != c; })) {
            StringId l = pool.intern(to_lower(text));
            if (l >= name_of_string.size()) name_of_string.resize(std::max<size_t>(l + 1, name_of_string.size() * 2), kNone);
            if (name_of_string[l] == kNone) {
                name_of_string[l] = uint32_t(names.size());
                names.push_back(l);
            }
            return name_of_string[s] = name_of_string[l];
        }
        n = uint32_t(names.size());
        names.push_back(s);
        return name_of_string[s] = n;
    }
    uint32_t package(uint32_t name_index, StringId arch);
    // The package, or kNone; creates nothing.
    uint32_t find_package(StringId name, StringId arch) const;

    void warn(std::string message) { diagnostics.push_back({Level::Warning, std::move(message)}); }
};

// A string to intern with its hash, computed ahead (see PreparedStanza).
struct Hashed {
    std::string_view text;
    uint64_t hash = 0;
};

// The fields of a Packages or status stanza the cache keeps.
enum BinaryField : uint8_t {
    kPackage, kArchitecture, kVersion, kSource, kSection, kPriority, kInstalledSize, kSize, kMultiArch,
    kEssential, kImportant, kProtected, kPhased, kDescription, kDescriptionMd5, kDescriptionEn, kStatus,
    kDepends, kPreDepends, kRecommends, kSuggests, kEnhances, kBreaks, kConflicts, kReplaces, kProvides,
    kFieldCount
};

// A Packages or status stanza split into what the cache keeps, its relations
// parsed and the hash of every string it will intern computed: all of the
// reading that needs no BuildState, so it runs on another thread ahead of the
// interning (for_each_prepared in build.cpp). Reused from stanza to stanza.
struct PreparedStanza {
    struct Relation {
        Hashed name, version, arch_qualifier;
        uint8_t type;   // DepType; unused for provides
        uint8_t op;     // DepOp
        uint8_t flags;  // DependencyFlags
    };
    std::array<std::string_view, kFieldCount> value{};
    uint32_t line = 0;                // of the stanza's first field
    uint32_t offset = 0, length = 0;  // the stanza in its file
    uint32_t description_offset = 0;  // of value[kDescription] in its file
    Hashed package, architecture, version, section, source_name, source_version, short_description;
    Md5 description_md5;
    bool source_version_given = false;  // Source: name (version)
    // The relations are in a store shared by a batch of stanzas (one vector
    // per stanza was a malloc and fresh pages for every stanza): the eight
    // relation fields in DepType order, then the provides. `relations` is
    // set once the batch is prepared, as the store may move while it grows.
    uint32_t relations_begin = 0, depends_count = 0, provides_count = 0;
    const Relation* relations = nullptr;
    std::span<const Relation> depends() const { return {relations + relations_begin, depends_count}; }
    std::span<const Relation> provides() const {
        return {relations + relations_begin + depends_count, provides_count};
    }
    struct RelationError {
        uint32_t line;  // of the field
        std::string what;
    };
    std::vector<RelationError> relation_errors;  // in field order
};

// Splits `s` (from `piece` of its file) into `out`, its relations appended
// to `store` (out.relations is left for the caller to set).
void prepare_binary_stanza(const deb::Stanza& s, const TextPiece& piece, deb::RelationList& scratch,
                           std::vector<PreparedStanza::Relation>& store, PreparedStanza& out);
// One prepared Packages or status stanza into the state.
void add_binary_stanza(BuildState& st, const PreparedStanza& s, uint32_t file, StringId index_arch, bool from_status,
                       const std::string& file_name);
// Asks the memory system for what interning `s` will read, a few stanzas ahead.
void prefetch_binary_stanza(const BuildState& st, const PreparedStanza& s);
void add_source_stanza(BuildState& st, const deb::Stanza& s, const TextPiece& piece, uint32_t file);
// A Translation stanza: records where the description of its md5 is, the
// first language found winning. Touches nothing but `t`.
void add_translation_stanza(Translations& t, const deb::Stanza& s, const TextPiece& piece, uint32_t file,
                            bool replaces_short);
// extended_states: the Auto-Installed marks.
void apply_extended_states(BuildState& st, std::string_view buffer, const std::string& file_name);
// Fill in long (and missing short) descriptions from the translations found.
void resolve_descriptions(BuildState& st, const Translations& t);
// True when some version has a Description-md5 but no short description of
// its own: resolve_descriptions() will intern that line from a Translation
// file, so it must run before the pool is final.
bool needs_translated_short_descriptions(const BuildState& st);
// The long descriptions only, once the versions are in their layout order
// (`versions[new_index[v]]` is build version v): the pool is not touched, so
// this may run late in the layout, after the pool is written.
void resolve_long_descriptions(const BuildState& st, const Translations& t, HugeVector<Version>& versions,
                               const HugeVector<uint32_t>& new_index);

// The laid-out cache: the header and every section, owned here or borrowed
// from the BuildState (pool, index files, ...) and the stamp, which must
// outlive it. Moving keeps the sections valid (vectors keep their buffers).
struct Image {
    Image() = default;
    Image(Image&&) = default;
    Image& operator=(Image&&) = default;
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    struct Part {
        const void* data = nullptr;
        size_t count = 0, elem = 1;
    };
    Header header{};  // complete (offsets, size, checksum) once lay_out returns
    Part sections[kSectionCount];

    HugeVector<Name> names;
    HugeVector<uint32_t> hash;
    HugeVector<Package> packages;
    HugeVector<Version> versions;
    HugeVector<Dependency> deps;
    HugeVector<Provide> provides;
    HugeVector<VersionFile> files;
    HugeVector<RevDep> rdeps;
    HugeVector<uint32_t> providers;
    // Some sections' pages were handed back after they were written
    // (LayoutHooks::done_with): to_string() and set_checksum() would read zeros.
    bool sections_dropped = false;

    // The file's bytes in one string (after set_checksum).
    std::string to_string() const;
    // The checksum: header.checksum stays 0 until set_checksum(), or until
    // the caller finishes a sum it fed with write_range() over all sections.
    StreamChecksum checksum_start() const;
    void set_checksum();
    // Sums the sections at file positions [first, last) (see kFileOrder)
    // with the padding before each (and at the end of the file when last is
    // kSectionCount) into `sum`, in file order, and writes them at their
    // offsets when fd >= 0: 0 or the errno.
    int write_range(int fd, uint32_t first, uint32_t last, StreamChecksum& sum) const;
    int write_header(int fd) const;
};

// The sections in the order they are in the file: the order the layout
// completes them, so that each is written while the rest is laid out (the
// header says where each is; readers do not depend on the order).
inline constexpr SectionId kFileOrder[kSectionCount] = {
    SectionId::StringOffsets, SectionId::StringBytes, SectionId::IndexFiles,   SectionId::Releases,
    SectionId::Stamp,         SectionId::NameHash,    SectionId::Sources,      SectionId::Packages,
    SectionId::Dependencies,  SectionId::Provides,    SectionId::VersionFiles, SectionId::Versions,
    SectionId::RevDeps,       SectionId::Providers,   SectionId::Names,        SectionId::Warnings,
};

struct LayoutHooks {
    // Called with the planned header, then each time more sections are
    // complete: the header and the sections at file positions [0, count)
    // do not change any more, and may be written from another thread while
    // lay_out goes on.
    std::function<void(const Image&, uint32_t count)> sections_ready;
    // Called once the versions are in their final order, with the map from
    // build order (`new_index`), before anything reads their descriptions:
    // the Translation files are still being read while the layout starts.
    std::function<void(HugeVector<Version>& versions, const HugeVector<uint32_t>& new_index)> descriptions;
    // Called when the layout will not read a complete section again (only
    // for sections in arrays of their own, HugeVector's): once written, its
    // memory may be handed back.
    std::function<void(SectionId)> done_with;
};

// Sort and index: the complete cache file but for its checksum.
void lay_out(BuildState& st, std::string_view stamp, Image& img, const LayoutHooks& hooks = {});

}  // namespace aptus::cache::detail
