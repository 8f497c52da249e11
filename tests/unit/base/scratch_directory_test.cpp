#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus {
namespace {

TEST(ScratchDirectory, OwnDirectoryGoneWithEverythingInIt) {
    test::TempDir parent("scratch-parent");
    std::string path;
    {
        ScratchDirectory scratch("aptus-test", parent.path());
        path = scratch.path();
        EXPECT_EQ(path.rfind(parent.path() + "/aptus-test.", 0), 0u) << path;
        EXPECT_TRUE(std::filesystem::is_directory(path));
        std::filesystem::create_directories(path + "/sub");
        std::ofstream(path + "/sub/file") << "x";
        ScratchDirectory second("aptus-test", parent.path());
        EXPECT_NE(second.path(), path);  // each its own
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace aptus
