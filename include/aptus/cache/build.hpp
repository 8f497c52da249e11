// Building the cache image from its inputs, and the entry point every command
// uses: reuse the cache file when it is valid and up to date, otherwise build,
// write atomically and map the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/cache/inputs.hpp"

namespace aptus::cache {

struct BuildResult {
    std::string image;        // a complete cache file
    Diagnostics diagnostics;  // malformed stanzas skipped, unreadable Release files, ...
};

struct BuildOptions {
    // The Packages files are read in two parts on two threads when together
    // they hold at least this many bytes; the cache file is the same bytes
    // either way. Off by default (SIZE_MAX): on the shared 2-core build
    // machine the second part's merge cost more than the second core gave
    // back (0.92 vs 0.71 s, 117 vs 100 MB peak); to be re-measured on a quiet
    // machine with `cache_bench --once-build ROOT --split`.
    size_t split_min_bytes = SIZE_MAX;
};

// Read every input and lay out the cache. Throws aptus::Error when an index
// file cannot be read; a malformed field or stanza is skipped with a warning.
BuildResult build_cache(const CacheInputs& inputs, const BuildOptions& options = {});

enum class CacheOrigin {
    Reused,    // the file was valid and up to date
    Rebuilt,   // built and written to the cache path
    InMemory,  // built, but the cache path could not be written
};

struct OpenResult {
    Cache cache;
    CacheOrigin origin;
    // Why the file was not reused ("" when it was): missing, stale, corrupt (with the error).
    std::string rebuild_reason;
    Diagnostics diagnostics;  // from the build, when there was one
};

// Readers never see a half-written cache: a new cache is written to a
// temporary file, synced and renamed over `cache_path`.
OpenResult open_or_build(const CacheInputs& inputs, const std::string& cache_path, const BuildOptions& options = {});

}  // namespace aptus::cache
