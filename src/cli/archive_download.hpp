// The front end's way of fetching the .deb files of some versions: the
// items are built from the cache (Filename, Size, SHA256 of the version's
// Packages stanza; the repository from the sources), fetched with apt's
// Get:/Err: lines, a progress line on a terminal and "Fetched ...".
#pragma once

#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"

namespace aptus::cli {

// Fetches every version's .deb into `directory` (Dir::Cache::Archives for
// install and --download-only) and returns their paths in `versions`'
// order. On any failure prints apt's "E: Failed to fetch ..." lines and
// throws aptus::Error("Unable to fetch some archives, maybe run apt-get
// update or try with --fix-missing?"); a version no repository offers
// throws apt's "Can't find a source to download version ..." first.
std::vector<std::string> download_archives(const config::Config& config, const cache::Cache& cache,
                                           const std::vector<const cache::Version*>& versions,
                                           const std::string& directory);

}  // namespace aptus::cli
