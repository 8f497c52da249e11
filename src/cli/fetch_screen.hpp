// What apt shows while it fetches (update, and the .deb files of download
// and install): the numbered Hit:/Get:/Ign:/Err: lines as items finish, the
// progress on a terminal only (redrawn in place and erased before any other
// line: apt's status line on a narrow terminal, a line per transfer under
// way on a wide one, see fetch_progress.hpp), and "Fetched X in Ys (Z/s)" at
// the end. Into a pipe or a file: only the plain lines, never a \r or an
// escape sequence.
#pragma once

#include <optional>
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
    // The terminal moves its cursor (TERM is set and not "dumb"): a line per
    // transfer on a wide one. Else one line, redrawn with \r alone.
    bool cursor_moves_;
    std::optional<acquire::FetchEvent> last_;
    size_t shown_lines_ = 0;   // lines of progress on the screen now
    size_t shown_width_ = 0;   // the length of the last one (a single line)
};

}  // namespace aptus::cli
