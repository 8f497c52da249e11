#include "aptus/install/archive_clean.hpp"

#include <gtest/gtest.h>

namespace aptus::install {
namespace {

TEST(ArchiveName, AptsFileNameShapeUnquoted) {
    auto n = parse_archive_name("libfoo_1%3a2.0-1_amd64.deb");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->package, "libfoo");
    EXPECT_EQ(n->version, "1:2.0-1");
    EXPECT_EQ(n->architecture, "amd64");
    EXPECT_FALSE(parse_archive_name("lock"));
    EXPECT_FALSE(parse_archive_name("foo_1.0"));
    EXPECT_FALSE(parse_archive_name("foo_1_amd64"));  // no extension
}

}  // namespace
}  // namespace aptus::install
