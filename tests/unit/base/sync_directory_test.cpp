#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus {
namespace {

TEST(SyncDirectory, SyncsARealDirectory) {
    aptus::test::TempDir dir("sync");
    EXPECT_TRUE(sync_directory(dir.path()));
    EXPECT_TRUE(sync_directory(dir.path() + "/", SyncFailure::Ignore));
}

TEST(SyncDirectory, ThrowsNamingTheDirectoryOrReportsFalseAsAsked) {
    aptus::test::TempDir dir("sync");
    std::string missing = dir.file("missing");
    try {
        sync_directory(missing);
        FAIL() << "no error for a missing directory";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
    }
    EXPECT_FALSE(sync_directory(missing, SyncFailure::Ignore));
    // A file is not a directory to sync.
    std::ofstream(dir.file("plain")) << "x";
    EXPECT_THROW(sync_directory(dir.file("plain")), Error);
    EXPECT_FALSE(sync_directory(dir.file("plain"), SyncFailure::Ignore));
}

}  // namespace
}  // namespace aptus
