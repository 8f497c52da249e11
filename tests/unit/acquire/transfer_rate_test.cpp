// The transfer rate over a moving window and the time left at it.
#include <gtest/gtest.h>

#include "aptus/acquire/transfer_rate.hpp"

namespace aptus::acquire {
namespace {

TEST(RateMeter, NothingUntilHalfASecondIsMeasured) {
    RateMeter m;
    EXPECT_EQ(m.rate(), 0);
    m.add(0, 0);
    m.add(0.2, 50000);
    EXPECT_EQ(m.rate(), 0);
    m.add(0.5, 100000);
    EXPECT_DOUBLE_EQ(m.rate(), 200000);
}

TEST(RateMeter, OnlyTheLastSecondsCount) {
    RateMeter m(5);
    // 10 s fast, then 5 s of nothing: the rate falls to nothing.
    for (int t = 0; t <= 10; ++t) m.add(t, uint64_t(t) * 1000000);
    EXPECT_DOUBLE_EQ(m.rate(), 1000000);
    for (int t = 11; t <= 15; ++t) m.add(t, 10000000);
    EXPECT_DOUBLE_EQ(m.rate(), 0);
    // Then 1 kB a second for 5 s.
    for (int t = 16; t <= 20; ++t) m.add(t, 10000000 + uint64_t(t - 15) * 1000);
    EXPECT_DOUBLE_EQ(m.rate(), 1000);
}

TEST(RateMeter, ACountThatGoesBackStartsAgain) {
    RateMeter m;
    m.add(0, 0);
    m.add(1, 5000);
    m.add(2, 100);  // another run's count
    EXPECT_EQ(m.rate(), 0);
    m.add(3, 2100);
    EXPECT_DOUBLE_EQ(m.rate(), 2000);
}

TEST(TimeLeft, AtTheRate) {
    EXPECT_EQ(time_left(0, 1000, 0), std::nullopt);
    EXPECT_EQ(time_left(1000, 1000, 500), std::nullopt);
    EXPECT_EQ(time_left(2000, 1000, 500), std::nullopt);
    ASSERT_TRUE(time_left(250, 1000, 500));
    EXPECT_DOUBLE_EQ(*time_left(250, 1000, 500), 1.5);
}

}  // namespace
}  // namespace aptus::acquire
