// The download progress's layout for a given width (the drawing itself is
// tested through a real pty by tests/integration/download_progress.sh).
#include <gtest/gtest.h>

#include <clocale>

#include "cli/fetch_progress.hpp"

namespace aptus::cli {
namespace {

acquire::ActiveTransfer transfer(std::string name, uint64_t done, uint64_t total) {
    acquire::ActiveTransfer a;
    a.name = std::move(name);
    a.bytes_done = done;
    a.bytes_total = total;
    return a;
}

acquire::FetchEvent event() {
    std::setlocale(LC_NUMERIC, "C");
    acquire::FetchEvent ev{acquire::FetchEvent::Progress};
    ev.active = {transfer("hello", 12300, 45600), transfer("world", 1024, 2048)};
    ev.bytes_done = 120000;
    ev.bytes_expected = 300000;
    ev.finished = 1;
    ev.total = 4;
    ev.bytes_per_second = 1514000;
    ev.eta_seconds = 2.2;
    return ev;
}

TEST(FetchProgress, RateAndTimeLeft) {
    std::setlocale(LC_NUMERIC, "C");
    EXPECT_EQ(rate_text(0), "");
    EXPECT_EQ(rate_text(1514000), "1514 kB/s");
    EXPECT_EQ(rate_text(999), "999 B/s");
    EXPECT_EQ(eta_text(std::nullopt), "");
    EXPECT_EQ(eta_text(2.2), "3s");
    EXPECT_EQ(eta_text(65), "1min 5s");
    EXPECT_EQ(eta_text(2 * 3600 + 3 * 60 + 4), "2h 3min 4s");
    EXPECT_EQ(eta_text(1e9), "");  // no estimate worth showing
    EXPECT_EQ(eta_text(-1), "");
}

TEST(FetchProgress, Percent) {
    acquire::FetchEvent ev = event();
    EXPECT_EQ(progress_percent(ev), 40u);
    ev.bytes_expected = 0;
    EXPECT_EQ(progress_percent(ev), 0u);
    ev.bytes_expected = 10;  // more than announced: never past 100
    EXPECT_EQ(progress_percent(ev), 100u);
}

TEST(FetchProgress, NarrowLineAsApt) {
    const std::string line = progress_line(event(), 80);
    EXPECT_EQ(line,
              "40% [hello 12.3 kB/45.6 kB 26%] [world 1024 B/2048 B 50%]          1514 kB/s 3s");
    EXPECT_EQ(line.size(), 79u);  // the last column stays free
}

TEST(FetchProgress, NarrowLineCountsWhatDoesNotFit) {
    const std::string line = progress_line(event(), 60);
    EXPECT_EQ(line, "40% [hello 12.3 kB/45.6 kB 26%] [+1]           1514 kB/s 3s");
    EXPECT_LT(line.size(), 60u);
    // No rate yet: no tail; nothing under way: apt's [Working].
    acquire::FetchEvent ev = event();
    ev.bytes_per_second = 0;
    ev.eta_seconds.reset();
    ev.active.clear();
    EXPECT_EQ(progress_line(ev, 80), "40% [Working]");
    // A terminal too narrow for more: the percent and a count.
    EXPECT_EQ(progress_line(event(), 10), "40% [+2]");
}

TEST(FetchProgress, WideBlockHasALinePerTransferAndTotals) {
    const auto lines = progress_block(event(), 120);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "hello  12.3 kB / 45.6 kB  [==========>                             ]   26%");
    EXPECT_EQ(lines[1], "world   1024 B / 2048 B   [====================>                   ]   50%");
    EXPECT_EQ(lines[2], "40% [1/4 files]  120 kB / 300 kB  1514 kB/s  3s left");
    for (const auto& l : lines) EXPECT_LT(l.size(), 120u);
}

TEST(FetchProgress, WideBlockFitsAndCounts) {
    acquire::FetchEvent ev = event();
    ev.active.clear();
    for (int i = 0; i < 11; ++i) ev.active.push_back(transfer("p" + std::to_string(i), 10, 0));
    const auto lines = progress_block(ev, 100);
    ASSERT_EQ(lines.size(), kMaxProgressLines + 2);
    EXPECT_EQ(lines[0], "p0  10 B / ?");  // no size known: no bar, no percent
    EXPECT_EQ(lines[kMaxProgressLines], "... and 3 more");
    // A long name is cut; every line stays within the width.
    ev.active = {transfer(std::string(60, 'x'), 1, 2)};
    for (const auto& l : progress_block(ev, 50)) EXPECT_LT(l.size(), 50u);
}

}  // namespace
}  // namespace aptus::cli
