// The front end's way of fetching the .deb files of some versions: the
// items are built from the cache (Filename, Size, SHA256 of the version's
// Packages stanza; the repository from the sources), fetched with apt's
// Get:/Err: lines, a progress line on a terminal and "Fetched ...".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aptus/acquire/archives.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"

namespace aptus::cli {

// The archive item of each version (the first of its Packages files a
// configured source has). Throws apt's "Can't find a source to download
// version 'V' of 'name:arch'" for a version no repository offers (only in
// the dpkg status), and apt's "I wasn't able to locate a file for the X
// package ..." for a record without Filename. To be downloaded
// (`to_download`), an item of an authenticated repository needs a hash
// stronger than MD5sum and SHA1, else apt's "Insufficient information ..."
// is thrown; sizes alone (Need to get) ask for no hash.
std::vector<acquire::ArchiveItem> archive_items(const config::Config& config, const cache::Cache& cache,
                                                const std::vector<const cache::Version*>& versions,
                                                bool to_download = true);

// Fetches the items with apt's Get:/Err: lines, the progress line on a
// terminal, "Fetched ..." and then an "E: Failed to fetch ..." line per
// failed item on stderr. Throws only what fetch_archives() throws.
acquire::ArchivesOutcome fetch_and_show(const config::Config& config, const std::vector<acquire::ArchiveItem>& items,
                                        const std::string& directory, acquire::ArchivesMode mode);

// Fetches every version's .deb into `directory` (Dir::Cache::Archives for
// install and --download-only) and returns their paths in `versions`'
// order. On any failure prints apt's "E: Failed to fetch ..." lines and
// throws aptus::Error("Unable to fetch some archives, maybe run apt-get
// update or try with --fix-missing?"); a version no repository offers
// throws apt's "Can't find a source to download version ..." first.
std::vector<std::string> download_archives(const config::Config& config, const cache::Cache& cache,
                                           const std::vector<const cache::Version*>& versions,
                                           const std::string& directory);

// What apt-get's "Need to get X/Y of archives" counts: Y the size of every
// version's .deb, X what must still be fetched (not from a local file: or
// copy: repository, not already in `directory` at its announced size). No
// value when a version has no repository (X and Y are then unknown).
struct ArchiveBytes {
    uint64_t total = 0, to_fetch = 0;
};
std::optional<ArchiveBytes> archive_bytes(const config::Config& config, const cache::Cache& cache,
                                          const std::vector<const cache::Version*>& versions,
                                          const std::string& directory);

}  // namespace aptus::cli
