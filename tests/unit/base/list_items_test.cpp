#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "aptus/base/strings.hpp"

namespace aptus {
namespace {

using V = std::vector<std::string_view>;

TEST(ListItems, CommaSeparatedTrimmedWithoutEmptyItems) {
    EXPECT_EQ(split_list("a, b,c"), (V{"a", "b", "c"}));
    EXPECT_EQ(split_list(",debhelper (>= 7),\n  foo ,"), (V{"debhelper (>= 7)", "foo"}));
    EXPECT_EQ(split_list(","), V{});
    EXPECT_EQ(split_list(""), V{});
    V seen;
    for_each_list_item(" x ,, y", [&](std::string_view item) { seen.push_back(item); });
    EXPECT_EQ(seen, (V{"x", "y"}));
}

}  // namespace
}  // namespace aptus
