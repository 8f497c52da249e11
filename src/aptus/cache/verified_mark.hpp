// "<cache file>.verified": a note that one version of a cache file (its
// file identity: device, inode, size, modification and change times) was
// checked in full — the sum over the whole file and the walk over every
// record — or written whole by the builder, with the header's checksum then.
// Opening a file that matches its note skips both checks, which read all
// of its 50 MB; any change to the file through the file system (a write,
// a truncation, a file renamed over it) changes its identity, and the file
// is checked in full again. The note lives beside the cache, so only who
// can write the cache can write it; a note that cannot be written (a user
// without root) only means the checks run every time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "aptus/base/file.hpp"
#include "aptus/cache/cache.hpp"

namespace aptus::cache::detail {

// (verified_mark_path() is in cache.hpp: clean removes the note.)

// The header checksum the note records for the file as `id` describes it;
// nothing when there is no note or it is about another version of the file.
std::optional<uint64_t> verified_checksum(const std::string& cache_path, const FileIdentity& id);

// Writes the note (atomically); a failure to write it is not an error.
void mark_verified(const std::string& cache_path, const FileIdentity& id, uint64_t checksum);

}  // namespace aptus::cache::detail
