// How fast the bytes come and how long the rest will take at that pace:
// the rate over the last few seconds (a moving window, so a stall shows
// soon and one fast burst does not promise too much), and the time left.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace aptus::acquire {

class RateMeter {
public:
    explicit RateMeter(double window_seconds = 5.0) : window_(window_seconds) {}
    // `bytes`: all received so far, at `seconds` (from any fixed start).
    void add(double seconds, uint64_t bytes);
    // Bytes a second over the window; 0 until the samples span half a second.
    double rate() const;

private:
    double window_;
    std::deque<std::pair<double, uint64_t>> samples_;
};

// Seconds until `expected` at `rate` from `done`; none without a rate or
// without anything known to be left.
std::optional<double> time_left(uint64_t done, uint64_t expected, double rate);

}  // namespace aptus::acquire
