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

// Sort, index and serialise: the complete cache file.
std::string lay_out(BuildState& st, std::string_view stamp);

}  // namespace aptus::cache::detail
