#include "cli/help.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aptus::cli {
namespace {

// A row with no help of its own must be another name of a documented row of
// the same table (or a switch's "off" form, which the "on" form's help
// names), so nothing the parser takes is missing from help and manual.
void expect_documented(std::span<const OptionSpec> rows, const std::string& where) {
    for (const OptionSpec& row : rows) {
        if (!row.help.empty()) continue;
        bool alias = false;
        for (const OptionSpec& other : rows)
            alias = alias || (!other.help.empty() && other.config_key == row.config_key);
        EXPECT_TRUE(alias) << where << ": --" << row.long_name << " has no help and is no other name of a row that has";
    }
}

TEST(Help, EveryOptionOfEveryTableIsDocumented) {
    expect_documented(general_options(), "general options");
    expect_documented(apt_options(), "apt's options");
    for (const Command& c : commands())
        if (!c.hidden) expect_documented(c.options, command_name(c));
}

TEST(Help, TheOverviewListsEveryCommandOnce) {
    const std::string help = help_text("aptus");
    for (const Command& c : commands()) {
        const std::string line = "\n  " + command_name(c) + " ";
        if (c.hidden) {
            EXPECT_EQ(help.find(line), std::string::npos) << command_name(c);
            continue;
        }
        const size_t at = help.find(line);
        ASSERT_NE(at, std::string::npos) << command_name(c);
        EXPECT_EQ(help.find(line, at + 1), std::string::npos) << command_name(c) << " listed twice";
    }
}

TEST(Help, NoLineWiderThanATerminal) {
    std::vector<std::string> texts = {help_text("aptus")};
    for (const Command& c : commands())
        if (!c.hidden) texts.push_back(command_help_text(c));
    for (const std::string& text : texts) {
        size_t start = 0;
        while (start < text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            // A name list longer than its column keeps its own line.
            if (text.compare(start, 3, "  -") != 0 && text.compare(start, 6, "      ") != 0) {
                EXPECT_LE(end - start, 80u) << text.substr(start, end - start);
            }
            start = end + 1;
        }
    }
}

TEST(Help, ACommandsHelpNamesItsOptions) {
    const Command* install = nullptr;
    for (const Command& c : commands())
        if (command_name(c) == "install") install = &c;
    ASSERT_NE(install, nullptr);
    const std::string help = command_help_text(*install);
    EXPECT_EQ(help.rfind("Usage: aptus [options] install PACKAGE", 0), 0u) << help;
    EXPECT_NE(help.find("--no-install-recommends"), std::string::npos);
    EXPECT_NE(help.find("-V, --verbose-versions"), std::string::npos);
    EXPECT_NE(help.find("-d, --download-only"), std::string::npos);
    EXPECT_NE(help.find("-t, --target-release, --default-release RELEASE"), std::string::npos) << help;
    EXPECT_NE(help.find("--auto-remove, --autoremove"), std::string::npos);
    // The options every command takes follow.
    EXPECT_NE(help.find("-o, --option KEY=VALUE"), std::string::npos);
}

TEST(Help, TheManualHasEveryCommandAndOption) {
    const std::string manual = manual_sections();
    for (const Command& c : commands())
        if (!c.hidden) {
            EXPECT_NE(manual.find("*" + command_name(c) + "*"), std::string::npos) << command_name(c);
        }
    EXPECT_NE(manual.find("*--solver NAME*"), std::string::npos);
    EXPECT_NE(manual.find("# OPTIONS"), std::string::npos);
}

TEST(Help, FindsCommandsOfTwoWords) {
    std::vector<std::string> words = {"config", "dump", "APT"};
    const Command* c = find_command(words);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(command_name(*c), "config dump");
    words = {"nothing"};
    EXPECT_EQ(find_command(words), nullptr);
}

}  // namespace
}  // namespace aptus::cli
