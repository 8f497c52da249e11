#include "cli/moo.hpp"

#include <gtest/gtest.h>

namespace aptus::cli {
namespace {

// Midnight UTC of a day, from its days since 1970-01-01.
std::time_t day(long days) { return std::time_t(days) * 86400; }

TEST(Moo, SourceDateEpochIsAWholeNumber) {
    EXPECT_EQ(parse_source_date_epoch("0"), std::time_t(0));
    EXPECT_EQ(parse_source_date_epoch("1484822790"), std::time_t(1484822790));
    EXPECT_EQ(parse_source_date_epoch("-1258156800"), std::time_t(-1258156800));  // 1930-02-18
    EXPECT_FALSE(parse_source_date_epoch("moo"));
    EXPECT_FALSE(parse_source_date_epoch(""));
    EXPECT_FALSE(parse_source_date_epoch("12a"));
    EXPECT_FALSE(parse_source_date_epoch(" 12"));
    EXPECT_FALSE(parse_source_date_epoch("99999999999999999999999"));
}

TEST(Moo, HolidaysAndEveryDay) {
    EXPECT_EQ(moo_message(0), "Have you mooed today?");
    EXPECT_EQ(moo_message(977702400), "Happy package management day!");       // 2000-12-25
    EXPECT_EQ(moo_message(977702400 + 86399), "Happy package management day!");
    EXPECT_EQ(moo_message(977702400 + 86400), "Have you mooed today?");        // 2000-12-26
    EXPECT_EQ(moo_message(-1258156800), "It's a Bird ... It's a Plane ... It's Super Cow!");  // 1930-02-18
    EXPECT_EQ(moo_message(day(-1151)), "Whoever needs milk, bows to the animal.");  // 1966-11-07
    EXPECT_EQ(moo_message(745459200), "Three moos for Debian!");               // 1993-08-16
    EXPECT_EQ(moo_message(891388800), "Have you smashed some milk today?");    // 1998-04-01
    EXPECT_EQ(moo_message(575596800), "Have you mooed today?");                // 1988-03-29
}

}  // namespace
}  // namespace aptus::cli
