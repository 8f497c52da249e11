#include "aptus/install/satisfy.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

namespace aptus::install {
namespace {

std::string refusal(std::string word) {
    try {
        check_satisfy_words(std::vector<std::string>{word});
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(SatisfyWords, AptsErrors) {
    EXPECT_EQ(refusal("foo (>= 1), bar | baz [amd64] <!nocheck>"), "");
    EXPECT_EQ(refusal("Conflicts: foo:i386 (>= 1) [i386]"), "");
    EXPECT_EQ(refusal("foo:amd64 <a>"), "");  // an architecture qualifier, not a field name
    EXPECT_EQ(refusal("apt (>= 2"), "Problem parsing dependency: apt (>= 2");
    EXPECT_EQ(refusal("Conflicts: apt (>= 2"), "Problem parsing dependency: Conflicts: apt (>= 2");
    EXPECT_EQ(refusal("Recommends: foo"), "Problem parsing dependency: Recommends: foo");
    EXPECT_EQ(refusal(""), "Problem parsing dependency: ");
    EXPECT_EQ(refusal("foo (< 1)"), "Invalid operator '<' at offset 5, did you mean '<<' or '<='? - in: foo (< 1)");
    EXPECT_EQ(refusal("foo ( > 1)"), "Invalid operator '>' at offset 6, did you mean '>>' or '>='? - in: foo ( > 1)");
    EXPECT_EQ(refusal("foo (<< 1), bar (>= 2)"), "");
}

}  // namespace
}  // namespace aptus::install
