#include "aptus/install/goal.hpp"
#include "aptus/install/undo.hpp"

#include <gtest/gtest.h>

namespace aptus::install {
namespace {

system::HistoryItem item(std::string package, std::string old_version, std::string new_version) {
    system::HistoryItem i;
    i.package = std::move(package);
    i.old_version = std::move(old_version);
    i.new_version = std::move(new_version);
    return i;
}

TEST(UndoWords, InverseOfEachKind) {
    system::HistoryEntry e;
    e.install = {item("hello:amd64", "", "2.10-3"), item("libfoo:i386", "", "1.0")};
    e.upgrade = {item("bash:amd64", "5.1", "5.2")};
    e.downgrade = {item("zsh:amd64", "5.9", "5.8")};
    e.remove = {item("nano:amd64", "7.2", "")};
    e.purge = {item("vim:amd64", "9.0", "")};
    e.reinstall = {item("coreutils:amd64", "", "9.1")};
    const std::vector<std::string> expected = {"hello-", "libfoo:i386-", "bash=5.1", "zsh=5.9", "nano=7.2", "vim=9.0"};
    EXPECT_EQ(undo_words(e, "amd64"), expected);
}

TEST(UndoWords, NothingToUndo) {
    system::HistoryEntry e;
    e.reinstall = {item("coreutils:amd64", "", "9.1")};
    EXPECT_TRUE(undo_words(e, "amd64").empty());
    // A removal without the version it had cannot be put back.
    e.remove = {item("nano:amd64", "", "")};
    EXPECT_TRUE(undo_words(e, "amd64").empty());
}

TEST(GoalWord, FromValues) {
    EXPECT_EQ(goal_word({.name = "hello"}), "hello");
    EXPECT_EQ(goal_word({.name = "hello", .arch = "i386", .version = "2.10-3"}), "hello:i386=2.10-3");
    EXPECT_EQ(goal_word({.name = "hello", .release = "bookworm"}), "hello/bookworm");
    EXPECT_EQ(goal_word({.name = "nginx", .action = PackageSpec::Action::Remove}), "nginx-");
    EXPECT_EQ(goal_word({.name = "vim", .action = PackageSpec::Action::Install}), "vim+");
}

}  // namespace
}  // namespace aptus::install
