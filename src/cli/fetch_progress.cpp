#include "cli/fetch_progress.hpp"

#include <algorithm>
#include <cmath>

#include "cli/fetch_screen.hpp"
#include "cli/human_size.hpp"

namespace aptus::cli {
namespace {

std::string size_text(uint64_t bytes) { return human_size(double(bytes)) + "B"; }

// Cut to fewer than `width` columns (the last column stays free, so a
// terminal never wraps the line).
std::string fit(std::string s, int width) {
    const size_t most = width > 1 ? size_t(width - 1) : 0;
    if (s.size() > most) s.resize(most);
    return s;
}

std::string pad(std::string s, size_t n, bool right = false) {
    if (s.size() >= n) return s;
    return right ? std::string(n - s.size(), ' ') + s : s + std::string(n - s.size(), ' ');
}

unsigned file_percent(const acquire::ActiveTransfer& a) {
    if (a.bytes_total == 0) return 0;
    return unsigned(std::min<uint64_t>(100, a.bytes_done * 100 / a.bytes_total));
}

// " 1514 kB/s 3s" or "": what closes the line.
std::string rate_and_eta(const acquire::FetchEvent& ev, const char* left) {
    std::string rate = rate_text(ev.bytes_per_second);
    if (rate.empty()) return "";
    std::string eta = eta_text(ev.eta_seconds);
    return eta.empty() ? rate : rate + (*left ? "  " : " ") + eta + left;
}

}  // namespace

std::string rate_text(double bytes_per_second) {
    if (!(bytes_per_second > 0)) return "";
    return human_size(bytes_per_second) + "B/s";
}

std::string eta_text(std::optional<double> seconds) {
    if (!seconds || !std::isfinite(*seconds) || *seconds < 0) return "";
    // Days of waiting are no estimate worth showing.
    if (*seconds > 100 * 3600) return "";
    return time_text(std::ceil(*seconds));
}

unsigned progress_percent(const acquire::FetchEvent& ev) {
    if (ev.bytes_expected == 0) return 0;
    return unsigned(std::min<uint64_t>(100, ev.bytes_done * 100 / ev.bytes_expected));
}

std::string progress_line(const acquire::FetchEvent& ev, int width) {
    const size_t most = width > 1 ? size_t(width - 1) : 0;
    std::string tail = rate_and_eta(ev, "");
    if (tail.size() + 12 >= most) tail.clear();
    // Room for the brackets: the rate and time left keep theirs at the right end.
    const size_t room = tail.empty() ? most : most - tail.size() - 1;
    std::string head = std::to_string(progress_percent(ev)) + "%";
    if (ev.active.empty()) head += " [Working]";
    for (size_t i = 0; i < ev.active.size(); ++i) {
        const auto& a = ev.active[i];
        std::string piece = " [" + a.name + " " + size_text(a.bytes_done);
        if (a.bytes_total) piece += "/" + size_text(a.bytes_total) + " " + std::to_string(file_percent(a)) + "%";
        piece += "]";
        // A transfer whose bracket does not fit whole is counted, not cut.
        const std::string more = " [+" + std::to_string(ev.active.size() - i - 1) + "]";
        const bool last = i + 1 == ev.active.size();
        if (head.size() + piece.size() + (last ? 0 : more.size()) > room) {
            if (i > 0 || head.size() + piece.size() > room) {
                head += " [+" + std::to_string(ev.active.size() - i) + "]";
                break;
            }
        }
        head += piece;
    }
    if (head.size() > room) head.resize(room);
    if (tail.empty()) return head;
    return pad(head, most - tail.size()) + tail;
}

std::vector<std::string> progress_block(const acquire::FetchEvent& ev, int width) {
    std::vector<std::string> lines;
    const size_t shown = std::min(ev.active.size(), kMaxProgressLines);
    size_t name_w = 0, done_w = 0, total_w = 0;
    for (size_t i = 0; i < shown; ++i) {
        const auto& a = ev.active[i];
        name_w = std::max(name_w, std::min<size_t>(a.name.size(), 32));
        done_w = std::max(done_w, size_text(a.bytes_done).size());
        total_w = std::max(total_w, a.bytes_total ? size_text(a.bytes_total).size() : 1);
    }
    for (size_t i = 0; i < shown; ++i) {
        const auto& a = ev.active[i];
        std::string name = a.name.size() > name_w ? a.name.substr(0, name_w) : a.name;
        std::string line = pad(name, name_w) + "  " + pad(size_text(a.bytes_done), done_w, true) + " / " +
                           pad(a.bytes_total ? size_text(a.bytes_total) : "?", total_w);
        if (a.bytes_total) {
            // A bar in what is left of the line, 40 columns at most.
            const int room = width - 1 - int(line.size()) - 2 - 2 - 6;
            const int bar = std::min(40, room);
            if (bar >= 10) {
                const unsigned pct = file_percent(a);
                const int full = int(uint64_t(bar) * pct / 100);
                std::string cells(size_t(bar), ' ');
                for (int c = 0; c < full; ++c) cells[size_t(c)] = '=';
                if (full < bar) cells[size_t(full)] = '>';
                line += "  [" + cells + "]";
            }
            line += pad(std::to_string(file_percent(a)) + "%", 6, true);
        }
        lines.push_back(fit(line, width));
    }
    if (ev.active.size() > shown) lines.push_back(fit("... and " + std::to_string(ev.active.size() - shown) + " more", width));
    std::string total = std::to_string(progress_percent(ev)) + "% [" + std::to_string(ev.finished) + "/" +
                        std::to_string(ev.total) + " files]";
    if (ev.bytes_expected) total += "  " + size_text(ev.bytes_done) + " / " + size_text(ev.bytes_expected);
    if (std::string tail = rate_and_eta(ev, " left"); !tail.empty()) total += "  " + tail;
    lines.push_back(fit(total, width));
    return lines;
}

}  // namespace aptus::cli
