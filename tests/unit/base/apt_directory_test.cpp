// create_apt_directory(): apt's rule for making its own directories in a
// fresh root (CreateAPTDirectoryIfNeeded), which the APT test suite's roots
// rely on: /var/lib/apt/lists is made when /var/lib exists, nothing is made
// when the parent is missing too.
#include <gtest/gtest.h>

#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus {
namespace {

TEST(AptDirectory, MadeBelowAnExistingParentOrTheOneAboveApt) {
    test::TempDir root("aptdir");
    root.mkdir("var/lib");
    // Dir::State is var/lib/apt/ (missing): its parent var/lib exists.
    create_apt_directory(root.file("var/lib/apt/"), root.file("var/lib/apt/lists/"));
    EXPECT_TRUE(is_directory(root.file("var/lib/apt/lists")));
    // Dir::Cache var/cache/apt/ with var/cache missing: nothing made.
    create_apt_directory(root.file("var/cache/apt/"), root.file("var/cache/apt/archives/"));
    EXPECT_FALSE(path_exists(root.file("var/cache")));
    // A parent not ending in /apt/ must exist itself.
    root.mkdir("state");
    create_apt_directory(root.file("state/"), root.file("state/a/b/"));
    EXPECT_TRUE(is_directory(root.file("state/a/b")));
    create_apt_directory(root.file("other/"), root.file("other/x/"));
    EXPECT_FALSE(path_exists(root.file("other")));
    // A path outside the parent is left alone.
    create_apt_directory(root.file("state/"), root.file("elsewhere/x/"));
    EXPECT_FALSE(path_exists(root.file("elsewhere")));
}

}  // namespace
}  // namespace aptus
