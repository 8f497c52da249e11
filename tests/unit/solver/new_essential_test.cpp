#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

using test::names_of;
using test::scenario;
using V = std::vector<std::string>;

const char* const kFullUpgrade = "Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\n";
const char* const kUpgrade = "Upgrade-All: yes\nForbid-Remove: yes\nForbid-New-Install: no\n";

// The new release makes `sqv-like` Essential; it was never installed.
const char* const kWorld =
    "Package: base\nVersion: 1\nInstalled: yes\nEssential: yes\n\n"
    "Package: sqv-like\nVersion: 2\nEssential: yes\nDepends: libsqv\n\n"
    "Package: libsqv\nVersion: 1\n\n"
    "Package: optional-tool\nVersion: 1\n";

TEST(NewEssential, FullUpgradeInstallsEssentialPackagesThatAreNotInstalled) {
    auto sc = scenario(kFullUpgrade, kWorld);
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(names_of(sc.universe, s.install), (V{"libsqv=1", "sqv-like=2"}));
}

TEST(NewEssential, NotInAPlainUpgradeNorOnInstall) {
    auto up = scenario(kUpgrade, kWorld);
    Solution u = solve(up.universe, up.request);
    ASSERT_TRUE(u.solved) << u.message;
    EXPECT_EQ(names_of(up.universe, u.install), V{});

    auto in = scenario("Install: optional-tool\n", kWorld);
    Solution i = solve(in.universe, in.request);
    ASSERT_TRUE(i.solved) << i.message;
    EXPECT_EQ(names_of(in.universe, i.install), (V{"optional-tool=1"}));
}

TEST(NewEssential, OnlyWhenTheCandidateIsEssential) {
    // Essential in an older version only, or in a version that is not the
    // candidate: a full upgrade leaves the package out.
    auto sc = scenario(kFullUpgrade,
                       "Package: was-essential\nVersion: 2\n\n"
                       "Package: was-essential\nVersion: 1\nEssential: yes\nAPT-Candidate: no\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(names_of(sc.universe, s.install), V{});
}

TEST(NewEssential, AnEssentialThatCannotBeInstalledIsExplained) {
    auto sc = scenario(kFullUpgrade,
                       "Package: base\nVersion: 1\nInstalled: yes\nEssential: yes\n\n"
                       "Package: new-ess\nVersion: 1\nEssential: yes\nConflicts: base\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("new-ess:amd64 is Essential in its candidate release, so a full upgrade installs it"),
              std::string::npos)
        << s.message;
}

}  // namespace
}  // namespace aptus::solver
