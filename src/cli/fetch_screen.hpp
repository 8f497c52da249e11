// What apt shows while it fetches (update, and the .deb files of download
// and install): the numbered Hit:/Get:/Ign:/Err: lines as items finish, a
// progress line on a terminal only (redrawn in place and erased before any
// other line), and "Fetched X in Ys (Z/s)" at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/acquire/update.hpp"
#include "aptus/config/config.hpp"

namespace aptus::cli {

// An error that stops a fetch (the lock, say) may span lines: apt prints
// each as its own "E: " line on stderr.
void print_error_lines(std::string_view text);

// apt's TimeToStr: "4s", "1min 5s", "2h 3min 4s".
std::string time_text(double seconds);

class FetchScreen {
public:
    // The progress line only at quiet 0 on a terminal; item lines up to
    // quiet 1. From the configuration: quiet::NoStatistic (no Fetched line)
    // and Acquire::Progress::Ignore::ShowErrorText (an Ign: line's reason
    // under it, as apt's default leaves it out).
    FetchScreen(int quiet, const config::Config& config);

    void line(const acquire::UpdateLine& l);
    void progress(const acquire::FetchEvent& ev);
    // Erases the progress line (before other output).
    void clear();
    // "Fetched 1414 B in 0s (4861 B/s)", when anything was fetched, quiet < 2
    // and statistics are wanted.
    void fetched(uint64_t bytes, double seconds);

private:
    void redraw();
    int quiet_;
    bool statistics_;
    bool ignore_reasons_;
    bool progress_;
    std::string text_, shown_;
    uint64_t last_bytes_ = 0;
    std::chrono::steady_clock::time_point start_{};
};

}  // namespace aptus::cli
