// The URIs --print-uris lists: update's from the sources alone (apt prints
// them before it has read any Release, so always the first compression
// type, size 0, no hash), an archive's from its item.
#include "aptus/acquire/print_uris.hpp"

#include <algorithm>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/sources/index_targets.hpp"

namespace aptus::acquire {
namespace {

std::string base_name(std::string_view path) {
    size_t slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

std::string uri_encode_path(std::string_view path) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : path) {
        if (c == '+' || c == '~' || c == ' ' || c == '%' || c <= 0x20 || c >= 0x7f) {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += char(c);
        }
    }
    return out;
}

std::vector<UriLine> update_uris(const std::vector<sources::SourceEntry>& entries, const config::Config& config,
                                 Diagnostics& diags) {
    std::vector<UriLine> out;
    const bool try_inrelease = config.find_bool("Acquire::TryInRelease", true);
    for (const sources::ReleaseFiles& r : sources::release_files(entries, config)) {
        if (try_inrelease)
            out.push_back({r.inrelease_fetch_uri, base_name(r.inrelease_file), 0, ""});
        else
            out.push_back({r.release_uri, base_name(r.release_file), 0, ""});
    }
    for (const sources::IndexTarget& t : sources::index_targets(entries, config, diags)) {
        const std::string order = t.option("CompressionTypes");
        std::vector<std::string_view> types = split_words(order);
        std::string uri = t.uri;
        if (!types.empty() && types.front() != "uncompressed") {
            uri += '.';
            uri += types.front();
        }
        out.push_back({uri, base_name(t.filename), 0, ""});
    }
    // apt lists its download queues, one per host, the last made first, each
    // in the order its items were queued (the Release files, then the indices).
    auto host_of = [](const std::string& uri) {
        size_t start = uri.find("://");
        start = start == std::string::npos ? 0 : start + 3;
        return uri.substr(0, uri.find('/', start));
    };
    std::vector<std::string> hosts;
    for (const UriLine& l : out)
        if (std::find(hosts.begin(), hosts.end(), host_of(l.uri)) == hosts.end()) hosts.push_back(host_of(l.uri));
    std::stable_sort(out.begin(), out.end(), [&](const UriLine& a, const UriLine& b) {
        return std::find(hosts.begin(), hosts.end(), host_of(a.uri)) > std::find(hosts.begin(), hosts.end(), host_of(b.uri));
    });
    return out;
}

UriLine archive_uri(const ArchiveItem& item, bool md5_only) {
    UriLine line{item.print_uri.empty() ? item.uri : item.print_uri, item.file_name, item.size, ""};
    if (md5_only) {
        if (!item.md5_hex.empty()) line.hash = std::string(hash_algo_name(HashAlgo::Md5)) + ":" + item.md5_hex;
    } else if (item.hash != HashAlgo::None && !item.hash_hex.empty())
        line.hash = std::string(hash_algo_name(item.hash)) + ":" + item.hash_hex;
    return line;
}

}  // namespace aptus::acquire
