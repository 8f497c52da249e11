#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "aptus/request/package_glob.hpp"
#include "aptus/request/search_terms.hpp"

namespace aptus::request {
namespace {

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
}  // namespace aptus::request
