#include "aptus/deb/architecture.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace aptus::deb;

TEST(ArchitectureTuple, KnownNames) {
    EXPECT_EQ(arch_tuple("amd64"), (ArchTuple{"base", "gnu", "linux", "amd64"}));
    EXPECT_EQ(arch_tuple("armhf"), (ArchTuple{"eabihf", "gnu", "linux", "arm"}));
    EXPECT_EQ(arch_tuple("x32"), (ArchTuple{"x32", "gnu", "linux", "amd64"}));
    EXPECT_EQ(arch_tuple("mips64el"), (ArchTuple{"abi64", "gnu", "linux", "mips64el"}));
    EXPECT_EQ(arch_tuple("hurd-amd64"), (ArchTuple{"base", "gnu", "hurd", "amd64"}));
    EXPECT_EQ(arch_tuple("kfreebsd-i386"), (ArchTuple{"base", "gnu", "kfreebsd", "i386"}));
    EXPECT_EQ(arch_tuple("musl-linux-arm64"), (ArchTuple{"base", "musl", "linux", "arm64"}));
    EXPECT_EQ(arch_tuple("linux-amd64"), arch_tuple("amd64"));  // the old spelling
    EXPECT_FALSE(arch_tuple("all"));
    EXPECT_FALSE(arch_tuple("any"));
    EXPECT_FALSE(arch_tuple("foo"));
    EXPECT_FALSE(arch_tuple("hurd-foo"));
}

TEST(ArchitectureWildcard, Detects) {
    EXPECT_TRUE(is_arch_wildcard("any"));
    EXPECT_TRUE(is_arch_wildcard("linux-any"));
    EXPECT_TRUE(is_arch_wildcard("any-amd64"));
    EXPECT_TRUE(is_arch_wildcard("gnu-any-any"));
    EXPECT_FALSE(is_arch_wildcard("amd64"));
    EXPECT_FALSE(is_arch_wildcard("hurd-i386"));
    EXPECT_FALSE(is_arch_wildcard("many"));
}

// Each row was checked with `dpkg-architecture -a <arch> -i <pattern>`.
TEST(ArchitectureMatches, AgreesWithDpkgArchitecture) {
    struct Case {
        const char* arch;
        const char* pattern;
        bool expected;
    };
    std::vector<Case> cases = {
        {"amd64", "amd64", true},           {"amd64", "i386", false},
        {"amd64", "any", true},             {"amd64", "linux-any", true},
        {"amd64", "any-amd64", true},       {"amd64", "gnu-any", false},
        {"amd64", "any-any-any-any", true}, {"amd64", "gnu-linux-any", true},
        {"amd64", "base-any-any-any", true}, {"amd64", "any-any", true},
        {"amd64", "amd64-any", false},      {"amd64", "linux-amd64", true},
        {"amd64", "foo-any", false},        {"x32", "any-amd64", true},
        {"x32", "any-x32", false},          {"armhf", "any-arm", true},
        {"armhf", "eabihf-any-any-any", true}, {"armel", "eabihf-any-any-any", false},
        {"i386", "any-i386", true},         {"hurd-i386", "any-i386", true},
        {"hurd-i386", "gnu-any-any", true}, {"hurd-i386", "linux-any", false},
        {"hurd-i386", "hurd-any", true},    {"kfreebsd-amd64", "kfreebsd-any", true},
        {"kfreebsd-amd64", "linux-any", false}, {"musl-linux-amd64", "musl-linux-any", true},
        {"musl-linux-amd64", "linux-any", true}, {"amd64", "musl-linux-any", false},
        {"arm64", "any-arm64", true},       {"arm64", "any-arm", false},
    };
    for (const Case& c : cases) EXPECT_EQ(arch_matches(c.pattern, c.arch), c.expected) << c.arch << " ~ " << c.pattern;
}

TEST(ArchitectureMatches, AllMatchesOnlyAll) {
    EXPECT_TRUE(arch_matches("all", "all"));
    EXPECT_FALSE(arch_matches("all", "amd64"));
    EXPECT_FALSE(arch_matches("any", "all"));
    EXPECT_FALSE(arch_matches("linux-any", "all"));
    EXPECT_FALSE(arch_matches("amd64", "all"));
}

TEST(ArchitectureMatches, UnknownNamesMatchOnlyThemselves) {
    EXPECT_TRUE(arch_matches("foo", "foo"));
    EXPECT_FALSE(arch_matches("linux-any", "foo"));
    EXPECT_TRUE(arch_matches("any", "foo"));  // `any` needs no tuple
    EXPECT_FALSE(arch_matches("foo", "amd64"));
}

TEST(ArchitectureRestrictions, Evaluates) {
    std::vector<ArchRestriction> none;
    EXPECT_TRUE(arch_restrictions_match(none, "amd64"));

    std::vector<ArchRestriction> plain = {{"amd64", false}, {"hurd-any", false}};
    EXPECT_TRUE(arch_restrictions_match(plain, "amd64"));
    EXPECT_TRUE(arch_restrictions_match(plain, "hurd-i386"));
    EXPECT_FALSE(arch_restrictions_match(plain, "i386"));

    std::vector<ArchRestriction> negated = {{"i386", true}, {"kfreebsd-any", true}};
    EXPECT_TRUE(arch_restrictions_match(negated, "amd64"));
    EXPECT_FALSE(arch_restrictions_match(negated, "i386"));
    EXPECT_FALSE(arch_restrictions_match(negated, "kfreebsd-amd64"));

    // Mixed lists (rejected by the parser) read as "one plain matches and no
    // negated one does".
    std::vector<ArchRestriction> mixed = {{"linux-any", false}, {"i386", true}};
    EXPECT_TRUE(arch_restrictions_match(mixed, "amd64"));
    EXPECT_FALSE(arch_restrictions_match(mixed, "i386"));
    EXPECT_FALSE(arch_restrictions_match(mixed, "hurd-amd64"));
}
