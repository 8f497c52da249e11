#include "aptus/deb/relation.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aptus/base/error.hpp"

using namespace aptus::deb;

namespace {

RelationList parse(std::string_view text, RelationField f = RelationField::Depends) {
    RelationList l;
    parse_relations(text, f, l);
    return l;
}

std::string roundtrip(std::string_view text, RelationField f = RelationField::Depends) {
    return format_relations(parse(text, f));
}

// The message of the error parsing `text` throws, or "" when it parses.
std::string error_of(std::string_view text, RelationField f = RelationField::Depends) {
    try {
        parse(text, f);
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(RelationParse, SimpleGroupsAndAlternatives) {
    RelationList l = parse("libc6 (>= 2.34), foo | bar (<< 2.0) | baz, qux");
    ASSERT_EQ(l.group_count(), 3u);
    ASSERT_EQ(l.group(0).size(), 1u);
    EXPECT_EQ(l.group(0)[0].name, "libc6");
    EXPECT_EQ(l.group(0)[0].op, RelationOp::GreaterEq);
    EXPECT_EQ(l.group(0)[0].version, "2.34");
    ASSERT_EQ(l.group(1).size(), 3u);
    EXPECT_EQ(l.group(1)[0].name, "foo");
    EXPECT_EQ(l.group(1)[0].op, RelationOp::None);
    EXPECT_EQ(l.group(1)[0].version, "");
    EXPECT_EQ(l.group(1)[1].name, "bar");
    EXPECT_EQ(l.group(1)[1].op, RelationOp::Less);
    EXPECT_EQ(l.group(1)[2].name, "baz");
    EXPECT_EQ(l.group(2)[0].name, "qux");
    EXPECT_EQ(l.relations().size(), 5u);
}

TEST(RelationParse, AllOperators) {
    struct Case {
        const char* text;
        RelationOp op;
    };
    for (Case c : {Case{"a (<< 1)", RelationOp::Less}, Case{"a (<= 1)", RelationOp::LessEq},
                   Case{"a (= 1)", RelationOp::Equal}, Case{"a (>= 1)", RelationOp::GreaterEq},
                   Case{"a (>> 1)", RelationOp::Greater},
                   // The obsolete forms, read as apt reads them.
                   Case{"a (< 1)", RelationOp::LessEq}, Case{"a (> 1)", RelationOp::GreaterEq}}) {
        RelationList l = parse(c.text);
        ASSERT_EQ(l.relations().size(), 1u) << c.text;
        EXPECT_EQ(l.relations()[0].op, c.op) << c.text;
        EXPECT_EQ(l.relations()[0].version, "1") << c.text;
    }
    EXPECT_EQ(roundtrip("a (< 1), b (> 2)"), "a (<= 1), b (>= 2)");
}

TEST(RelationParse, FlexibleWhitespace) {
    EXPECT_EQ(roundtrip("foo(>=1)"), "foo (>= 1)");
    EXPECT_EQ(roundtrip("foo(>=1)|bar,baz"), "foo (>= 1) | bar, baz");
    EXPECT_EQ(roundtrip("  foo  (  >=   1:2.0-1~bpo1  )  ,\tbar  "), "foo (>= 1:2.0-1~bpo1), bar");
    EXPECT_EQ(roundtrip("foo (>=\n 1.0),\n bar\n |\n baz"), "foo (>= 1.0), bar | baz");
    EXPECT_EQ(roundtrip("foo,\r\n bar"), "foo, bar");
    RelationList l = parse("foo ( >= 1.0 )");
    EXPECT_EQ(l.relations()[0].version, "1.0");
}

TEST(RelationParse, EmptyValueAndTrailingComma) {
    EXPECT_EQ(parse("").group_count(), 0u);
    EXPECT_EQ(parse("  \n ").group_count(), 0u);
    // apt and dpkg-source accept a trailing comma; it adds no group.
    EXPECT_EQ(parse("foo, bar,").group_count(), 2u);
    EXPECT_EQ(parse("foo, bar ,\n ").group_count(), 2u);
    EXPECT_EQ(roundtrip("foo,", RelationField::BuildDepends), "foo");
}

TEST(RelationParse, ArchQualifiers) {
    RelationList l = parse("python3:any (>= 3.11), foo:native, bar:amd64 | baz:i386");
    EXPECT_EQ(l.group(0)[0].name, "python3");
    EXPECT_EQ(l.group(0)[0].arch_qualifier, "any");
    EXPECT_EQ(l.group(0)[0].version, "3.11");
    EXPECT_EQ(l.group(1)[0].arch_qualifier, "native");
    EXPECT_EQ(l.group(2)[0].arch_qualifier, "amd64");
    EXPECT_EQ(l.group(2)[1].arch_qualifier, "i386");
    EXPECT_EQ(l.group(0)[0].arch_qualifier.empty(), false);
    EXPECT_EQ(parse("foo").relations()[0].arch_qualifier, "");
    EXPECT_EQ(roundtrip("python3:any(>=3.11)"), "python3:any (>= 3.11)");
}

TEST(RelationParse, ArchRestrictions) {
    RelationList l = parse("foo [amd64 i386], bar (>= 1) [!hurd-any !kfreebsd-any] | baz", RelationField::BuildDepends);
    auto a0 = l.arch_restrictions(l.group(0)[0]);
    ASSERT_EQ(a0.size(), 2u);
    EXPECT_EQ(a0[0], (ArchRestriction{"amd64", false}));
    EXPECT_EQ(a0[1], (ArchRestriction{"i386", false}));
    auto a1 = l.arch_restrictions(l.group(1)[0]);
    ASSERT_EQ(a1.size(), 2u);
    EXPECT_EQ(a1[0], (ArchRestriction{"hurd-any", true}));
    EXPECT_EQ(a1[1], (ArchRestriction{"kfreebsd-any", true}));
    EXPECT_TRUE(l.arch_restrictions(l.group(1)[1]).empty());
    EXPECT_TRUE(arch_restrictions_match(a0, "amd64"));
    EXPECT_FALSE(arch_restrictions_match(a0, "arm64"));
    EXPECT_TRUE(arch_restrictions_match(a1, "amd64"));
    EXPECT_FALSE(arch_restrictions_match(a1, "hurd-i386"));
    EXPECT_EQ(roundtrip("foo[ amd64  i386 ]", RelationField::BuildDependsArch), "foo [amd64 i386]");
    // Policy 7.1 forbids mixing `arch` and `!arch`; apt and dpkg parse it anyway.
    RelationList mixed = parse("foo [amd64 !i386]", RelationField::BuildDepends);
    auto m = mixed.arch_restrictions(mixed.relations()[0]);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[1], (ArchRestriction{"i386", true}));
    EXPECT_EQ(roundtrip("foo [\n amd64\n ]", RelationField::BuildConflicts), "foo [amd64]");
}

TEST(RelationParse, BuildProfiles) {
    RelationList l = parse("foo <!nocheck>, bar [linux-any] <!cross !stage1> <stage2>, baz <pkg.foo.bar>",
                           RelationField::BuildDepends);
    const Relation& foo = l.group(0)[0];
    ASSERT_EQ(l.profile_group_count(foo), 1u);
    ASSERT_EQ(l.profile_group(foo, 0).size(), 1u);
    EXPECT_EQ(l.profile_group(foo, 0)[0], (ProfileTerm{"nocheck", true}));
    const Relation& bar = l.group(1)[0];
    ASSERT_EQ(l.profile_group_count(bar), 2u);
    ASSERT_EQ(l.profile_group(bar, 0).size(), 2u);
    EXPECT_EQ(l.profile_group(bar, 0)[0], (ProfileTerm{"cross", true}));
    EXPECT_EQ(l.profile_group(bar, 0)[1], (ProfileTerm{"stage1", true}));
    ASSERT_EQ(l.profile_group(bar, 1).size(), 1u);
    EXPECT_EQ(l.profile_group(bar, 1)[0], (ProfileTerm{"stage2", false}));
    EXPECT_EQ(l.arch_restrictions(bar).size(), 1u);
    const Relation& baz = l.group(2)[0];
    EXPECT_EQ(l.profile_group(baz, 0)[0].name, "pkg.foo.bar");
    EXPECT_EQ(l.profile_group_count(parse("x").relations()[0]), 0u);
    EXPECT_EQ(roundtrip("a<!nocheck><cross>|b< stage1  !nodoc >", RelationField::BuildDependsIndep),
              "a <!nocheck> <cross> | b <stage1 !nodoc>");
}

TEST(RelationParse, ProfilesMatch) {
    RelationList l = parse("a <!nocheck>, b <cross !nocheck> <stage1>, c", RelationField::BuildDepends);
    const Relation& a = l.group(0)[0];
    const Relation& b = l.group(1)[0];
    const Relation& c = l.group(2)[0];
    std::vector<std::string_view> none, nocheck = {"nocheck"}, cross = {"cross"}, stage1 = {"stage1", "nocheck"};
    EXPECT_TRUE(profiles_match(l, a, none));
    EXPECT_FALSE(profiles_match(l, a, nocheck));
    EXPECT_FALSE(profiles_match(l, b, none));
    EXPECT_TRUE(profiles_match(l, b, cross));
    EXPECT_TRUE(profiles_match(l, b, stage1));
    EXPECT_TRUE(profiles_match(l, c, nocheck));
}

TEST(RelationParse, EverythingAtOnce) {
    const char* text = "a (>= 1.0) | b:any [amd64 !i386] <!nocheck>, c";
    EXPECT_EQ(roundtrip(text, RelationField::BuildDepends), text);
    const char* ok = "a (>= 1.0) | b:any (<< 2~) [amd64 arm64] <!nocheck> <cross>, c";
    EXPECT_EQ(roundtrip(ok, RelationField::BuildDepends), ok);
}

TEST(RelationParse, ProvidesWithVersions) {
    RelationList l = parse("foo (= 1.0), bar, libfoo-abi-2 (=2)", RelationField::Provides);
    ASSERT_EQ(l.group_count(), 3u);
    EXPECT_EQ(l.group(0)[0].op, RelationOp::Equal);
    EXPECT_EQ(l.group(0)[0].version, "1.0");
    EXPECT_EQ(l.group(1)[0].op, RelationOp::None);
    EXPECT_EQ(l.group(2)[0].version, "2");
}

TEST(RelationParse, EveryFieldParses) {
    for (int i = 0; i <= int(RelationField::BuildConflictsArch); ++i) {
        auto f = RelationField(i);
        RelationList l = parse("foo (= 1.0), bar", f);
        EXPECT_EQ(l.group_count(), 2u) << relation_field_name(f);
    }
}

TEST(RelationParse, NamesAndCharacters) {
    EXPECT_EQ(roundtrip("libstdc++6, g++-12, libfoo1.0-dev, 0ad-data, A.B+c-d"), "libstdc++6, g++-12, libfoo1.0-dev, 0ad-data, A.B+c-d");
    EXPECT_EQ(parse("foo (>= 1:2.3~rc1+dfsg-1.2~bpo12+1)").relations()[0].version, "1:2.3~rc1+dfsg-1.2~bpo12+1");
}

TEST(RelationParse, ReusesListWithoutStaleData) {
    RelationList l;
    parse_relations("a [amd64] <x>, b | c", RelationField::BuildDepends, l);
    parse_relations("d", RelationField::Depends, l);
    ASSERT_EQ(l.group_count(), 1u);
    EXPECT_EQ(l.relations()[0].name, "d");
    EXPECT_TRUE(l.arch_restrictions(l.relations()[0]).empty());
    EXPECT_EQ(l.profile_group_count(l.relations()[0]), 0u);
    parse_relations("", RelationField::Depends, l);
    EXPECT_EQ(l.group_count(), 0u);
    EXPECT_TRUE(l.relations().empty());
}

TEST(RelationParse, GroupIteration) {
    RelationList l = parse("a | b, c, d | e | f");
    std::vector<size_t> sizes;
    for (std::span<const Relation> alts : l.groups()) sizes.push_back(alts.size());
    EXPECT_EQ(sizes, (std::vector<size_t>{2, 1, 3}));
}

TEST(RelationFields, Names) {
    EXPECT_EQ(relation_field_name(RelationField::PreDepends), "Pre-Depends");
    EXPECT_EQ(relation_field_name(RelationField::BuildConflictsArch), "Build-Conflicts-Arch");
    EXPECT_EQ(relation_field_from_name("build-depends-indep"), RelationField::BuildDependsIndep);
    EXPECT_EQ(relation_field_from_name("STATIC-BUILT-USING"), RelationField::StaticBuiltUsing);
    EXPECT_FALSE(relation_field_from_name("Depend"));
    for (int i = 0; i <= int(RelationField::BuildConflictsArch); ++i)
        EXPECT_EQ(relation_field_from_name(relation_field_name(RelationField(i))), RelationField(i));
    EXPECT_TRUE(is_source_relation_field(RelationField::BuildDepends));
    EXPECT_TRUE(is_source_relation_field(RelationField::BuildConflictsIndep));
    EXPECT_FALSE(is_source_relation_field(RelationField::StaticBuiltUsing));
    EXPECT_FALSE(is_source_relation_field(RelationField::Depends));
    EXPECT_EQ(relation_op_text(RelationOp::GreaterEq), ">=");
    EXPECT_EQ(relation_op_text(RelationOp::None), "");
}

TEST(RelationErrors, Messages) {
    struct Case {
        const char* text;
        RelationField field;
        const char* message;
    };
    const RelationField D = RelationField::Depends, B = RelationField::BuildDepends;
    std::vector<Case> cases = {
        {"foo (>> )", D, "Depends: bad relation 'foo (>> )': missing version"},
        {"a, foo (>> ), b", D, "Depends: bad relation 'foo (>> )': missing version"},
        {"foo (1.0)", D, "Depends: bad relation 'foo (1.0)': missing or bad operator"},
        {"foo (== 1.0)", D, "Depends: bad relation 'foo (== 1.0)': bad operator"},
        {"foo (=> 1.0)", D, "Depends: bad relation 'foo (=> 1.0)': bad operator"},
        {"foo (<<< 1.0)", D, "Depends: bad relation 'foo (<<< 1.0)': bad operator"},
        {"foo (>= 1.0", D, "Depends: bad relation 'foo (>= 1.0': missing ')'"},
        {"foo (>= 1.0, bar", D, "Depends: bad relation 'foo (>= 1.0': missing ')'"},
        {"foo (>= 1 0)", D, "Depends: bad relation 'foo (>= 1 0)': space in version"},
        {"foo (>= 1[0])", D, "Depends: bad relation 'foo (>= 1[0])': bad character in version"},
        {"foo (>= 1) (<< 2)", D, "Depends: bad relation 'foo (>= 1) (<< 2)': unexpected '('"},
        {"foo bar", D, "Depends: bad relation 'foo bar': unexpected 'b'"},
        {"foo :any", D, "Depends: bad relation 'foo :any': unexpected ':'"},
        {"foo:", D, "Depends: bad relation 'foo:': missing architecture after ':'"},
        {"foo:(>= 1)", D, "Depends: bad relation 'foo:(>= 1)': missing architecture after ':'"},
        {"-foo", D, "Depends: bad relation '-foo': missing package name"},
        {"(>= 1)", D, "Depends: bad relation '(>= 1)': missing package name"},
        {"a,,b", D, "Depends: bad relation 'a,,b': missing package name"},
        {", a", D, "Depends: bad relation ', a': missing package name"},
        {"a | | b", D, "Depends: bad relation 'a | | b': missing package name"},
        {"a |", D, "Depends: bad relation 'a |': missing package name"},
        {"a,\n b (>>\n )", D, "Depends: bad relation 'b (>> )': missing version"},
        {"a (= 1) | b", RelationField::Provides, "Provides: bad relation 'a (= 1) | b': alternatives ('|') are not allowed here"},
        {"a | b", RelationField::Conflicts, "Conflicts: bad relation 'a | b': alternatives ('|') are not allowed here"},
        {"x, a | b, c", RelationField::Breaks, "Breaks: bad relation 'a | b': alternatives ('|') are not allowed here"},
        {"a | b", RelationField::Replaces, "Replaces: bad relation 'a | b': alternatives ('|') are not allowed here"},
        {"a (>= 1)", RelationField::Provides, "Provides: bad relation 'a (>= 1)': only '=' is allowed in Provides"},
        {"a [amd64]", D, "Depends: bad relation 'a [amd64]': architecture restrictions are only allowed in Build-* fields"},
        {"a <!nocheck>", RelationField::Recommends, "Recommends: bad relation 'a <!nocheck>': build profiles are only allowed in Build-* fields"},
        {"a [amd64", B, "Build-Depends: bad relation 'a [amd64': missing ']'"},
        {"a []", B, "Build-Depends: bad relation 'a []': empty architecture restriction list"},
        {"a [!]", B, "Build-Depends: bad relation 'a [!]': bad architecture in restriction list"},
        {"a [am_d64]", B, "Build-Depends: bad relation 'a [am_d64]': bad architecture in restriction list"},
        {"a <nocheck", B, "Build-Depends: bad relation 'a <nocheck': missing '>'"},
        {"a <>", B, "Build-Depends: bad relation 'a <>': empty build profile list"},
        {"a <!>", B, "Build-Depends: bad relation 'a <!>': bad build profile name"},
        {"a <x> [amd64]", B, "Build-Depends: bad relation 'a <x> [amd64]': unexpected '['"},
        {"a (>= 1) , b )", B, "Build-Depends: bad relation 'b )': unexpected ')'"},
    };
    for (const Case& c : cases) EXPECT_EQ(error_of(c.text, c.field), c.message) << c.text;
}

TEST(RelationErrors, AreAptusErrors) {
    RelationList l;
    EXPECT_THROW(parse_relations("foo (>> )", RelationField::Depends, l), aptus::Error);
}

TEST(RelationSatisfied, Operators) {
    EXPECT_TRUE(relation_satisfied_by(RelationOp::None, "", "1.0"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::GreaterEq, "1.0", "1.0"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::GreaterEq, "1.0", "1.0.1"));
    EXPECT_FALSE(relation_satisfied_by(RelationOp::GreaterEq, "1.0", "1.0~rc1"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::Greater, "1.0", "1:0.1"));
    EXPECT_FALSE(relation_satisfied_by(RelationOp::Greater, "1.0", "1.0"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::Less, "2.0", "1.9"));
    EXPECT_FALSE(relation_satisfied_by(RelationOp::Less, "2.0", "2.0"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::LessEq, "2.0", "2.0"));
    EXPECT_FALSE(relation_satisfied_by(RelationOp::LessEq, "2.0", "2.0+b1"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::Equal, "1.0", "0:1.0"));
    EXPECT_TRUE(relation_satisfied_by(RelationOp::Equal, "1.0-0", "1.0"));
    EXPECT_FALSE(relation_satisfied_by(RelationOp::Equal, "1.0", "1.0-1"));
}

TEST(RelationSatisfied, FromParsedRelation) {
    RelationList l = parse("libc6 (>= 2.36), foo (<< 2~)");
    const Relation& libc = l.group(0)[0];
    EXPECT_TRUE(relation_satisfied_by(libc.op, libc.version, "2.36-9+deb12u4"));
    EXPECT_FALSE(relation_satisfied_by(libc.op, libc.version, "2.31-13"));
    const Relation& foo = l.group(1)[0];
    EXPECT_TRUE(relation_satisfied_by(foo.op, foo.version, "1.9"));
    EXPECT_FALSE(relation_satisfied_by(foo.op, foo.version, "2~"));
}

// Random text from the syntax's own characters either parses, and then prints
// to text that parses to the same canonical form, or throws aptus::Error:
// never anything else (run under ASan/UBSan too).
TEST(RelationParse, ArbitraryInputParsesOrThrows) {
    const std::string_view alphabet = "ab1:.+-()<>=!|,[] \n\t~_";
    uint32_t seed = 12345;
    auto next = [&] {
        seed = seed * 1103515245u + 12345u;
        return seed >> 16;
    };
    RelationList l, again;
    size_t parsed = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string s;
        for (uint32_t n = next() % 24; n > 0; --n) s += alphabet[next() % alphabet.size()];
        for (RelationField f : {RelationField::Depends, RelationField::BuildDepends, RelationField::Provides}) {
            try {
                parse_relations(s, f, l);
            } catch (const aptus::Error&) {
                continue;
            }
            ++parsed;
            std::string printed = format_relations(l);
            ASSERT_NO_THROW(parse_relations(printed, f, again)) << s;
            EXPECT_EQ(format_relations(again), printed) << s;
        }
    }
    EXPECT_GT(parsed, 100u);
}
