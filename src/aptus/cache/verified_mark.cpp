#include "verified_mark.hpp"

#include <cinttypes>
#include <cstdio>

#include "aptus/base/error.hpp"

namespace aptus::cache {

std::string verified_mark_path(const std::string& cache_path) { return cache_path + ".verified"; }

namespace detail {
namespace {

constexpr const char* kFormat = "aptus-verified-cache 1 %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNd64
                                " %" SCNu64 "\n";

std::string note_text(const FileIdentity& id, uint64_t checksum) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "aptus-verified-cache 1 %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64
                  " %" PRIu64 "\n",
                  id.device, id.inode, id.size, id.mtime_ns, id.ctime_ns, checksum);
    return buf;
}

}  // namespace

std::optional<uint64_t> verified_checksum(const std::string& cache_path, const FileIdentity& id) {
    std::string text;
    try {
        text = read_file(verified_mark_path(cache_path));
    } catch (const Error&) {
        return std::nullopt;
    }
    FileIdentity noted;
    uint64_t checksum = 0;
    if (std::sscanf(text.c_str(), kFormat, &noted.device, &noted.inode, &noted.size, &noted.mtime_ns,
                    &noted.ctime_ns, &checksum) != 6)
        return std::nullopt;
    // Exactly what it would write now: no trailing bytes, no other numbers.
    if (noted != id || note_text(noted, checksum) != text) return std::nullopt;
    return checksum;
}

void mark_verified(const std::string& cache_path, const FileIdentity& id, uint64_t checksum) {
    try {
        write_file_atomic(verified_mark_path(cache_path), note_text(id, checksum));
    } catch (const Error&) {
        // A directory this user cannot write: the checks simply run each time.
    }
}

}  // namespace detail
}  // namespace aptus::cache
