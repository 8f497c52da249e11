// The lists dir's lock, commits and clean-up.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aptus/acquire/lists_store.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

TEST(ListsStore, LockIsExclusiveAcrossProcesses) {
    test::TempDir dir("lists");
    int ready[2], done[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(done), 0);
    pid_t child = fork();
    if (child == 0) {
        ListsLock lock(dir.path());
        char c = 1;
        (void)!write(ready[1], &c, 1);
        (void)!read(done[0], &c, 1);
        _exit(0);
    }
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    try {
        ListsLock mine(dir.path());
        ADD_FAILURE() << "took a lock another process holds";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("Could not get lock " + dir.path() + "/lock. It is held by process " +
                                             std::to_string(child)),
                  std::string::npos)
            << e.what();
    }
    (void)!write(done[1], &c, 1);
    waitpid(child, nullptr, 0);
    EXPECT_NO_THROW(ListsLock again(dir.path()));
}

TEST(ListsStore, CommitReplacesOtherForms) {
    test::TempDir dir("lists");
    std::string partial = ensure_partial_dir(dir.path());
    EXPECT_EQ(partial, dir.path() + "/partial/");
    write_file_atomic(dir.file("x_Packages.xz"), "old compressed");
    write_file_atomic(dir.file("x_Packages"), "old");
    write_file_atomic(partial + "x_Packages", "new");
    commit_moves(dir.path(), {{partial + "x_Packages", dir.file("x_Packages"), {dir.file("x_Packages.xz")}, 1000}});
    EXPECT_EQ(read_file(dir.file("x_Packages")), "new");
    EXPECT_FALSE(path_exists(dir.file("x_Packages.xz")));
    EXPECT_FALSE(path_exists(partial + "x_Packages"));
    struct stat st{};
    ASSERT_EQ(stat(dir.file("x_Packages").c_str(), &st), 0);
    EXPECT_EQ(st.st_mtime, 1000);
}

TEST(ListsStore, RemoveUnlistedKeepsConfiguredFilesInAnyCompression) {
    test::TempDir dir("lists");
    ensure_partial_dir(dir.path());
    ListsLock lock(dir.path());
    for (const char* name : {"a_InRelease", "a_Packages.gz", "b_InRelease", "b_Packages"})
        write_file_atomic(dir.file(name), "x");
    auto removed = remove_unlisted(dir.path(), {dir.file("a_InRelease"), dir.file("a_Packages")});
    EXPECT_EQ(removed.size(), 2u);
    EXPECT_TRUE(path_exists(dir.file("a_InRelease")));
    EXPECT_TRUE(path_exists(dir.file("a_Packages.gz")));
    EXPECT_FALSE(path_exists(dir.file("b_InRelease")));
    EXPECT_FALSE(path_exists(dir.file("b_Packages")));
    EXPECT_TRUE(path_exists(dir.file("lock")));
    EXPECT_TRUE(is_directory(dir.file("partial")));
}

}  // namespace
}  // namespace aptus::acquire
