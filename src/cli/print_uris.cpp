#include "cli/print_uris.hpp"

#include <cstdio>

#include "cli/archive_download.hpp"

namespace aptus::cli {

bool print_uris_wanted(const config::Config& config) { return config.find_bool("APT::Get::Print-URIs"); }

void print_uri_lines(const std::vector<acquire::UriLine>& lines) {
    for (const acquire::UriLine& l : lines)
        std::printf("'%s' %s %llu %s\n", l.uri.c_str(), l.file_name.c_str(), static_cast<unsigned long long>(l.size),
                    l.hash.c_str());
    std::fflush(stdout);
}

void print_archive_uris(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Version*>& versions, const std::string& directory) {
    std::vector<acquire::UriLine> lines;
    for (const acquire::ArchiveItem& item : install::archive_items(config, cache, versions)) {
        if (acquire::archive_matches(directory + item.file_name, item.size, item.hash, item.hash_hex)) continue;
        lines.push_back(acquire::archive_uri(item, true));
    }
    print_uri_lines(lines);
}

int print_plan_uris(const config::Config& config, const cache::Cache& cache, const install::Plan& plan) {
    std::vector<const cache::Version*> versions;
    for (const install::Change& ch : plan.changes)
        if (ch.kind != install::ChangeKind::Remove && ch.new_version) versions.push_back(ch.new_version);
    print_archive_uris(config, cache, versions, config.find_dir("Dir::Cache::Archives"));
    return 0;
}

}  // namespace aptus::cli
