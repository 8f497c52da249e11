// The bar of apt 3.0's dpkg progress line (the terminal handling itself is
// tested through a real pty by tests/integration/dpkg_driver.sh).
#include <gtest/gtest.h>

#include "cli/dpkg_progress.hpp"

namespace aptus::cli {
namespace {

TEST(DpkgProgressBar, AsciiCellsFilledByFloor) {
    EXPECT_EQ(dpkg_progress_bar(0.0, 12, false), "[..........]");
    EXPECT_EQ(dpkg_progress_bar(0.42, 12, false), "[####......]");
    EXPECT_EQ(dpkg_progress_bar(1.0, 12, false), "[##########]");
    EXPECT_EQ(dpkg_progress_bar(0.5, 2, false), "");
}

TEST(DpkgProgressBar, Utf8UsesEighthBlocks) {
    // 10 cells, 45 %: 4 whole blocks and 4/8 of the fifth.
    EXPECT_EQ(dpkg_progress_bar(0.45, 12, true), "[\u2588\u2588\u2588\u2588\u258C     ]");
    EXPECT_EQ(dpkg_progress_bar(1.0, 5, true), "[\u2588\u2588\u2588]");
}

}  // namespace
}  // namespace aptus::cli
