// The .deb files of a transaction, fetched into an archives directory as apt
// fetches them: under the directory's lock, each through "<dir>/partial/",
// moved into "<dir>" once its size and hash matched what the Packages
// entry promised. A file already in "<dir>" that matches is kept and not
// fetched again; one that does not match is fetched anew.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/acquire/update.hpp"

namespace aptus::acquire {

struct ArchiveItem {
    std::string package, architecture, version;
    std::string uri;        // full URI of the .deb
    std::string print_uri;  // the same as apt prints it (--print-uris): the Filename apt-quoted
    std::string file_name;  // its name in the archives dir: archive_file_name()
    uint64_t size = 0;
    HashAlgo hash = HashAlgo::None;
    std::string hash_hex;
    std::string md5_hex;  // the MD5sum field, which apt-get install --print-uris shows
    // The text of apt's Get: line after the number: "<repo uri> <suite>/<component>
    // <index arch> <name> <arch> <version>".
    std::string label;
};

// apt's name for a .deb in the archives dir: "name_version_arch.deb" with the
// version's ':' (epoch) written as "%3a".
std::string archive_file_name(std::string_view package, std::string_view version, std::string_view arch);

struct ArchiveResult {
    enum class Status : uint8_t { Fetched, Present, Failed } status = Status::Failed;
    std::string path;  // "<dir>/<file_name>" when Fetched or Present
    // Failed: apt's "Failed to fetch <uri>  <reason>" (the E: line's text,
    // may span lines).
    std::string error;
    bool transient = false;  // a network failure that may pass
    bool verification = false;  // what came is not what the index announced (hash, size)
    uint64_t bytes = 0;      // transferred
};

struct ArchivesOutcome {
    std::vector<ArchiveResult> results;  // one per item, in the items' order
    uint64_t fetched_bytes = 0;  // every byte transferred, failed items included
    double seconds = 0;          // the wall time of the transfers
    bool failed = false;  // at least one item failed
};

enum class ArchivesMode : uint8_t {
    // An archives dir (Dir::Cache::Archives): locked, fetched through partial/.
    Archives,
    // Any directory (apt-get download's current one): no lock, no partial/;
    // each file is written beside its final name and renamed once checked.
    Plain,
};

// Fetches `items` into `directory` (Archives: created with partial/ when missing).
// The observer is told apt's Get:/Err: lines (numbered in the order the
// transfers are queued, an Err keeping its Get's number) and the transfer
// progress. Throws aptus::Error only for what stops everything: the lock
// is held ("Could not get lock <dir>/lock. It is held by process N (name)"
// then "Unable to lock directory <dir>/"), the directory cannot be made.
// Each file goes from partial/ into the directory as soon as it checked
// out. A partial file an interrupted run left is continued with an HTTP
// Range request; the whole file is checked as any other (a wrong one is
// fetched once more from the first byte). A transfer that failed on the way
// leaves its bytes in partial/ for the next run; one that failed its checks
// leaves nothing.
ArchivesOutcome fetch_archives(const std::vector<ArchiveItem>& items, const std::string& directory,
                               const FetchOptions& options, const UpdateObserver& observer = {},
                               ArchivesMode mode = ArchivesMode::Archives);

// Whether `path` is a regular file of `size` bytes whose `hash` is `hash_hex`.
bool archive_matches(const std::string& path, uint64_t size, HashAlgo hash, std::string_view hash_hex);

}  // namespace aptus::acquire
