#include "cli/dpkg_progress.hpp"

#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {

namespace {

volatile sig_atomic_t resized = 0;
extern "C" void note_resize(int) { resized = 1; }

// apt's colour settings hold "%1b[42m": %xx is a byte in hex.
std::string dequote(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() + 0 && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::strtol(std::string(s.substr(i + 1, 2)).c_str(), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

bool screen_size(int& rows, int& columns) {
    struct winsize w {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) != 0 || w.ws_row == 0 || w.ws_col == 0) return false;
    rows = w.ws_row;
    columns = w.ws_col;
    return true;
}

struct sigaction old_winch;

}  // namespace

std::string dpkg_progress_bar(double fraction, int width, bool utf8) {
    std::string out;
    if (width < 3) return out;
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int cells = width - 2;
    out += '[';
    if (!utf8) {
        int done = std::clamp(static_cast<int>(std::floor(fraction * cells)), 0, cells);
        out.append(static_cast<size_t>(done), '#');
        out.append(static_cast<size_t>(cells - done), '.');
    } else {
        // Eighths of a cell: whole blocks, then the partial one.
        static const char* const partial[] = {"", "\u258F", "\u258E", "\u258D", "\u258C",
                                              "\u258B", "\u258A", "\u2589"};
        int eighths = std::clamp(static_cast<int>(std::floor(fraction * cells * 8)), 0, cells * 8);
        int full = eighths / 8;
        for (int i = 0; i < full; ++i) out += "\u2588";
        int used = full;
        if (full < cells && eighths % 8 != 0) {
            out += partial[eighths % 8];
            ++used;
        }
        out.append(static_cast<size_t>(cells - used), ' ');
    }
    out += ']';
    return out;
}

DpkgProgress::DpkgProgress(const config::Config& config) {
    if (::isatty(STDOUT_FILENO) != 1) return;
    if (effective_quiet(config) > 0) return;
    if (!config.find_bool("Dpkg::Progress-Fancy", true)) return;
    if (!screen_size(rows_, columns_) || rows_ < 2) return;
    active_ = true;
    utf8_ = std::string_view(nl_langinfo(CODESET)) == "UTF-8";
    show_bar_ = config.find_bool("Dpkg::Progress-Fancy::Progress-Bar", true);
    if (std::getenv("NO_COLOR") == nullptr) {
        bg_ = dequote(config.find("Dpkg::Progress-Fancy::Progress-fg", "%1b[42m"));
        fg_ = dequote(config.find("Dpkg::Progress-Fancy::Progress-bg", "%1b[30m"));
    }
    resized = 0;
    struct sigaction sa {};
    sa.sa_handler = note_resize;
    ::sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGWINCH, &sa, &old_winch);
    set_scroll_region(rows_);
}

DpkgProgress::~DpkgProgress() {
    if (!active_) return;
    ::sigaction(SIGWINCH, &old_winch, nullptr);
    int rows = rows_, columns = columns_;
    if (screen_size(rows, columns)) rows_ = rows;
    set_scroll_region(rows_ + 1);
    put("\033[J");  // the bar goes with everything below the cursor
}

void DpkgProgress::put(std::string_view s) {
    while (!s.empty()) {
        ssize_t n = ::write(STDOUT_FILENO, s.data(), s.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        s.remove_prefix(static_cast<size_t>(n));
    }
}

void DpkgProgress::set_scroll_region(int rows) {
    if (rows <= 1) return;
    std::string s;
    // A new line first, so shrinking the region by one row scrolls the text
    // up instead of letting the bar cover the last line of it.
    s += "\n";
    s += "\0337";                                         // save the cursor
    s += "\033[0;" + std::to_string(rows - 1) + "r";     // scrolling region (moves the cursor home)
    s += "\0338";                                         // back where it was
    s += "\033[1A";                                       // inside the region
    put(s);
}

void DpkgProgress::draw() {
    char label[32];
    std::snprintf(label, sizeof label, "Progress: [%3ld%%]", std::lround(percent_));
    std::string s = "\0337\033[" + std::to_string(rows_) + ";0f" + bg_ + fg_ + label;
    if (!bg_.empty() || !fg_.empty()) s += "\033[49m\033[39m";
    if (show_bar_) {
        int width = columns_ - 4 - static_cast<int>(std::string_view(label).size());
        s += " " + dpkg_progress_bar(percent_ / 100.0, width, utf8_) + " ";
    }
    s += "\0338";
    put(s);
    drawn_ = true;
}

void DpkgProgress::handle_resize() {
    if (!resized) return;
    resized = 0;
    int rows = rows_, columns = columns_;
    if (!screen_size(rows, columns)) return;
    rows_ = rows;
    columns_ = columns;
    set_scroll_region(rows_);
    if (drawn_) draw();
}

void DpkgProgress::update(double percent, std::string_view) {
    if (!active_) return;
    handle_resize();
    percent_ = percent;
    draw();
}

void DpkgProgress::output(std::string_view bytes) {
    put(bytes);
    if (active_) handle_resize();
}

system::DpkgObserver DpkgProgress::observer() {
    system::DpkgObserver o;
    o.progress = [this](double percent, std::string_view text) { update(percent, text); };
    o.output = [this](std::string_view bytes) { output(bytes); };
    o.reserved_rows = active_ ? 1 : 0;
    return o;
}

}  // namespace aptus::cli
