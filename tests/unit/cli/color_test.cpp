#include "cli/color.hpp"

#include <gtest/gtest.h>

#include "cli/package_glob.hpp"
#include "cli/search_terms.hpp"
#include "aptus/base/error.hpp"

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

TEST(PackageGlobs, CaseInsensitiveGlobsOnTheName) {
    PackageGlobs g({"BASH*", "zsh"});
    EXPECT_TRUE(g.matches("bash-completion"));
    EXPECT_TRUE(g.matches("zsh"));
    EXPECT_FALSE(g.matches("zsh-common"));
    EXPECT_TRUE(PackageGlobs({}).matches("anything"));
    // apt list reads these as search patterns: a valid one is no glob, and
    // "bas[gh]" is a pattern apt cannot parse.
    EXPECT_FALSE(PackageGlobs({"?installed"}).matches("bash"));
    EXPECT_THROW(PackageGlobs({"bas[gh]"}), Error);
}

TEST(SearchTerms, PosixMeaning) {
    SearchTerm t("^lib.*SSL");
    EXPECT_TRUE(t.matches("libssl3"));
    EXPECT_FALSE(t.matches("xlibssl"));
    EXPECT_TRUE(SearchTerm("a.b").matches("a\nb"));          // '.' matches a newline
    EXPECT_FALSE(SearchTerm("^b").matches("a\nb"));          // '^' only at the start
    EXPECT_FALSE(SearchTerm("a$").matches("a\n"));           // '$' only at the end
    EXPECT_THROW(SearchTerm("("), Error);
    std::vector<SearchTerm> terms;
    terms.emplace_back("python");
    terms.emplace_back("yaml");
    int asked = 0;
    EXPECT_TRUE(all_terms_match(terms, "python3-yaml", false, [&] { ++asked; return std::string_view(); }));
    EXPECT_EQ(asked, 0);
    EXPECT_TRUE(all_terms_match(terms, "python3-x", false, [&] { ++asked; return std::string_view("YAML parser"); }));
    EXPECT_FALSE(all_terms_match(terms, "python3-x", true, [&] { return std::string_view("YAML parser"); }));
}

}  // namespace
}  // namespace aptus::cli
