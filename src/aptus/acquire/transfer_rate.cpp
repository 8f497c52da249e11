#include "transfer_rate.hpp"

namespace aptus::acquire {

void RateMeter::add(double seconds, uint64_t bytes) {
    if (!samples_.empty() && (seconds < samples_.back().first || bytes < samples_.back().second)) samples_.clear();
    samples_.emplace_back(seconds, bytes);
    // Keep one sample at or before the window's start, so the span stays whole.
    while (samples_.size() > 2 && samples_[1].first <= seconds - window_) samples_.pop_front();
}

double RateMeter::rate() const {
    if (samples_.size() < 2) return 0;
    const auto& [t0, b0] = samples_.front();
    const auto& [t1, b1] = samples_.back();
    if (t1 - t0 < 0.5) return 0;
    return double(b1 - b0) / (t1 - t0);
}

std::optional<double> time_left(uint64_t done, uint64_t expected, double rate) {
    if (rate <= 0 || expected <= done) return std::nullopt;
    return double(expected - done) / rate;
}

}  // namespace aptus::acquire
