// Paths an index names (a Packages Filename, a Sources Directory) must stay
// under the repository's URI: what a signed index did not vouch for is
// never fetched from elsewhere.
#include "aptus/acquire/repository_path.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aptus::acquire {
namespace {

TEST(RepositoryPath, RelativePathsInsideTheRepository) {
    EXPECT_TRUE(is_repository_path("pool/main/h/hello/hello_1.0_amd64.deb"));
    EXPECT_TRUE(is_repository_path("./hello_1.0_amd64.deb"));
    EXPECT_TRUE(is_repository_path("hello_1:2.0_amd64.deb"));  // a ':' in a flat repository's name
    EXPECT_TRUE(is_repository_path("pool/main/h/hello..x/file"));  // ".." only as a whole step
}

TEST(RepositoryPath, EverythingThatLeavesItIsRefused) {
    EXPECT_FALSE(is_repository_path(""));
    EXPECT_FALSE(is_repository_path("/etc/passwd"));
    EXPECT_FALSE(is_repository_path("../other/file"));
    EXPECT_FALSE(is_repository_path("pool/../../file"));
    EXPECT_FALSE(is_repository_path("pool/main/.."));
    EXPECT_FALSE(is_repository_path("http://elsewhere.example/file.deb"));
    EXPECT_FALSE(is_repository_path("file:/etc/passwd"));
    EXPECT_FALSE(is_repository_path(std::string("pool/a\0b", 8)));
}

TEST(RepositoryPath, HttpQuotingAsAptsMethodSendsIt) {
    EXPECT_EQ(http_quoted_path("pool/main/g/g++/g++_1.0~rc1_amd64.deb"),
              "pool/main/g/g%2b%2b/g%2b%2b_1.0%7erc1_amd64.deb");
    EXPECT_EQ(http_quoted_path("a b%c"), "a%20b%25c");
}

}  // namespace
}  // namespace aptus::acquire
