// Everything the builder accumulates before the layout pass. Records use the
// on-disk structs with build-time indices (names and packages in the order
// first seen); layout.cpp sorts them and rewrites every index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/format.hpp"
#include "aptus/deb/relation.hpp"
#include "aptus/deb/tagfile.hpp"
#include "string_pool.hpp"

namespace aptus::cache::detail {

struct DescriptionLocation {
    uint32_t file, offset, length;
    StringId short_description;
};

struct BuildState {
    StringPool pool;
    StringId native_arch = 0;

    std::vector<StringId> names;            // build name index -> string
    HugeVector<uint32_t> name_of_string;   // string id -> build name index, kNone

    HugeVector<Package> packages;          // first_version: head of the version list
    std::unordered_map<uint64_t, uint32_t> package_of;  // (name << 32 | arch) -> package

    HugeVector<Version> versions;
    HugeVector<uint32_t> next_version;     // next version of the same package, kNone
    HugeVector<Dependency> dependencies;   // grouped by version, in parse order
    HugeVector<Provide> provides;
    HugeVector<VersionFile> files;         // any order; layout groups them

    std::vector<IndexFile> index_files;
    std::vector<Release> releases;
    std::vector<SourcePackage> sources;

    std::unordered_map<StringId, DescriptionLocation> translations;  // by Description-md5

    Diagnostics diagnostics;
    deb::RelationList relations;  // reused for every field

    uint32_t name(StringId s) {
        if (s >= name_of_string.size()) name_of_string.resize(std::max<size_t>(s + 1, name_of_string.size() * 2), kNone);
        uint32_t& n = name_of_string[s];
        if (n == kNone) {
            n = uint32_t(names.size());
            names.push_back(s);
        }
        return n;
    }
    uint32_t package(uint32_t name_index, StringId arch);
    // The package, or kNone; creates nothing.
    uint32_t find_package(StringId name, StringId arch) const;

    void warn(std::string message) { diagnostics.push_back({Level::Warning, std::move(message)}); }
};

// One Packages or status stanza. `buffer` is the whole decompressed file.
void add_binary_stanza(BuildState& st, const deb::Stanza& s, std::string_view buffer, uint32_t file,
                       StringId index_arch, bool from_status, const std::string& file_name);
void add_source_stanza(BuildState& st, const deb::Stanza& s, std::string_view buffer, uint32_t file);
// A Translation stanza: records where the description of each md5 the
// versions need is, the first language found winning.
void add_translation_stanza(BuildState& st, const deb::Stanza& s, std::string_view buffer, uint32_t file);
// extended_states: the Auto-Installed marks.
void apply_extended_states(BuildState& st, std::string_view buffer, const std::string& file_name);
// Fill in long (and missing short) descriptions from the translations found.
void resolve_descriptions(BuildState& st);

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

    // The file's bytes in one string.
    std::string to_string() const;
    // Writes the file's bytes to `fd` (at its current position, sequentially);
    // 0 or the errno of the failing write.
    int write_to(int fd) const;
};

// Sort, index and checksum: the complete cache file.
Image lay_out(BuildState& st, std::string_view stamp);

}  // namespace aptus::cache::detail
