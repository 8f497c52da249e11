// `update`: for every configured repository, fetch its InRelease (or Release
// and Release.gpg), verify it, check it, fetch the indices it lists for the
// index targets, and replace the repository's lists only once all of them
// checked out. The outcome is a value; the front end prints it as apt does.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"

namespace aptus::acquire {

// One of apt's item lines: "Hit:1 ...", "Get:2 ... [12.3 kB]", "Ign:3 ...",
// "Err:4 ..." with its indented detail lines.
struct UpdateLine {
    enum Kind : uint8_t { Hit, Get, Ign, Err } kind;
    unsigned number = 0;
    std::string description;  // "http://host/debian bookworm InRelease"
    uint64_t size = 0;        // Get: bytes transferred
    std::vector<std::string> details;
};

struct UpdateMessage {
    enum Level : uint8_t { Notice, Warning, Error } level;
    std::string text;  // may span lines; printed as "E: ..." / "W: ..." / "N: ..."
    // What apt itself does not say (an older Release kept quietly): a front
    // end standing in for apt leaves it out.
    bool beyond_apt = false;
};

struct UpdateObserver {
    std::function<void(const UpdateLine&)> line;
    std::function<void(const FetchEvent&)> progress;
    // Each transfer as it starts (apt's Debug::pkgAcquire::Worker trace).
    std::function<void(const FetchRequest&)> request;
    // Each transfer as it ends, with its result (the trace's other half).
    std::function<void(const FetchRequest&, const FetchResult&)> done;
    // An index file that checked out: what it is (a URI, or "store:" and
    // the lists form for what decompressing it gave), the hashes it was
    // found to have and those the Release gives ("SHA256:<hex>"), for apt's
    // Debug::pkgAcquire::Auth trace. Decompressed forms are hashed only
    // when this is set.
    std::function<void(const std::string& what, const std::vector<std::string>& received,
                       const std::vector<std::string>& expected)>
        hashes;
};

struct UpdateResult {
    uint64_t fetched_bytes = 0;
    double seconds = 0;
    // A clear-signed file could not be split: apt's front ends print no
    // "Fetched" line after such a run.
    bool error_pending = false;
    // In apt's order, printed after the item lines.
    std::vector<UpdateMessage> messages;
    bool failed = false;  // an error: the command exits 100
    unsigned repositories = 0, repositories_failed = 0;
};

// Runs the whole update under the lists dir's lock. Throws aptus::Error only
// for what stops everything (the lock is held, the sources cannot be read,
// the lists dir cannot be written); a repository that fails is reported in
// the result and keeps its previous lists.
UpdateResult update_lists(const config::Config& config, Diagnostics& diags, const UpdateObserver& observer);

}  // namespace aptus::acquire
