#include "cli/archive_download.hpp"

#include <cstdio>

#include "cli/terminal.hpp"
#include "cli/message.hpp"

namespace aptus::cli {

install::DownloadObserver download_observer(FetchScreen& screen) {
    install::DownloadObserver o;
    o.transfers.line = [&screen](const acquire::UpdateLine& l) { screen.line(l); };
    o.transfers.progress = [&screen](const acquire::FetchEvent& ev) { screen.progress(ev); };
    o.finished = [&screen](uint64_t bytes, double seconds) { screen.fetched(bytes, seconds); };
    o.failed = [](const std::string& error) {
        std::fflush(stdout);
        print_message(MessageLevel::Error, error);
        std::fflush(stderr);
    };
    o.diagnostic = [](const Diagnostic& d) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: %s\n", d.level == Level::Warning ? "W" : "N", d.message.c_str());
    };
    return o;
}

acquire::ArchivesOutcome fetch_and_show(const config::Config& config, const std::vector<acquire::ArchiveItem>& items,
                                        const std::string& directory, acquire::ArchivesMode mode) {
    FetchScreen screen(effective_quiet(config), config);
    try {
        return install::fetch_items(config, items, directory, mode, download_observer(screen));
    } catch (...) {
        screen.clear();
        std::fflush(stdout);
        throw;
    }
}

}  // namespace aptus::cli
