#include "aptus/request/apt_build_order.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "aptus/cache/build.hpp"
#include "support/test_support.hpp"

namespace aptus::request {
namespace {

using cache::DepOp;
using cache::DepType;

AptDepKey key(uint32_t rank, DepOp op = DepOp::GreaterEq, bool or_next = false, DepType t = DepType::Depends) {
    return {rank, t, op, or_next};
}

TEST(AptReverseListOrder, SameRecordGoesRightAfterTheFirstDependency) {
    // The first stays the head; each later one is linked in after it.
    EXPECT_EQ(apt_reverse_list_order({key(5), key(5), key(5), key(5)}), (std::vector<uint32_t>{0, 3, 2, 1}));
}

TEST(AptReverseListOrder, NewRecordWithALaterStringBecomesTheHead) {
    EXPECT_EQ(apt_reverse_list_order({key(1), key(1), key(2)}), (std::vector<uint32_t>{2, 0, 1}));
}

TEST(AptReverseListOrder, NewRecordWithAnEarlierStringGoesAfterTheHead) {
    EXPECT_EQ(apt_reverse_list_order({key(5), key(2), key(2)}), (std::vector<uint32_t>{0, 2, 1}));
    // No version at all sorts below every string.
    EXPECT_EQ(apt_reverse_list_order({key(5), key(0, DepOp::None)}), (std::vector<uint32_t>{0, 1}));
}

TEST(AptReverseListOrder, TypeOperatorAndOrFlagMakeDifferentRecords) {
    // Equal strings: a different record is appended behind the equal ones,
    // so the head stays; the same record later still goes after the head.
    EXPECT_EQ(apt_reverse_list_order({key(3), key(3, DepOp::GreaterEq, true), key(3, DepOp::Less),
                                      key(3, DepOp::GreaterEq, false, DepType::PreDepends), key(3)}),
              (std::vector<uint32_t>{0, 4, 3, 2, 1}));
}

TEST(AptReverseListOrder, HeadChangesOnlyForALaterString) {
    // 7 becomes the head; 5 is found behind it and goes after the head;
    // a later 9 becomes the head again.
    EXPECT_EQ(apt_reverse_list_order({key(5), key(7), key(5), key(9), key(7)}),
              (std::vector<uint32_t>{3, 4, 1, 2, 0}));
}

TEST(AptReverseListOrder, Empty) { EXPECT_TRUE(apt_reverse_list_order({}).empty()); }

class AptBuildOrderTest : public ::testing::Test {
protected:
    test::TempDir dir{"depends-order"};
    std::string write(const std::string& name, const std::string& text) {
        std::string path = dir.path() + "/" + name;
        std::ofstream(path) << text;
        return path;
    }
    cache::Cache build(const std::string& first, const std::string& second, const std::string& status) {
        cache::CacheInputs in;
        in.native_architecture = "amd64";
        for (const auto* f : {&first, &second}) {
            cache::IndexInput i;
            i.path = write("list" + std::to_string(in.indices.size()) + "_Packages", *f);
            i.component = "main";
            i.architecture = "amd64";
            in.indices.push_back(i);
        }
        in.status_path = write("status", status);
        return cache::Cache::from_image(cache::build_cache(in).image);
    }
    static std::string stanza(const std::string& name, const std::string& version, const std::string& extra) {
        return "Package: " + name + "\nVersion: " + version + "\nArchitecture: amd64\n" + extra + "\n";
    }
};

TEST_F(AptBuildOrderTest, FollowsTheReadingOrderOfListsThenStatus) {
    // Read order: a, b, t (list 0), c, a again (list 1: no new record),
    // d (status only). "1" is stored before "2" (a's Version comes first).
    auto c = build(stanza("a", "1", "Depends: t (>= 2)\n") + stanza("b", "1", "Depends: t (>= 1)\n") +
                       stanza("t", "3", ""),
                   stanza("c", "1", "Depends: t (>= 2)\n") + stanza("a", "1", "Depends: t (>= 2)\n"),
                   stanza("d", "1", "Status: install ok installed\nDepends: t\n"));
    AptBuildOrder order(c);
    auto version = [&](const char* n) { return order.version_rank(c.versions_of(*c.find_package(n, "amd64")).front()); };
    EXPECT_LT(version("a"), version("b"));
    EXPECT_LT(version("b"), version("t"));
    EXPECT_LT(version("t"), version("c"));
    EXPECT_LT(version("c"), version("d"));

    // a: new record, the head. b: ">= 1" is an earlier string: after the
    // head. c: a's record: after the head. d: no version: after the head.
    std::vector<std::string> got;
    for (const auto& rd : order.reverse_dependencies(*c.find_package("t", "amd64")))
        got.emplace_back(c.name_of(c.package_of(c.versions()[rd.version])));
    EXPECT_EQ(got, (std::vector<std::string>{"a", "d", "c", "b"}));

    // Package records: a, then t (a's dependency), then b, c, d.
    auto rank = [&](const char* n) { return order.package_rank(*c.find_name(n), 0); };
    EXPECT_LT(rank("a"), rank("t"));
    EXPECT_LT(rank("t"), rank("b"));
    EXPECT_LT(rank("b"), rank("c"));
    EXPECT_LT(rank("c"), rank("d"));
    EXPECT_EQ(order.package_rank(*c.find_name("t"), 12345), UINT32_MAX);
}

}  // namespace
}  // namespace aptus::request
