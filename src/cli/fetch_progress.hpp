// The progress of a fetch as text for a terminal of a given width: pure
// functions of a progress event (what is under way, bytes, rate, time
// left), so the layout is tested without a terminal. FetchScreen draws it.
//
// Narrow (one line, apt's status line):
//   45% [hello 12.3 kB/45.6 kB 27%] [world 1024 B/2048 B 50%]     1514 kB/s 3s
// Wide (a line per transfer under way, then the totals):
//   hello   12.3 kB / 45.6 kB  [=====>              ]  27%
//   world   1024 B  / 2048 B   [=========>          ]  50%
//   45% [3/4 files]  1.2 MB / 2.7 MB  1514 kB/s  3s left
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aptus/acquire/fetcher.hpp"

namespace aptus::cli {

// From this many columns on, a line per transfer under way.
constexpr int kWideProgressColumns = 100;
// At most this many transfers get a line of their own; the rest are counted.
constexpr size_t kMaxProgressLines = 8;

// "1514 kB/s"; "" for no rate.
std::string rate_text(double bytes_per_second);
// apt's time left: "3s", "1min 5s", "2h 3min 4s"; "" when unknown.
std::string eta_text(std::optional<double> seconds);
// The part of the whole done, 0..100.
unsigned progress_percent(const acquire::FetchEvent& ev);

// apt's one status line, shorter than `width`.
std::string progress_line(const acquire::FetchEvent& ev, int width);
// A line per transfer under way (kMaxProgressLines at most, then "... and
// N more"), then the totals; each shorter than `width`.
std::vector<std::string> progress_block(const acquire::FetchEvent& ev, int width);

}  // namespace aptus::cli
