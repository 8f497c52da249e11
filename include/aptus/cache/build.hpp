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

// Read every input and lay out the cache. Throws aptus::Error when an index
// file cannot be read; a malformed field or stanza is skipped with a warning.
BuildResult build_cache(const CacheInputs& inputs);

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
OpenResult open_or_build(const CacheInputs& inputs, const std::string& cache_path);

}  // namespace aptus::cache
