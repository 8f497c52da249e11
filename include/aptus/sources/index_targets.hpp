// Index targets: the files one source entry makes aptus fetch and read — the
// Release files of its (URI, suite) and, per component, architecture and
// language, the indices Acquire::IndexTargets::{deb,deb-src}::* describe —
// with the names apt gives them in the lists directory, so aptus and apt
// share /var/lib/apt/lists. Driven by the configuration as apt is: a new
// Acquire::IndexTargets::deb::Foo section makes new targets.
#pragma once

#include <map>
#include <utility>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

struct IndexTarget {
    std::string meta_key;     // "main/binary-amd64/Packages": the name in the Release file
    std::string short_desc;   // "Packages"
    std::string description;  // "http://mirror.example/debian bookworm/main amd64 Packages"
    std::string uri;          // full URI of the uncompressed index
    std::string filename;     // path in the lists directory
    bool optional = true;
    bool keep_compressed = false;
    // Everything else apt attaches to a target, under apt's printed names
    // ("Architecture", "Base-URI", "By-Hash", "Component", ..., "Target-Of");
    // a map so that printing in apt's (sorted) order is free.
    std::map<std::string, std::string> options;

    // One of `options`, or "".
    std::string option(const std::string& name) const;
};

// The Release files of one (URI, suite): what update fetches first.
struct ReleaseFiles {
    std::string repo_uri;  // "http://mirror.example/debian/"
    std::string suite;
    std::string base_uri;  // ".../dists/bookworm/" (flat: repo_uri + suite)
    std::string inrelease_uri, release_uri, release_gpg_uri;
    std::string inrelease_file, release_file, release_gpg_file;  // in the lists dir
    // Where the InRelease is fetched from: inrelease_uri, or the entries'
    // inrelease-path under base_uri (a by-hash name, say). With such a path
    // there is no Release + Release.gpg fallback, as in apt; what is shown
    // and stored is still inrelease_uri's.
    std::string inrelease_fetch_uri;
    bool release_fallback = true;
    std::string sources_entry;  // file:line of the first entry
    // The entries' trusted= option: yes, no, or not said (then a signed
    // Release decides).
    std::optional<bool> trusted;
};

// Targets of all enabled entries, in apt's order: (URI, suite) groups in
// order of first appearance, deb-src before deb inside a group, then entry,
// component, configured target, architecture or language. A target named
// twice is kept once, with apt's warning.
std::vector<IndexTarget> index_targets(const std::vector<SourceEntry>& entries, const config::Config& config,
                                       Diagnostics& diags);

// The target a lists-dir file was stored for: its name, possibly with a
// compression suffix; nullptr when none is.
const IndexTarget* target_of_list_file(const std::vector<IndexTarget>& targets, std::string_view path);

// The architectures an entry's Packages targets are made for: its arch
// option ("=", "+=") over APT::Architectures, plus "all" as apt adds it,
// minus its "-=" values.
std::vector<std::string> entry_architectures(const SourceEntry& entry, const config::Config& config);

// One ReleaseFiles per (URI, suite) of the enabled entries, same order.
std::vector<ReleaseFiles> release_files(const std::vector<SourceEntry>& entries, const config::Config& config);

// The lists-directory name for a URI, as apt makes it: scheme and
// user:password dropped, brackets around the host dropped, unsafe bytes
// %-quoted (lower-case hex), then '/' -> '_'.
std::string uri_to_list_filename(std::string_view uri);

// The host of a URI: "http://user@host:80/debian" -> "host" ("" without
// one): what "Pin: origin" and Acquire::Snapshots::URI::Host::HOST name.
std::string uri_host(std::string_view uri);

// Which of apt's meta indices (one per URI and suite) an entry belongs to:
// entries with the same key share their Release files. deb and deb-src
// entries share it, and so do URIs that differ only in credentials or a
// trailing slash.
std::string meta_index_key(const SourceEntry& entry);

// The URI as apt shows a site to people: normalised, without user:password
// and without the trailing slash ("http://mirror.example/debian").
std::string archive_site(std::string_view uri);

// The record apt-get indextargets prints for a target (no trailing blank
// line); `release_fields` (what its Release file and entry say: "Codename",
// "Signed-By", ...) come after KeepCompressed, as apt prints them.
std::string format_index_target(const IndexTarget& target,
                                const std::vector<std::pair<std::string, std::string>>& release_fields = {});

}  // namespace aptus::sources
