#include "cli/message.hpp"

#include <gtest/gtest.h>

namespace aptus::cli {
namespace {

TEST(Message, AptsLettersInAPipeAndUnderAptGetsName) {
    config::Config c;
    EXPECT_FALSE(message_style("aptus", nullptr, false, nullptr, nullptr).words);
    EXPECT_FALSE(message_style("apt-get", nullptr, true, nullptr, nullptr).words);
    c.set("Binary", "apt-get");
    EXPECT_FALSE(message_style("apt-get", &c, true, nullptr, nullptr).words);
    EXPECT_EQ(format_message(MessageLevel::Error, "Unable to locate package x", {}), "E: Unable to locate package x\n");
    EXPECT_EQ(format_message(MessageLevel::Warning, "w", {}), "W: w\n");
    EXPECT_EQ(format_message(MessageLevel::Notice, "n", {}), "N: n\n");
}

TEST(Message, Apt3WordsAndColoursOnATerminal) {
    config::Config c;
    c.set("Binary", "aptus");
    MessageStyle s = message_style("aptus", &c, true, nullptr, nullptr);
    EXPECT_TRUE(s.words);
    EXPECT_TRUE(s.color);
    // apt 3.0's captured form: the prefix bold red, the text bold.
    EXPECT_EQ(format_message(MessageLevel::Error, "Unable to locate package x", s),
              "\x1b[1;31mError: \x1b[0m\x1b[1mUnable to locate package x\x1b[0m\n");
    EXPECT_EQ(format_message(MessageLevel::Warning, "w", s), "\x1b[1;33mWarning: \x1b[0m\x1b[1mw\x1b[0m\n");
    // Notices are not bold.
    EXPECT_EQ(format_message(MessageLevel::Notice, "n", s), "\x1b[1mNotice: \x1b[0mn\n");
    // NO_COLOR keeps the words, drops the colours.
    s = message_style("aptus", &c, true, "1", nullptr);
    EXPECT_TRUE(s.words);
    EXPECT_FALSE(s.color);
    EXPECT_EQ(format_message(MessageLevel::Error, "x", s), "Error: x\n");
}

TEST(Message, AptFollowsItsOutputVersion) {
    config::Config c;
    c.set("Binary", "apt");
    EXPECT_TRUE(message_style("apt", &c, true, nullptr, nullptr).words);
    c.set("APT::Output-Version", "0");
    EXPECT_FALSE(message_style("apt", &c, true, nullptr, nullptr).words);
}

TEST(Message, AdviceNamesTheProgram) {
    config::Config c;
    c.set("Binary", "aptus");
    EXPECT_EQ(advice_program(c), "aptus");
    c.set("Binary", "apt-get");
    EXPECT_EQ(advice_program(c), "apt");
}

}  // namespace
}  // namespace aptus::cli
