// What --print-uris shows instead of fetching (APT::Get::Print-URIs): per
// file, the URI apt would fetch it from, the name it would get, its size and
// its strongest hash, as apt-get update, install and download list them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/acquire/archives.hpp"
#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::acquire {

struct UriLine {
    std::string uri;
    std::string file_name;  // the destination's base name
    uint64_t size = 0;      // 0 when not known before the fetch (update)
    std::string hash;       // "SHA256:<hex>" (apt's hash names), or "" when none is known
};

// apt's URIEncode of a path inside a repository: '+', '~', ' ', '%' and
// bytes outside printable ASCII as %xx (lower-case hex), '/' kept.
std::string uri_encode_path(std::string_view path);

// What `update` would fetch first, without a Release to go on: every
// repository's InRelease (its Release where Acquire::TryInRelease is off),
// then each index target in the first of its CompressionTypes, all with
// size 0 and no hash, in apt's order.
std::vector<UriLine> update_uris(const std::vector<sources::SourceEntry>& entries, const config::Config& config,
                                 Diagnostics& diags);

// The line of one archive: `item.print_uri`, its file name, Size and hash:
// the strongest (apt-get download), or with `md5_only` the MD5Sum or none
// (apt-get install and upgrade show only that one).
UriLine archive_uri(const ArchiveItem& item, bool md5_only = false);

}  // namespace aptus::acquire
