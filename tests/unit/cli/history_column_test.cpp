// The history list's command column: cut to its width with "…".
#include <gtest/gtest.h>

#include "cli/commands/history_cmd.hpp"

namespace aptus::cli {
namespace {

TEST(HistoryColumn, PadsOrCutsWithAnEllipsis) {
    EXPECT_EQ(fit_column("install hello", 15), "install hello  ");
    EXPECT_EQ(fit_column("install hello", 13), "install hello");
    EXPECT_EQ(fit_column("install hello", 10), "install h\u2026");
    EXPECT_EQ(fit_column("install hello", 1), "\u2026");
    EXPECT_EQ(fit_column("install hello", 0), "");
    // Widths count characters, not bytes.
    EXPECT_EQ(column_width("caf\u00e9 \u2026"), 6u);
    EXPECT_EQ(fit_column("install caf\u00e9-t\u00e9", 13), "install caf\u00e9\u2026");
    EXPECT_EQ(fit_column("caf\u00e9", 5), "caf\u00e9 ");
}

}  // namespace
}  // namespace aptus::cli
