#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

using test::names_of;
using test::scenario;
using test::selected;
using V = std::vector<std::string>;

// app (manual) Depends new-default | old-choice; old-choice was installed
// automatically back when new-default did not exist.
std::string world(bool old_choice_automatic) {
    return "Package: app\nVersion: 2\nDepends: new-default | old-choice\n\n"
           "Package: app\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\nDepends: old-choice\n\n"
           "Package: old-choice\nVersion: 1\nInstalled: yes\n" +
           std::string(old_choice_automatic ? "APT-Automatic: yes\n" : "") + "\n"
           "Package: new-default\nVersion: 1\n";
}

TEST(Normalise, FullUpgradeChoosesWhatAFreshInstallWouldForAutomaticPackages) {
    auto sc = scenario("Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\n", world(true));
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(names_of(sc.universe, s.install), (V{"app=2", "new-default=1"}));
    // The old choice is not removed outright (apt removes nothing a full
    // upgrade does not have to), but nothing needs it any more.
    EXPECT_EQ(selected(sc.universe, s), (V{"app=2", "new-default=1", "old-choice=1"}));
    EXPECT_EQ(names_of(sc.universe, s.autoremove), (V{"old-choice=1"}));

    Request with_autoremove = sc.request;
    with_autoremove.autoremove = true;
    Solution a = solve(sc.universe, with_autoremove);
    ASSERT_TRUE(a.solved) << a.message;
    EXPECT_EQ(names_of(sc.universe, a.remove), (V{"old-choice=1"}));
}

TEST(Normalise, TheOldChoiceStaysWhereSomethingElseNeedsIt) {
    auto sc = scenario("Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\n",
                       world(true) + "\n\nPackage: other\nVersion: 1\nInstalled: yes\nDepends: old-choice\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    // `other` (manual) keeps the old choice, which then meets app's group
    // too: a fresh install would not add new-default either.
    EXPECT_EQ(names_of(sc.universe, s.install), (V{"app=2"}));
    EXPECT_EQ(selected(sc.universe, s), (V{"app=2", "old-choice=1", "other=1"}));
    EXPECT_EQ(names_of(sc.universe, s.autoremove), V{});
}

TEST(Normalise, TheOldChoiceIsRemovedWhenTheFreshOneConflictsWithIt) {
    std::string w = world(true);
    w.replace(w.find("Package: new-default\nVersion: 1\n"), 32,
              "Package: new-default\nVersion: 1\nConflicts: old-choice\n");
    auto sc = scenario("Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\n", w);
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(names_of(sc.universe, s.install), (V{"app=2", "new-default=1"}));
    EXPECT_EQ(names_of(sc.universe, s.remove), (V{"old-choice=1"}));
}

TEST(Normalise, AnOrGroupMetByWhatWasInstalledKeepsEveryInstalledWay) {
    // Nothing new was chosen for the group, so apt's rule holds: every
    // installed alternative is kept.
    auto sc = scenario("Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\n",
                       "Package: app\nVersion: 1\nInstalled: yes\nDepends: a | b\n\n"
                       "Package: a\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
                       "Package: b\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected(sc.universe, s), (V{"a=1", "app=1", "b=1"}));
    EXPECT_EQ(names_of(sc.universe, s.autoremove), V{});
}

TEST(Normalise, NotForManualChoicesNorInAPlainUpgradeNorOnInstall) {
    auto manual = scenario("Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\n", world(false));
    Solution m = solve(manual.universe, manual.request);
    ASSERT_TRUE(m.solved) << m.message;
    EXPECT_EQ(names_of(manual.universe, m.install), (V{"app=2"}));

    auto upgrade = scenario("Upgrade-All: yes\nForbid-Remove: yes\nForbid-New-Install: no\n", world(true));
    Solution u = solve(upgrade.universe, upgrade.request);
    ASSERT_TRUE(u.solved) << u.message;
    EXPECT_EQ(names_of(upgrade.universe, u.install), (V{"app=2"}));

    auto install = scenario("Install: app\n", world(true));
    Solution i = solve(install.universe, install.request);
    ASSERT_TRUE(i.solved) << i.message;
    EXPECT_EQ(selected(install.universe, i), (V{"app=2", "old-choice=1"}));
}

}  // namespace
}  // namespace aptus::solver
