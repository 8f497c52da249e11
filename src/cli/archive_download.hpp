// The front end's way of fetching .deb files (download, source, install):
// install::fetch_items with apt's Get:/Err: lines, a progress line on a
// terminal, "Fetched ..." and an "E: Failed to fetch ..." line per failed item.
#pragma once

#include <string>
#include <vector>

#include "aptus/acquire/archives.hpp"
#include "aptus/config/config.hpp"
#include "aptus/install/archives.hpp"
#include "cli/fetch_screen.hpp"

namespace aptus::cli {

// The observer that draws fetching on `screen`, as apt does.
install::DownloadObserver download_observer(FetchScreen& screen);

// Fetches the items as above. Throws only what fetch_archives() throws.
acquire::ArchivesOutcome fetch_and_show(const config::Config& config, const std::vector<acquire::ArchiveItem>& items,
                                        const std::string& directory, acquire::ArchivesMode mode);

}  // namespace aptus::cli
