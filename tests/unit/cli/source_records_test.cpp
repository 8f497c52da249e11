#include "cli/source_records.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

namespace aptus::cli {
namespace {

std::string record(std::string_view name, std::string_view version, std::string_view binary,
                   std::string_view extra = "") {
    std::string s = "Package: " + std::string(name) + "\n";
    if (!binary.empty()) s += "Binary: " + std::string(binary) + "\n";
    s += "Version: " + std::string(version) + "\n";
    s += extra;
    s += "Directory: pool/main/" + std::string(name.substr(0, 1)) + "/" + std::string(name) + "\n";
    return s;
}

// Sources files in sources.list order; the strings must outlive the queries.
struct Files {
    std::vector<std::string> bodies;
    std::vector<SourcesText> texts;
    explicit Files(std::vector<std::string> b) : bodies(std::move(b)) {
        for (size_t i = 0; i < bodies.size(); ++i)
            texts.push_back({"s" + std::to_string(i) + "_Sources", "file" + std::to_string(i), bodies[i]});
    }
};

std::string_view field(std::string_view text, std::string_view name) {
    size_t at = text.find(std::string(name) + ": ");
    if (at == std::string_view::npos) return {};
    text.remove_prefix(at + name.size() + 2);
    return text.substr(0, text.find('\n'));
}

// "name version" of each hit, and "+" after it when it matched through Binary.
std::vector<std::string> shown(const SourceQuery& q) {
    std::vector<std::string> out;
    for (const SourceHit& h : q.hits)
        out.push_back(std::string(field(h.text, "Package")) + " " + std::string(field(h.text, "Version")) +
                      (h.by_binary ? "+" : ""));
    return out;
}

using Lines = std::vector<std::string>;

TEST(BinaryNames, CommasBlanksAndFoldedLines) {
    EXPECT_EQ(binary_names("a, b,\n c , d"), (std::vector<std::string_view>{"a", "b", "c", "d"}));
    EXPECT_EQ(binary_names("single"), (std::vector<std::string_view>{"single"}));
    EXPECT_EQ(binary_names("a,,b, "), (std::vector<std::string_view>{"a", "b"}));
    EXPECT_TRUE(binary_names("").empty());
}

TEST(SourceRecords, FileOrderNotVersionOrder) {
        // The older version's file comes first in the sources, and inside the
    // second file the newer record is written first: apt reads, never sorts.
    Files c({record("foo", "1.0", "foo") + "\n" + record("bar", "1", "bar"),
                          record("foo", "3.0", "foo") + "\n" + record("foo", "2.0", "foo")});
    std::vector<std::string> args{"foo"};
    auto q = find_source_records(c.texts, args, false);
    ASSERT_EQ(q.size(), 1u);
    EXPECT_EQ(shown(q[0]), (Lines{"foo 1.0", "foo 3.0", "foo 2.0"}));
}

TEST(SourceRecords, BinaryNamesFindTheSourcesThatBuildThem) {
        Files c({record("foo", "1.0", "foo, foo-utils,\n libfoo1") + "\n" +
                              record("zzz", "5", "zzz, foo-utils") + "\n" + record("abc", "1", "abc, libfoo1")});
    std::vector<std::string> args{"libfoo1", "foo-utils", "nothing"};
    auto q = find_source_records(c.texts, args, false);
    ASSERT_EQ(q.size(), 3u);
    EXPECT_EQ(shown(q[0]), (Lines{"foo 1.0+", "abc 1+"}));
    // foo's record was printed for the first name already: only zzz is new.
    EXPECT_EQ(shown(q[1]), (Lines{"zzz 5+"}));
    EXPECT_TRUE(q[2].hits.empty());
    EXPECT_EQ(q[1].matched, 2u);
    EXPECT_EQ(q[2].matched, 0u);
}

TEST(SourceRecords, OnlySourceAndTheSrcPrefix) {
        Files c({record("foo", "1.0", "foo, foo-utils") + "\n" + record("foo-utils", "0.1", "foo-utils")});
    {
        std::vector<std::string> args{"foo-utils"};
        auto q = find_source_records(c.texts, args, false);
        EXPECT_EQ(shown(q[0]), (Lines{"foo 1.0+", "foo-utils 0.1"}));
    }
    {
        std::vector<std::string> args{"foo-utils"};
        auto q = find_source_records(c.texts, args, true);
        EXPECT_EQ(shown(q[0]), (Lines{"foo-utils 0.1"}));
    }
    {
        std::vector<std::string> args{"src:foo-utils", "src:nosuch"};
        auto q = find_source_records(c.texts, args, false);
        EXPECT_EQ(q[0].argument, "src:foo-utils");
        EXPECT_EQ(q[0].name, "foo-utils");
        EXPECT_TRUE(q[0].only_source);
        EXPECT_EQ(shown(q[0]), (Lines{"foo-utils 0.1"}));
        EXPECT_TRUE(q[1].hits.empty());
    }
}

TEST(SourceRecords, IdenticalRecordsOnce) {
        std::string same = record("foo", "1.0", "foo");
    // The same record in two suites, and a record that differs only in a
    // field showsrc does not look at: apt compares the whole text.
    Files c({same, same + "\n" + record("foo", "1.0", "foo", "Homepage: x\n")});
    std::vector<std::string> args{"foo", "foo"};
    auto q = find_source_records(c.texts, args, false);
    ASSERT_EQ(q[0].hits.size(), 2u);
    EXPECT_EQ(q[0].hits[0].file, 0u);
    EXPECT_EQ(q[0].hits[1].file, 1u);
    EXPECT_NE(q[0].hits[1].text.find("Homepage: x"), std::string_view::npos);
    // Nothing new for the repeated name: apt warns about it.
    EXPECT_TRUE(q[1].hits.empty());
    EXPECT_EQ(q[1].matched, 3u);
}

TEST(SourceRecords, OneRecordReachedByItsSourceAndABinaryName) {
    Files c({record("foo", "1.0", "foo, foo-utils")});
    {
        std::vector<std::string> args{"foo-utils", "foo"};
        auto q = find_source_records(c.texts, args, false);
        EXPECT_EQ(shown(q[0]), (Lines{"foo 1.0+"}));
        EXPECT_TRUE(q[1].hits.empty());
        EXPECT_EQ(q[1].matched, 1u);
    }
    {
        std::vector<std::string> args{"foo", "foo-utils"};
        auto q = find_source_records(c.texts, args, false);
        EXPECT_EQ(shown(q[0]), (Lines{"foo 1.0"}));
        EXPECT_TRUE(q[1].hits.empty());
    }
}

TEST(SourceRecords, RecordTextAsWritten) {
    // The last record lacks its final newline; blank lines between records
    // are not part of either.
    std::string bar = record("bar", "2", "bar");
    bar.pop_back();
    Files c({record("foo", "1.0", "foo") + "\n\n\n" + bar});
    std::vector<std::string> args{"foo", "bar"};
    auto q = find_source_records(c.texts, args, false);
    ASSERT_EQ(q[0].hits.size(), 1u);
    EXPECT_EQ(q[0].hits[0].text, record("foo", "1.0", "foo"));
    ASSERT_EQ(q[1].hits.size(), 1u);
    EXPECT_EQ(q[1].hits[0].text, bar);
}

// A malformed stanza is skipped as the cache build skips it (the build
// warned of it, naming the file and line); the records around it are found.
TEST(SourceRecords, MalformedStanzaIsSkipped) {
    Files c({record("foo", "1.0", "foo") + "\nPackage: bad\nno colon here\n\n" + record("bar", "2", "bar")});
    std::vector<std::string> args{"foo", "bad", "bar"};
    auto q = find_source_records(c.texts, args, false);
    EXPECT_EQ(q[0].hits.size(), 1u);
    EXPECT_TRUE(q[1].hits.empty());
    EXPECT_EQ(q[2].hits.size(), 1u);
}

TEST(SourceRecords, NamesAreMatchedExactly) {
        Files c({record("foo", "1.0", "foo, foo-doc")});
    std::vector<std::string> args{"Foo", "fo", "foo*", "foo:amd64", "foo=1.0", "foo-do"};
    for (const SourceQuery& q : find_source_records(c.texts, args, false)) EXPECT_TRUE(q.hits.empty()) << q.argument;
}

}  // namespace
}  // namespace aptus::cli
