// The target states of history undo, redo and rollback, worked out from the
// log alone (install/history_target.hpp).
#include "aptus/install/history_target.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace aptus::install {
namespace {

using system::HistoryEntry;
using system::HistoryItem;

HistoryItem item(std::string package, std::string old_version, std::string new_version, bool automatic = false) {
    HistoryItem i;
    i.package = std::move(package);
    i.old_version = std::move(old_version);
    i.new_version = std::move(new_version);
    i.automatic = automatic;
    return i;
}

// install A (hello, its automatic library, ccc and its library), install B,
// upgrade A, remove C with its library.
std::vector<HistoryEntry> four_entries() {
    std::vector<HistoryEntry> log(4);
    log[0].install = {item("libhello:amd64", "", "1.0", true), item("hello:amd64", "", "1.0"),
                      item("libccc:amd64", "", "1.0", true), item("ccc:amd64", "", "1.0")};
    log[1].install = {item("bbb:amd64", "", "1.0")};
    log[2].upgrade = {item("hello:amd64", "1.0", "2.0")};
    log[3].remove = {item("ccc:amd64", "1.0", ""), item("libccc:amd64", "1.0", "")};
    return log;
}

PackageTarget installed(std::string package, std::string version, std::optional<bool> automatic = std::nullopt) {
    return {.package = std::move(package), .version = std::move(version), .automatic = automatic};
}
PackageTarget removed(std::string package) { return {.package = std::move(package)}; }

TEST(RollbackTarget, NetChangeOfTheLaterEntries) {
    const auto log = four_entries();
    const TargetState expected = {removed("bbb:amd64"), installed("hello:amd64", "1.0"),
                                  installed("ccc:amd64", "1.0", false), installed("libccc:amd64", "1.0", true)};
    EXPECT_EQ(rollback_target(log, 1), expected);
    // To entry 3: only the removal is undone.
    const TargetState to3 = {installed("ccc:amd64", "1.0", false), installed("libccc:amd64", "1.0", true)};
    EXPECT_EQ(rollback_target(log, 3), to3);
    EXPECT_TRUE(rollback_target(log, 4).empty());
}

TEST(RollbackTarget, WhatTheLaterEntriesUndidThemselvesIsLeftAlone) {
    std::vector<HistoryEntry> log(5);
    log[0].install = {item("a:amd64", "", "1.0")};
    log[1].install = {item("tmp:amd64", "", "1.0")};     // installed after 1 ...
    log[2].remove = {item("tmp:amd64", "1.0", "")};      // ... and removed again
    log[3].upgrade = {item("a:amd64", "1.0", "2.0")};    // upgraded ...
    log[4].downgrade = {item("a:amd64", "2.0", "1.0")};  // ... and back
    EXPECT_TRUE(rollback_target(log, 1).empty());
    // Two upgrades: back to the version before the first.
    log[4].downgrade.clear();
    log[4].upgrade = {item("a:amd64", "2.0", "3.0")};
    EXPECT_EQ(rollback_target(log, 1), TargetState{installed("a:amd64", "1.0")});
    // Purged after 1, then installed again at another version: the version of then.
    log[2].purge = {item("a:amd64", "1.0", "")};
    log[3].upgrade.clear();
    log[3].install = {item("a:amd64", "", "3.0", true)};
    log[4].upgrade.clear();
    EXPECT_EQ(rollback_target(log, 1), TargetState{installed("a:amd64", "1.0")});
}

TEST(RollbackTarget, MarkOfAPackageThatComesBackIsItsLastInstallLine) {
    std::vector<HistoryEntry> log(3);
    log[0].install = {item("lib:amd64", "", "1.0", true)};
    log[1].install = {item("app:amd64", "", "1.0")};  // lib is not named again here
    log[2].remove = {item("lib:amd64", "1.0", ""), item("app:amd64", "1.0", "")};
    EXPECT_EQ(rollback_target(log, 2),
              (TargetState{installed("lib:amd64", "1.0", true), installed("app:amd64", "1.0", false)}));
    // Installed before the log began: the log does not say.
    log[0].install.clear();
    EXPECT_EQ(rollback_target(log, 2).front(), installed("lib:amd64", "1.0"));
}

TEST(RedoTarget, EachKindAsItWent) {
    HistoryEntry e;
    e.install = {item("hello:amd64", "", "2.10-3"), item("libfoo:i386", "", "1.0", true)};
    e.reinstall = {item("coreutils:amd64", "", "9.1")};
    e.upgrade = {item("bash:amd64", "5.1", "5.2")};
    e.downgrade = {item("zsh:amd64", "5.9", "5.8")};
    e.remove = {item("nano:amd64", "7.2", "")};
    e.purge = {item("vim:amd64", "9.0", "")};
    const std::vector<HistoryEntry> log = {e};
    const TargetState expected = {installed("hello:amd64", "2.10-3", false),
                                  installed("libfoo:i386", "1.0", true),
                                  {.package = "coreutils:amd64", .version = "9.1", .reinstall = true},
                                  installed("bash:amd64", "5.2"),
                                  installed("zsh:amd64", "5.8"),
                                  removed("nano:amd64"),
                                  {.package = "vim:amd64", .purge = true}};
    EXPECT_EQ(redo_target(log, 1), expected);
    EXPECT_EQ(target_words(expected, "amd64"),
              (std::vector<std::string>{"hello=2.10-3", "libfoo:i386=1.0", "coreutils=9.1", "bash=5.2", "zsh=5.8",
                                        "nano-", "vim-"}));
}

TEST(UndoTarget, RemovalsComeBackWithTheirLoggedMark) {
    const auto log = four_entries();
    EXPECT_EQ(undo_target(log, 4),
              (TargetState{installed("ccc:amd64", "1.0", false), installed("libccc:amd64", "1.0", true)}));
    EXPECT_EQ(undo_target(log, 3), TargetState{installed("hello:amd64", "1.0")});
    EXPECT_EQ(undo_target(log, 2), TargetState{removed("bbb:amd64")});
}

TEST(HistoryTargets, IdOutOfRange) {
    const auto log = four_entries();
    EXPECT_THROW(undo_target(log, 0), std::out_of_range);
    EXPECT_THROW(redo_target(log, 5), std::out_of_range);
    EXPECT_THROW(rollback_target(log, 5), std::out_of_range);
}

TEST(TargetWords, ArchitectureAllIsNamedWithoutIt) {
    EXPECT_EQ(target_words({installed("tzdata:all", "2024a"), removed("foo:amd64")}, "amd64"),
              (std::vector<std::string>{"tzdata=2024a", "foo-"}));
}

}  // namespace
}  // namespace aptus::install
