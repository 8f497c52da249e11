// The .deb files of a plan: which file of which repository each version
// comes from (checked to stay inside its repository, with the strongest
// hash its Packages stanza gives), how much is still to fetch, and the
// fetching itself with a front end's observer (no output of its own).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aptus/acquire/archives.hpp"
#include "aptus/acquire/update.hpp"
#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"

namespace aptus::install {

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

// What fetching tells its front end, as it happens.
struct DownloadObserver {
    // apt's Get:/Hit:/Err: lines and the transfers' progress.
    acquire::UpdateObserver transfers;
    // After the transfers: the bytes fetched from remote repositories (a
    // local file: or copy: repository hands its files over) and the time taken.
    std::function<void(uint64_t bytes, double seconds)> finished;
    // Each item that failed, apt's "Failed to fetch ..." text.
    std::function<void(const std::string& error)> failed;
    // Warnings found on the way (the download sandbox's).
    std::function<void(const Diagnostic&)> diagnostic;
};

// Fetches the items into `directory`; reports through `observer`. Throws
// only what acquire::fetch_archives() throws; failed items are in the outcome.
acquire::ArchivesOutcome fetch_items(const config::Config& config, const std::vector<acquire::ArchiveItem>& items,
                                     const std::string& directory, acquire::ArchivesMode mode,
                                     const DownloadObserver& observer);

// Fetches every version's .deb into `directory` (Dir::Cache::Archives for
// install and --download-only) and returns their paths in `versions`'
// order. On any failure throws aptus::Error("Unable to fetch some archives,
// maybe run apt-get update or try with --fix-missing?") of kind Network
// (Verification when a file is not what the index announced); a
// version no repository offers throws apt's "Can't find a source to
// download version ..." first.
std::vector<std::string> download_archives(const config::Config& config, const cache::Cache& cache,
                                           const std::vector<const cache::Version*>& versions,
                                           const std::string& directory, const DownloadObserver& observer);

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

}  // namespace aptus::install
