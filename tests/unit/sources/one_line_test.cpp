#include "aptus/sources/one_line.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

namespace aptus::sources {
namespace {

using Op = SourceOption::Op;

SourceEntry one(std::string_view line) {
    auto e = parse_one_line(line, "s.list", 7);
    EXPECT_TRUE(e.has_value()) << line;
    return e.value_or(SourceEntry{});
}

std::string error_of(std::string_view line) {
    try {
        parse_one_line(line, "s.list", 7);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(SourcesOneLine, PlainEntry) {
    SourceEntry e = one("deb http://mirror.example/debian bookworm main contrib");
    EXPECT_EQ(e.type, SourceType::Deb);
    EXPECT_EQ(e.uri, "http://mirror.example/debian");
    EXPECT_EQ(e.suite, "bookworm");
    EXPECT_EQ(e.components, (std::vector<std::string>{"main", "contrib"}));
    EXPECT_TRUE(e.options.empty());
    EXPECT_TRUE(e.enabled);
    EXPECT_FALSE(e.deb822);
    EXPECT_EQ(e.location.file, "s.list");
    EXPECT_EQ(e.location.line, 7u);
    EXPECT_EQ(e.location.apt_name(), "s.list:7");
}

TEST(SourcesOneLine, BlankAndCommentLinesAreNothing) {
    EXPECT_FALSE(parse_one_line("", "f", 1));
    EXPECT_FALSE(parse_one_line("   \t ", "f", 1));
    EXPECT_FALSE(parse_one_line("# deb http://a b c", "f", 1));
    EXPECT_FALSE(parse_one_line("   #deb http://a b c", "f", 1));
    EXPECT_FALSE(parse_one_line("\r", "f", 1));
}

TEST(SourcesOneLine, TrailingCommentsAreDropped) {
    EXPECT_EQ(one("deb http://a b c d # note").components, (std::vector<std::string>{"c", "d"}));
    EXPECT_EQ(one("deb http://a b c#note").components, (std::vector<std::string>{"c"}));
    EXPECT_EQ(one("deb-src http://a b c\r").components, (std::vector<std::string>{"c"}));
}

TEST(SourcesOneLine, OptionsWithAndWithoutSpaces) {
    SourceEntry a = one("deb [arch=amd64] http://a b c");
    ASSERT_EQ(a.options.size(), 1u);
    EXPECT_EQ(a.options[0].key, "arch");
    EXPECT_EQ(a.options[0].op, Op::Set);
    EXPECT_EQ(a.options[0].values, (std::vector<std::string>{"amd64"}));

    SourceEntry b = one("deb [ arch=amd64,i386 lang=de   signed-by=/k.gpg ] http://a b c");
    ASSERT_EQ(b.options.size(), 3u);
    EXPECT_EQ(b.options[0].values, (std::vector<std::string>{"amd64", "i386"}));
    EXPECT_EQ(b.options[1].key, "lang");
    EXPECT_EQ(b.options[2].key, "signed-by");
    EXPECT_EQ(b.uri, "http://a");
}

TEST(SourcesOneLine, AddAndRemoveForms) {
    SourceEntry e = one("deb [arch+=armel,mips arch-=i386 lang+=fr target-=Contents-deb] http://a b c");
    ASSERT_EQ(e.options.size(), 4u);
    EXPECT_EQ(e.options[0].op, Op::Add);
    EXPECT_EQ(e.options[0].key, "arch");
    EXPECT_EQ(e.options[1].op, Op::Remove);
    EXPECT_EQ(e.options[2].key, "lang");
    EXPECT_EQ(e.options[3].key, "target");
    std::vector<std::string> base{"amd64", "i386"};
    EXPECT_EQ(e.option_values("arch", base), (std::vector<std::string>{"amd64", "armel", "mips"}));
    EXPECT_EQ(e.option_values("pdiffs", base), std::nullopt);
}

TEST(SourcesOneLine, OptionValuesFollowApt) {
    std::vector<std::string> base{"amd64", "i386"};
    // apt keeps one value per key and op: the later "+=" wins.
    EXPECT_EQ(one("deb [arch+=armel arch+=mips] http://a b c").option_values("arch", base),
              (std::vector<std::string>{"amd64", "i386", "mips"}));
    // Removal comes after addition whatever the order.
    EXPECT_EQ(one("deb [arch-=amd64 arch+=amd64] http://a b c").option_values("arch", base),
              (std::vector<std::string>{"i386"}));
    EXPECT_EQ(one("deb [arch+=mips arch=armel] http://a b c").option_values("arch", base),
              (std::vector<std::string>{"armel", "mips"}));
}

TEST(SourcesOneLine, EveryDocumentedOptionIsKept) {
    SourceEntry e = one(
        "deb [trusted=yes check-valid-until=no valid-until-min=10 valid-until-max=20 date-max-future=30 "
        "by-hash=force pdiffs=no allow-insecure=yes allow-weak=yes allow-downgrade-to-insecure=yes "
        "snapshot=20240101T000000Z target=Packages] http://a b c");
    ASSERT_EQ(e.options.size(), 12u);
    EXPECT_EQ(e.option("by-hash")->values, (std::vector<std::string>{"force"}));
    EXPECT_EQ(e.option("snapshot")->values, (std::vector<std::string>{"20240101T000000Z"}));
    EXPECT_EQ(e.option("nope"), nullptr);
}

TEST(SourcesOneLine, HashInsideOptionsIsData) {
    EXPECT_EQ(one("deb [arch=a#b] http://a b c").options[0].values, (std::vector<std::string>{"a#b"}));
}

TEST(SourcesOneLine, QuotedUriHoldsSpaces) {
    EXPECT_EQ(one("deb \"http://a b\" c d").uri, "http://a b");
}

TEST(SourcesOneLine, FlatRepository) {
    SourceEntry e = one("deb [trusted=yes] file:/srv/repo ./");
    EXPECT_TRUE(e.is_flat());
    EXPECT_EQ(e.suite, "./");
    EXPECT_TRUE(e.components.empty());
    EXPECT_TRUE(one("deb http://a sub/dir/").is_flat());
}

TEST(SourcesOneLine, DebSrc) { EXPECT_EQ(one("deb-src http://a b c").type, SourceType::DebSrc); }

TEST(SourcesOneLine, Errors) {
    EXPECT_EQ(error_of("debx http://a b c"), "Malformed line 7 in source list s.list (type)");
    EXPECT_EQ(error_of("rpm http://a b c"), "Malformed line 7 in source list s.list (type)");
    EXPECT_EQ(error_of("deb"), "Malformed entry 7 in list file s.list (URI)");
    EXPECT_EQ(error_of("deb http://a"), "Malformed entry 7 in list file s.list (Suite)");
    EXPECT_EQ(error_of("deb http://a b"), "Malformed entry 7 in list file s.list (Component)");
    EXPECT_EQ(error_of("deb http://a ./ main"), "Malformed entry 7 in list file s.list (absolute Suite Component)");
    EXPECT_EQ(error_of("deb [arch] http://a b c"), "Malformed entry 7 in list file s.list ([option] not assignment)");
    EXPECT_EQ(error_of("deb [arch=] http://a b c"), "Malformed entry 7 in list file s.list ([option] no value)");
    EXPECT_EQ(error_of("deb [=x] http://a b c"), "Malformed entry 7 in list file s.list ([option] no key)");
    EXPECT_EQ(error_of("deb [arch=amd64 http://a b c"),
              "Malformed entry 7 in list file s.list ([option] not assignment)");
    EXPECT_EQ(error_of("deb [arch=amd64]http://a b c"),
              "Malformed entry 7 in list file s.list ([option] needs a space after ']')");
    EXPECT_EQ(error_of("deb /srv/repo b c"),
              "Malformed entry 7 in list file s.list (URI parse)");
    EXPECT_EQ(error_of("deb mirror/debian b c"),
              "Malformed entry 7 in list file s.list (URI parse)");
    EXPECT_EQ(error_of("deb \"http://a b c"), "Malformed entry 7 in list file s.list (unterminated quote)");
}

TEST(SourcesOneLine, FileCountsLines) {
    auto v = parse_one_line_file("# head\n\ndeb http://a b c\r\n  # deb http://x y z\ndeb-src http://a b c", "f");
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].location.line, 3u);
    EXPECT_EQ(v[1].location.line, 5u);
    EXPECT_EQ(v[1].type, SourceType::DebSrc);
    EXPECT_TRUE(parse_one_line_file("", "f").empty());
    try {
        parse_one_line_file("deb http://a b c\n\nbad http://a b c\n", "f");
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "Malformed line 3 in source list f (type)");
    }
}

}  // namespace
}  // namespace aptus::sources
