// Transfers: a list of requests in, a result per request out. Many transfers
// run at once over libcurl's multi interface (a limit per host, connections
// kept alive), file: and copy: URIs are read directly. Every byte is counted
// and hashed as it arrives, and may be decompressed on the way to disk, so a
// file is checked when its last byte lands. Nothing is trusted before that:
// a transfer that sends more than its maximum is cut off, and a file reaches
// its destination only after its size and hash matched.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/config/config.hpp"

namespace aptus::acquire {

enum class HashAlgo : uint8_t { None, Md5, Sha1, Sha256, Sha512 };

// The names Release files and by-hash paths use: "MD5Sum", "SHA1", "SHA256", "SHA512".
std::string_view hash_algo_name(HashAlgo algo);

// file: and copy: URIs: read from the local file system (by root, never in
// the download sandbox), nothing to download.
bool is_local_uri(std::string_view uri);
// The file a file: or copy: URI names ("file:///a/b" -> "/a/b", escapes undone).
std::string local_path(std::string_view uri);
// Whether a user (uid, primary gid) may read `path`, by its permission bits
// and those of the directories above it.
bool readable_by(const std::string& path, uid_t uid, gid_t gid);

struct FetchRequest {
    std::string uri;          // http:, https:, file:, copy: or cdrom:
    std::string destination;  // where the checked file ends up (its directory must exist)
    std::optional<uint64_t> expected_size;  // of the bytes transferred
    HashAlgo hash = HashAlgo::None;         // of the bytes transferred
    std::string hash_hex;                   // lower-case hex
    // Never accept more bytes than this (0: no limit). With expected_size
    // set, the transfer is cut off at expected_size whatever this says.
    uint64_t max_size = 0;
    // Write the decompressed stream to `destination` (the hash and sizes
    // above stay those of the transferred bytes).
    Compression decompress = Compression::None;
    // The decompressed stream's size when the Release announces it: it must
    // come out exactly so, and the transfer is cut off the moment it passes.
    std::optional<uint64_t> expected_output_size;
    // Without an announced size, the most decompressed bytes accepted (0: no
    // limit); passing it ends the transfer at once.
    uint64_t max_output_size = 0;
    // Ask for the file only if changed after this time: a 304 (or an
    // unchanged file: URI) leaves `destination` untouched.
    std::optional<std::time_t> if_modified_since;
    // A local file (file:, copy:) counts as unchanged, when this is set,
    // exactly when its bytes are this stored copy's, whatever its time: a
    // time says nothing about a file rewritten
    // within the same second, or re-signed and touched back (apt's file
    // method has no Not-Modified for a Release either; apt calls an
    // identical one a hit).
    std::string if_same_as;
    // fsync the file before the rename. The lists are state and need it;
    // a .deb is checked against its hash before every use, so a torn one
    // after a crash is fetched again and the sync buys nothing.
    bool durable = true;
    // A file that arrives but fails its checks (size, hash, too long) is
    // kept as "<destination>.FAILED" instead of removed, as apt keeps the
    // lists it rejects for the administrator to look at.
    bool keep_failed = false;
    // Where the bytes wait until they checked out; empty:
    // "<destination>.part". The archives keep apt's layout: partial/<name>
    // beside <name>, so a file that checked out goes straight to its place.
    std::string partial;
    // What an earlier run left at `partial` is continued with an HTTP Range
    // request instead of fetched anew (only without decompression, and only
    // with an expected size and hash: nothing there is trusted, the whole
    // file is checked once complete). A 200 answer or 416 starts again from
    // the first byte; a continued file that fails its checks is fetched once
    // more from zero. A transfer that fails for another reason (a dropped
    // connection, an interruption) leaves its bytes there for the next run.
    bool resume = false;
};

// The part file of a request: `partial`, else "<destination>.part".
std::string part_path(const FetchRequest& request);

enum class FetchStatus : uint8_t { Ok, NotModified, Failed };

struct FetchResult {
    FetchStatus status = FetchStatus::Failed;
    // apt's kind of reason on failure: "404  Not Found", "Hash Sum mismatch",
    // "File has unexpected size (10 != 12). Mirror sync in progress?", ...
    std::string error;
    bool not_found = false;  // the server said the file does not exist (404/410, missing file:)
    // A network failure that may go away (no connection, timeout, 5xx): apt
    // reports these as warnings, the others as errors.
    bool transient = false;
    uint64_t bytes = 0;      // transferred (before decompression)
    double seconds = 0;
    std::optional<std::time_t> last_modified;  // as the server reported it
    std::string peer;                          // "[IP: 127.0.0.1 8080]" for HTTP, else ""
    std::string received_hash_hex;             // a Hash Sum mismatch: the hash of what arrived
    unsigned attempts = 0;
    // Bytes an earlier run left in the part file that were kept (a resumed
    // transfer); `bytes` counts only what was transferred now.
    uint64_t resumed_from = 0;
};

// Whether the failure is apt's StatAuthError: the file arrived but is not
// the one announced (hash, size, more bytes than announced), as opposed to
// one that did not arrive.
bool failed_its_checks(const FetchResult& r);

// How an https server proves who it is. Off switches are for testing only,
// as apt's manual says.
struct TlsOptions {
    std::string ca_info;       // a CA bundle (PEM) instead of the system's store
    // The bundle's text, read by root before the sandboxed downloader starts
    // (the sandbox user may not be able to read the file); wins over ca_info.
    std::string ca_pem;
    bool verify_peer = true;   // the certificate chains up to a trusted authority
    bool verify_host = true;   // the certificate names the host of the URI
};

// The unprivileged user network transfers run as when started by root
// (APT::Sandbox::User, default _apt).
struct SandboxUser {
    std::string name;
    uid_t uid = 0;
    gid_t gid = 0;
};

// Where cdrom: sources are read (acquire/cdrom.hpp): Acquire::cdrom::mount,
// and the shell commands of Acquire::cdrom::<mount>/::Mount and ::UMount.
struct CdromOptions {
    std::string mount_point = "/media/cdrom/";  // ends in '/'
    std::string mount_command, umount_command;
};

struct FetchOptions {
    unsigned max_per_host = 4;   // transfers at once to one host
    unsigned max_total = 16;     // transfers at once overall
    unsigned retries = 3;        // further attempts after a transient failure
    unsigned retry_delay_max_ms = 30000;  // back-off doubles from 1 s up to this
    bool retry_delay = true;
    long timeout_s = 30;         // connect timeout, and the longest time without a byte
    unsigned max_redirects = 10;
    bool show_ip = true;         // FetchResult::peer filled (Acquire::Failure::ShowIP)
    std::optional<std::string> http_proxy, https_proxy;  // "" forces direct; unset: the environment
    std::string user_agent = "aptus";
    TlsOptions tls;
    // Per host name (no port), where the configuration says something of its own.
    std::map<std::string, TlsOptions, std::less<>> tls_by_host;

    // Set: network transfers run in a child process that dropped to this
    // user (no groups, no capabilities, no_new_privs) and writes only into
    // descriptors the caller's side created; file: and copy: stay here.
    std::optional<SandboxUser> sandbox;
    // apt's warning when run as root and the sandbox user does not exist
    // ("No sandbox user '_apt' on the system, can not drop privileges").
    std::string sandbox_warning;
    CdromOptions cdrom;

    const TlsOptions& tls_for(std::string_view host) const;
};

// From Acquire::Queue-Mode (host: per host; access: one at a time),
// Aptus::Acquire::Max-Per-Host, Acquire::Retries (and ::Delay,
// ::Delay::Maximum), Acquire::http::Timeout, Acquire::http(s)::Proxy
// ("DIRECT" for none), Acquire::Failure::ShowIP, Acquire::http::User-Agent, Acquire::https::CAInfo,
// ::Verify-Peer and ::Verify-Host, each also as Acquire::https::<host>::<key>
// for one host (apt's host-specific form, which wins); as root,
// APT::Sandbox::User (default _apt; "" or "root": no sandbox).
FetchOptions fetch_options(const config::Config& config);

// One transfer under way, as a progress event tells it.
struct ActiveTransfer {
    size_t index = 0;          // into the request list
    uint64_t bytes_done = 0;   // of the file, bytes resumed from an earlier run included
    uint64_t bytes_total = 0;  // expected size, else Content-Length; 0: not known (yet)
    // A short name for a person: fetch() gives the last part of the URI
    // ("InRelease", "hello_1.0_amd64.deb"); a caller may put its own.
    std::string name;
};

// What the callback is told while transfers run.
struct FetchEvent {
    enum Kind : uint8_t { Started, Progress, Finished } kind;
    size_t index = 0;                 // into the request list (Progress: unused)
    const FetchResult* result = nullptr;  // Finished only
    // Progress: over all requests.
    uint64_t bytes_done = 0;      // resumed bytes included
    uint64_t bytes_expected = 0;  // the sum of what is known (expected sizes, Content-Length)
    size_t finished = 0, total = 0;
    // Progress only: the bytes transferred in this run (resumed ones not),
    // the recent transfer rate (bytes a second, 0 until measured) and the
    // time left at that rate, when both are known.
    uint64_t bytes_received = 0;
    double bytes_per_second = 0;
    std::optional<double> eta_seconds{};
    std::vector<ActiveTransfer> active{};  // in the order they started
};
using FetchCallback = std::function<void(const FetchEvent&)>;

// Runs every request to completion; never throws for a failed transfer (that
// is a result), only for a programming or system error such as an
// unwritable destination directory. Progress events come at most ~10 times
// a second.
std::vector<FetchResult> fetch(const std::vector<FetchRequest>& requests, const FetchOptions& options,
                               const FetchCallback& callback = {});

}  // namespace aptus::acquire
