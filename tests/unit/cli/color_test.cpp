#include "cli/color.hpp"

#include <gtest/gtest.h>


namespace aptus::cli {
namespace {

TEST(Color, OnlyOnATerminalAndWithoutNoColor) {
    config::Config c;
    EXPECT_TRUE(color_wanted(c, true, nullptr, nullptr));
    EXPECT_FALSE(color_wanted(c, false, nullptr, nullptr));
    c.set("APT::Color", "1");
    EXPECT_FALSE(color_wanted(c, false, nullptr, nullptr));  // forced, still never on a pipe
    EXPECT_FALSE(color_wanted(c, true, "1", nullptr));
    EXPECT_FALSE(color_wanted(c, true, "", nullptr));  // set but empty still counts
    EXPECT_FALSE(color_wanted(c, true, nullptr, "1"));
    c.set("APT::Color", "false");
    EXPECT_FALSE(color_wanted(c, true, nullptr, nullptr));
}

TEST(Color, ResolvesAsApt) {
    config::Config c;
    EXPECT_EQ(color_code(c, "Highlight"), "\x1b[32m");
    EXPECT_EQ(color_code(c, "Neutral"), "\x1b[0m");
    EXPECT_EQ(color_code(c, "Action::Remove"), "\x1b[31m");
    c.set("APT::Color::Action::Upgrade", "bold action::install");
    EXPECT_EQ(color_code(c, "Action::Upgrade"), "\x1b[1m\x1b[32m");
    c.set("APT::Color::Highlight", "\\x1B[35m");
    EXPECT_EQ(color_code(c, "Highlight"), "\x1b[35m");
    c.set("APT::Color::Loop", "loop");
    EXPECT_EQ(color_code(c, "Loop"), "");
    EXPECT_EQ(Colors(c, false).highlight, "");
    EXPECT_EQ(Colors(c, true).highlight, "\x1b[35m");
}

}  // namespace
}  // namespace aptus::cli
