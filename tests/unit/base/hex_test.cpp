#include <gtest/gtest.h>

#include <string>

#include "aptus/base/strings.hpp"

namespace aptus {
namespace {

TEST(Hex, EveryByteAsTwoLowerCaseDigits) {
    EXPECT_EQ(to_hex(""), "");
    EXPECT_EQ(to_hex(std::string("\x00\x01\x7f\x80\xab\xff", 6)), "00017f80abff");
    std::string all;
    for (int b = 0; b < 256; ++b) all += char(b);
    std::string hex = to_hex(all);
    ASSERT_EQ(hex.size(), 512u);
    EXPECT_EQ(hex.substr(0, 8), "00010203");
    EXPECT_EQ(hex.substr(2 * 0x9f, 4), "9fa0");
    EXPECT_EQ(hex.substr(508), "feff");
}

TEST(Hex, AppendsToWhatIsThere) {
    std::string out = "0x";
    append_hex(out, 0x0c);
    append_hex(out, 0xe9);
    EXPECT_EQ(out, "0x0ce9");
}

}  // namespace
}  // namespace aptus
