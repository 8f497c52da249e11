#include "cli/fetch_screen.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "cli/fetch_progress.hpp"
#include "cli/human_size.hpp"
#include "cli/message.hpp"
#include "cli/terminal.hpp"

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
      progress_(quiet == 0 && ::isatty(STDOUT_FILENO)),
      cursor_moves_([] {
          const char* term = std::getenv("TERM");
          return term && *term && std::string_view(term) != "dumb";
      }()) {}

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
    last_ = ev;
    redraw();
}

void FetchScreen::clear() {
    if (shown_lines_ == 1) {
        std::printf("\r%*s\r", int(shown_width_), "");
    } else if (shown_lines_ > 1) {
        // Back to the first line of the block, and everything below it erased.
        std::printf("\r\033[%zuA\033[J", shown_lines_ - 1);
    }
    shown_lines_ = 0;
    shown_width_ = 0;
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
    if (!progress_ || !last_) return;
    const int width = terminal_columns();
    std::vector<std::string> lines;
    if (cursor_moves_ && width >= kWideProgressColumns)
        lines = progress_block(*last_, width);
    else
        lines.push_back(progress_line(*last_, width));
    clear();
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i) std::putchar('\n');
        std::fputs(lines[i].c_str(), stdout);
    }
    std::fflush(stdout);
    shown_lines_ = lines.size();
    shown_width_ = lines.empty() ? 0 : lines.back().size();
}

}  // namespace aptus::cli
