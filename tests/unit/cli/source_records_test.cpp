#include "cli/source_records.hpp"

#include <gtest/gtest.h>

#include "aptus/cache/build.hpp"
#include "support/test_support.hpp"

namespace aptus::cli {
namespace {

using test::TempDir;

std::string record(std::string_view name, std::string_view version, std::string_view binary,
                   std::string_view extra = "") {
    std::string s = "Package: " + std::string(name) + "\n";
    if (!binary.empty()) s += "Binary: " + std::string(binary) + "\n";
    s += "Version: " + std::string(version) + "\n";
    s += extra;
    s += "Directory: pool/main/" + std::string(name.substr(0, 1)) + "/" + std::string(name) + "\n";
    return s;
}

// A cache built from Sources files given in sources.list order.
cache::Cache cache_of(const TempDir& dir, const std::vector<std::string>& files) {
    cache::CacheInputs in;
    in.native_architecture = "amd64";
    for (size_t i = 0; i < files.size(); ++i) {
        cache::IndexInput idx;
        idx.path = dir.write("lists/s" + std::to_string(i) + "_Sources", files[i]);
        idx.kind = cache::IndexKind::Sources;
        idx.component = "main";
        idx.description = "file" + std::to_string(i);
        in.indices.push_back(idx);
    }
    return cache::Cache::from_image(cache::build_cache(in).image);
}

// "name version" of each hit, and "+" after it when it matched through Binary.
std::vector<std::string> shown(const cache::Cache& c, const SourceQuery& q) {
    std::vector<std::string> out;
    for (const SourceHit& h : q.hits)
        out.push_back(std::string(c.str(h.record->name)) + " " + std::string(c.str(h.record->version)) +
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
    TempDir d("srcrec");
    // The older version's file comes first in the sources, and inside the
    // second file the newer record is written first: apt reads, never sorts.
    auto c = cache_of(d, {record("foo", "1.0", "foo") + "\n" + record("bar", "1", "bar"),
                          record("foo", "3.0", "foo") + "\n" + record("foo", "2.0", "foo")});
    std::vector<std::string> args{"foo"};
    auto q = find_source_records(c, args, false);
    ASSERT_EQ(q.size(), 1u);
    EXPECT_EQ(shown(c, q[0]), (Lines{"foo 1.0", "foo 3.0", "foo 2.0"}));
}

TEST(SourceRecords, BinaryNamesFindTheSourcesThatBuildThem) {
    TempDir d("srcrec");
    auto c = cache_of(d, {record("foo", "1.0", "foo, foo-utils,\n libfoo1") + "\n" +
                              record("zzz", "5", "zzz, foo-utils") + "\n" + record("abc", "1", "abc, libfoo1")});
    std::vector<std::string> args{"libfoo1", "foo-utils", "nothing"};
    auto q = find_source_records(c, args, false);
    ASSERT_EQ(q.size(), 3u);
    EXPECT_EQ(shown(c, q[0]), (Lines{"foo 1.0+", "abc 1+"}));
    // foo's record was printed for the first name already: only zzz is new.
    EXPECT_EQ(shown(c, q[1]), (Lines{"zzz 5+"}));
    EXPECT_TRUE(q[2].hits.empty());
    EXPECT_EQ(q[1].matched, 2u);
    EXPECT_EQ(q[2].matched, 0u);
}

TEST(SourceRecords, OnlySourceAndTheSrcPrefix) {
    TempDir d("srcrec");
    auto c = cache_of(d, {record("foo", "1.0", "foo, foo-utils") + "\n" + record("foo-utils", "0.1", "foo-utils")});
    {
        std::vector<std::string> args{"foo-utils"};
        auto q = find_source_records(c, args, false);
        EXPECT_EQ(shown(c, q[0]), (Lines{"foo 1.0+", "foo-utils 0.1"}));
    }
    {
        std::vector<std::string> args{"foo-utils"};
        auto q = find_source_records(c, args, true);
        EXPECT_EQ(shown(c, q[0]), (Lines{"foo-utils 0.1"}));
    }
    {
        std::vector<std::string> args{"src:foo-utils", "src:nosuch"};
        auto q = find_source_records(c, args, false);
        EXPECT_EQ(q[0].argument, "src:foo-utils");
        EXPECT_EQ(q[0].name, "foo-utils");
        EXPECT_TRUE(q[0].only_source);
        EXPECT_EQ(shown(c, q[0]), (Lines{"foo-utils 0.1"}));
        EXPECT_TRUE(q[1].hits.empty());
    }
}

TEST(SourceRecords, IdenticalRecordsOnce) {
    TempDir d("srcrec");
    std::string same = record("foo", "1.0", "foo");
    // The same record in two suites, and a record that differs only in a
    // field the cache does not keep: apt compares the whole text.
    auto c = cache_of(d, {same, same + "\n" + record("foo", "1.0", "foo", "Homepage: x\n")});
    std::vector<std::string> args{"foo", "foo"};
    auto q = find_source_records(c, args, false);
    ASSERT_EQ(q[0].hits.size(), 2u);
    EXPECT_EQ(q[0].hits[0].record->index_file, 0u);
    EXPECT_NE(c.stanza(*q[0].hits[1].record).find("Homepage: x"), std::string_view::npos);
    // Nothing new for the repeated name: apt warns about it.
    EXPECT_TRUE(q[1].hits.empty());
    EXPECT_EQ(q[1].matched, 3u);
}

TEST(SourceRecords, NamesAreMatchedExactly) {
    TempDir d("srcrec");
    auto c = cache_of(d, {record("foo", "1.0", "foo, foo-doc")});
    std::vector<std::string> args{"Foo", "fo", "foo*", "foo:amd64", "foo=1.0", "foo-do"};
    for (const SourceQuery& q : find_source_records(c, args, false)) EXPECT_TRUE(q.hits.empty()) << q.argument;
}

}  // namespace
}  // namespace aptus::cli
