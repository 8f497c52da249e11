// What the cache is built from, as plain values: the caller (sources/acquire
// glue) decides which index files exist and what configuration matters; the
// cache neither reads sources.list nor the configuration tree.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/format.hpp"

namespace aptus::cache {

struct ReleaseInput {
    std::string path;  // an InRelease or Release file in the lists dir
};

struct IndexInput {
    std::string path;  // as found, compression suffix included
    IndexKind kind = IndexKind::Packages;  // Packages, Sources or Translation
    // Index into CacheInputs::releases; kNone when the repository has none
    // (flat repositories without Release, local files).
    uint32_t release = kNone;
    std::string component;     // "main"
    std::string architecture;  // "amd64" for Packages; "" for Sources and Translation
    std::string language;      // "en" for Translation
    std::string site;          // "mirror.example" (the URI's host, what "Pin: origin" matches)
    std::string description;   // "http://mirror.example/debian bookworm/main amd64 Packages", as policy shows it
    bool trusted = false;      // IndexFileFlags::kIndexTrusted
    bool from_command_line = false;  // IndexFileFlags::kIndexFromCommandLine
    // A Translation in a language configured before English: its text is
    // what a version shows, short line included (apt shows the first
    // configured language's description; the Packages' own is English).
    bool replaces_packages_description = false;
};

struct CacheInputs {
    std::vector<ReleaseInput> releases;
    // In order of preference: a version found in several files keeps the data
    // of the first, and Translation files are searched in this order, so list
    // the preferred language first.
    std::vector<IndexInput> indices;
    std::string status_path;           // "" for none (or a missing file): nothing installed
    std::string extended_states_path;  // "" for none
    // Architecture-independent ("all") packages are filed under this one, as apt does.
    std::string native_architecture;
    // Whatever configuration changes the cache's content; the caller decides
    // what goes in. A different string makes the cache stale.
    std::string fingerprint;
};

// The file under `lists_dir` named `base_name` with whichever compression
// suffix exists ("", .lz4, .zst, .gz, .xz, .bz2, .lzma are tried in that
// order, the cheapest to read first); std::nullopt when there is none.
std::optional<std::string> find_list_file(const std::string& lists_dir, std::string_view base_name);

// find_list_file for each name, keeping only those found, in order.
std::vector<std::string> find_list_files(const std::string& lists_dir, const std::vector<std::string>& base_names);

}  // namespace aptus::cache
