#include "cli/fetch_screen.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/human_size.hpp"
#include "cli/message.hpp"

namespace aptus::cli {

void print_error_lines(std::string_view text) {
    std::fflush(stdout);
    for (size_t pos = 0; pos <= text.size();) {
        size_t end = std::min(text.find('\n', pos), text.size());
        print_message(MessageLevel::Error, text.substr(pos, end - pos));
        pos = end + 1;
    }
}

std::string time_text(double seconds) {
    long s = std::lround(seconds);
    if (s >= 3600) return std::to_string(s / 3600) + "h " + std::to_string(s / 60 % 60) + "min " + std::to_string(s % 60) + "s";
    if (s >= 60) return std::to_string(s / 60) + "min " + std::to_string(s % 60) + "s";
    return std::to_string(s) + "s";
}

FetchScreen::FetchScreen(int quiet, const config::Config& config)
    : quiet_(quiet),
      statistics_(!config.find_bool("quiet::NoStatistic")),
      ignore_reasons_(config.find_bool("Acquire::Progress::Ignore::ShowErrorText")),
      progress_(quiet == 0 && ::isatty(STDOUT_FILENO)) {}

void FetchScreen::line(const acquire::UpdateLine& l) {
    if (quiet_ >= 2) return;
    clear();
    static const char* kinds[] = {"Hit", "Get", "Ign", "Err"};
    std::printf("%s:%u %s", kinds[l.kind], l.number, l.description.c_str());
    if (l.kind == acquire::UpdateLine::Get && l.size) std::printf(" [%sB]", human_size(double(l.size)).c_str());
    std::putchar('\n');
    if (l.kind == acquire::UpdateLine::Ign && !ignore_reasons_) {
        std::fflush(stdout);
        redraw();
        return;
    }
    for (const auto& d : l.details) {
        // A multi-line reason keeps the indentation on every line.
        size_t pos = 0;
        while (pos <= d.size()) {
            size_t end = d.find('\n', pos);
            if (end == std::string::npos) end = d.size();
            std::printf("  %.*s\n", int(end - pos), d.data() + pos);
            pos = end + 1;
        }
    }
    std::fflush(stdout);
    redraw();
}

void FetchScreen::progress(const acquire::FetchEvent& ev) {
    if (!progress_ || ev.kind != acquire::FetchEvent::Progress) return;
    auto now = std::chrono::steady_clock::now();
    if (last_bytes_ == 0) start_ = now;
    double secs = std::chrono::duration<double>(now - start_).count();
    unsigned pct = ev.bytes_expected ? unsigned(std::min<uint64_t>(100, ev.bytes_done * 100 / ev.bytes_expected)) : 0;
    text_ = std::to_string(pct) + "% [" + std::to_string(ev.finished) + "/" + std::to_string(ev.total) + " files";
    if (secs > 0.5) text_ += " " + human_size(double(ev.bytes_done) / secs) + "B/s";
    text_ += "]";
    last_bytes_ = ev.bytes_done + 1;
    redraw();
}

void FetchScreen::clear() {
    if (!shown_.empty()) std::printf("\r%*s\r", int(shown_.size()), "");
    shown_.clear();
}

void FetchScreen::fetched(uint64_t bytes, double seconds) {
    clear();
    if (bytes > 0 && quiet_ < 2 && statistics_) {
        double rate = seconds > 0 ? double(bytes) / seconds : 0;
        std::printf("Fetched %sB in %s (%sB/s)\n", human_size(double(bytes)).c_str(), time_text(seconds).c_str(),
                    human_size(rate).c_str());
    }
    std::fflush(stdout);
}

void FetchScreen::redraw() {
    if (!progress_ || text_.empty()) return;
    clear();
    std::fputs(text_.c_str(), stdout);
    std::fflush(stdout);
    shown_ = text_;
}

}  // namespace aptus::cli
