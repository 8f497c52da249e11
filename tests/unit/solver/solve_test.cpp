#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

using test::names_of;
using test::scenario;
using test::selected;
using V = std::vector<std::string>;

Solution solved(const edsp::Scenario& sc) {
    Solution s = solve(sc.universe, sc.request);
    EXPECT_TRUE(s.solved) << s.message;
    EXPECT_EQ(check_installation(sc.universe, s.selected), std::vector<std::string>{});
    return s;
}

TEST(Solve, DependsChainIsInstalled) {
    auto sc = scenario("Install: a\n",
                       "Package: a\nVersion: 1\nDepends: b (>= 2)\n\n"
                       "Package: b\nVersion: 2\nDepends: c\n\n"
                       "Package: c\nVersion: 1\n\n"
                       "Package: unrelated\nVersion: 1\n");
    auto s = solved(sc);
    EXPECT_EQ(selected(sc.universe, s), (V{"a=1", "b=2", "c=1"}));
    EXPECT_EQ(names_of(sc.universe, s.install), (V{"a=1", "b=2", "c=1"}));
}

TEST(Solve, FirstWorkingAlternativeOfAnOrGroup) {
    auto sc = scenario("Install: a\n",
                       "Package: a\nVersion: 1\nDepends: b | c\n\n"
                       "Package: b\nVersion: 1\n\n"
                       "Package: c\nVersion: 1\n");
    EXPECT_EQ(selected(sc.universe, solved(sc)), (V{"a=1", "b=1"}));
    // b cannot work (its dependency does not exist): c.
    auto sc2 = scenario("Install: a\n",
                        "Package: a\nVersion: 1\nDepends: b | c\n\n"
                        "Package: b\nVersion: 1\nDepends: missing\n\n"
                        "Package: c\nVersion: 1\n");
    EXPECT_EQ(selected(sc2.universe, solved(sc2)), (V{"a=1", "c=1"}));
}

TEST(Solve, InstalledAlternativeIsPreferred) {
    auto sc = scenario("Install: a\n",
                       "Package: a\nVersion: 1\nDepends: b | c\n\n"
                       "Package: b\nVersion: 1\n\n"
                       "Package: c\nVersion: 1\nInstalled: yes\n");
    auto s = solved(sc);
    EXPECT_EQ(selected(sc.universe, s), (V{"a=1", "c=1"}));
    EXPECT_EQ(names_of(sc.universe, s.install), (V{"a=1"}));
}

TEST(Solve, ConflictsMakeTheRequestImpossibleAndAreExplained) {
    auto sc = scenario("Install: a b\n",
                       "Package: a\nVersion: 1\nConflicts: b\n\n"
                       "Package: b\nVersion: 1\n");
    auto s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved);
    EXPECT_EQ(s.error_id, "ERR_UNSOLVABLE");
    EXPECT_NE(s.message.find("a:amd64 is requested for install"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("b:amd64 is requested for install"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("a:amd64=1 Conflicts b"), std::string::npos) << s.message;
}

TEST(Solve, ConflictThroughProvidesButNeverWithItself) {
    // Debian Policy 7.6.2: one mail transport agent at a time; each
    // Provides, Conflicts and Replaces the virtual name.
    std::string pkgs =
        "Package: postfix\nVersion: 1\nProvides: mail-transport-agent\nConflicts: mail-transport-agent\nReplaces: mail-transport-agent\n\n"
        "Package: exim\nVersion: 1\nProvides: mail-transport-agent\nConflicts: mail-transport-agent\n\n"
        "Package: mailx\nVersion: 1\nDepends: mail-transport-agent\n";
    auto alone = scenario("Install: postfix mailx\n", pkgs);
    EXPECT_EQ(selected(alone.universe, solved(alone)), (V{"mailx=1", "postfix=1"}));
    auto both = scenario("Install: postfix exim\n", pkgs);
    auto s = solve(both.universe, both.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("which exim:amd64=1 provides"), std::string::npos) << s.message;
}

TEST(Solve, VersionedProvides) {
    std::string pkgs =
        "Package: a\nVersion: 1\nDepends: v (>= 2)\n\n"
        "Package: old\nVersion: 1\nProvides: v (= 1)\n\n"
        "Package: plain\nVersion: 1\nProvides: v\n\n"
        "Package: new\nVersion: 1\nProvides: v (= 2)\n";
    auto sc = scenario("Install: a\n", pkgs);
    EXPECT_EQ(selected(sc.universe, solved(sc)), (V{"a=1", "new=1"}));
    auto none = scenario("Install: a\n", "Package: a\nVersion: 1\nDepends: v (>= 2)\n\nPackage: plain\nVersion: 1\nProvides: v\n");
    EXPECT_FALSE(solve(none.universe, none.request).solved);
}

TEST(Solve, StrictPinningOnlyCandidatesUnlessSwitchedOff) {
    std::string pkgs =
        "Package: a\nVersion: 1\nDepends: lib (>= 2)\n\n"
        "Package: lib\nVersion: 1\n\n"
        "Package: lib\nVersion: 2\nAPT-Pin: 100\nAPT-Candidate: no\n";
    auto strict = scenario("Install: a\n", pkgs);
    auto s = solve(strict.universe, strict.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("lib:amd64=2: not the candidate (1)"), std::string::npos) << s.message;
    auto loose = scenario("Install: a\nStrict-Pinning: no\n", pkgs);
    EXPECT_EQ(selected(loose.universe, solved(loose)), (V{"a=1", "lib=2"}));
}

TEST(Solve, ManualPackagesStayAutomaticOnesMayGo) {
    std::string pkgs_manual =
        "Package: x\nVersion: 1\nConflicts: m\n\n"
        "Package: m\nVersion: 1\nInstalled: yes\n";
    auto manual = scenario("Install: x\n", pkgs_manual);
    auto s = solve(manual.universe, manual.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("m:amd64 is installed manually"), std::string::npos) << s.message;

    auto autom = scenario("Install: x\n", pkgs_manual + "APT-Automatic: yes\n");
    auto a = solved(autom);
    EXPECT_EQ(selected(autom.universe, a), (V{"x=1"}));
    EXPECT_EQ(names_of(autom.universe, a.remove), (V{"m=1"}));
}

TEST(Solve, EssentialPackagesAreKept) {
    auto sc = scenario("Remove: libc\n",
                       "Package: libc\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
                       "Package: dash\nVersion: 1\nEssential: yes\nInstalled: yes\nPre-Depends: libc (>= 1)\n");
    auto s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("libc:amd64 is requested for removal"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("dash:amd64 is Essential"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("dash:amd64=1 Pre-Depends libc (>= 1)"), std::string::npos) << s.message;
}

TEST(Solve, RemoveRequestAndPurgeFlag) {
    auto sc = scenario("Remove: b\n",
                       "Package: a\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\nDepends: b\n\n"
                       "Package: b\nVersion: 1\nInstalled: yes\n\n"
                       "Package: c\nVersion: 1\nInstalled: yes\n");
    auto s = solved(sc);
    EXPECT_EQ(names_of(sc.universe, s.remove), (V{"a=1", "b=1"}));
    EXPECT_EQ(selected(sc.universe, s), (V{"c=1"}));
}

TEST(Solve, HeldPackageKeepsItsVersion) {
    auto sc = scenario("Upgrade-All: yes\nDist-Upgrade: yes\n",
                       "Package: h\nVersion: 1\nInstalled: yes\nHold: yes\nAPT-Candidate: no\n\n"
                       "Package: h\nVersion: 2\n\n"
                       "Package: u\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
                       "Package: u\nVersion: 2\n");
    EXPECT_EQ(selected(sc.universe, solved(sc)), (V{"h=1", "u=2"}));
}

TEST(Solve, UpgradeInstallsNothingNewFullUpgradeDoes) {
    std::string pkgs =
        "Package: a\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
        "Package: a\nVersion: 2\nDepends: newlib\n\n"
        "Package: newlib\nVersion: 1\n\n"
        "Package: b\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
        "Package: b\nVersion: 2\n";
    auto up = scenario("Upgrade-All: yes\nForbid-New-Install: yes\nForbid-Remove: yes\n", pkgs);
    auto s = solved(up);
    EXPECT_EQ(selected(up.universe, s), (V{"a=1", "b=2"}));  // a kept back
    auto full = scenario("Upgrade-All: yes\nDist-Upgrade: yes\n", pkgs);
    EXPECT_EQ(selected(full.universe, solved(full)), (V{"a=2", "b=2", "newlib=1"}));
}

TEST(Solve, UpgradeNeverRemoves) {
    // b 2 breaks c; with removals forbidden, b stays at 1 and c stays.
    std::string pkgs =
        "Package: b\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
        "Package: b\nVersion: 2\nBreaks: c\n\n"
        "Package: c\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n";
    auto up = scenario("Upgrade-All: yes\nForbid-New-Install: yes\nForbid-Remove: yes\n", pkgs);
    auto s = solved(up);
    EXPECT_EQ(selected(up.universe, s), (V{"b=1", "c=1"}));
    EXPECT_TRUE(s.remove.empty());
    auto full = scenario("Upgrade-All: yes\nDist-Upgrade: yes\n", pkgs);
    auto f = solved(full);
    EXPECT_EQ(selected(full.universe, f), (V{"b=2"}));
    EXPECT_EQ(names_of(full.universe, f.remove), (V{"c=1"}));
}

TEST(Solve, RecommendsInstalledWhenPossibleNeverAtThePriceOfFailing) {
    auto sc = scenario("Install: a z\n",
                       "Package: a\nVersion: 1\nRecommends: r, broken\n\n"
                       "Package: r\nVersion: 1\n\n"
                       "Package: broken\nVersion: 1\nConflicts: z\n\n"
                       "Package: z\nVersion: 1\n");
    EXPECT_EQ(selected(sc.universe, solved(sc)), (V{"a=1", "r=1", "z=1"}));
    auto off = scenario("Install: a z\nInstall-Recommends: no\n",
                        "Package: a\nVersion: 1\nRecommends: r\n\nPackage: r\nVersion: 1\n\nPackage: z\nVersion: 1\n");
    EXPECT_EQ(selected(off.universe, solved(off)), (V{"a=1", "z=1"}));
}

TEST(Solve, AnUpgradesRecommendsInstallsWhenNewOrTightenedNotWhenNeverSatisfied) {
    const std::string world =
        "Package: cool\nVersion: 1\nInstalled: yes\n\nPackage: cool\nVersion: 2\n\n"
        "Package: stuff\nVersion: 1\nInstalled: yes\n\nPackage: stuff\nVersion: 2\n\n"
        "Package: super\nVersion: 2\n\n"
        "Package: tighten\nVersion: 1\nInstalled: yes\nRecommends: cool (>= 1)\n\n"
        "Package: tighten\nVersion: 2\nRecommends: cool (>= 2)\n\n"
        "Package: gone\nVersion: 1\nInstalled: yes\nRecommends: cool (>= 1) | stuff (>= 2)\n\n"
        "Package: gone\nVersion: 2\nRecommends: stuff (>= 2)\n\n"
        "Package: newrec\nVersion: 1\nInstalled: yes\n\n"
        "Package: newrec\nVersion: 2\nRecommends: super\n\n"
        "Package: unwanted\nVersion: 1\nInstalled: yes\nRecommends: cool (>= 3)\n\n"
        "Package: unwanted\nVersion: 2\nRecommends: cool (>= 2)\n";
    auto upgraded = [&](const std::string& name) {
        auto sc = scenario("Install: " + name + "\n", world);
        Solution s = solved(sc);
        return names_of(sc.universe, s.install);
    };
    // Satisfied before, tighter now: the recommended package is upgraded.
    EXPECT_EQ(upgraded("tighten"), (V{"cool=2", "tighten=2"}));
    // Satisfied before by an alternative that is gone: the new one installs.
    EXPECT_EQ(upgraded("gone"), (V{"gone=2", "stuff=2"}));
    // A name not recommended before: new, installs.
    EXPECT_EQ(upgraded("newrec"), (V{"newrec=2", "super=2"}));
    // Recommended before and never satisfied: the user went without it.
    EXPECT_EQ(upgraded("unwanted"), (V{"unwanted=2"}));
}

TEST(Solve, BacktracksAndLearnsWhenTheFirstChoiceFailsLate) {
    // a needs b|c; b needs d|e; d and e each need something that conflicts
    // with z, which the request also wants: only c works, found after b failed.
    auto sc = scenario("Install: a z\n",
                       "Package: a\nVersion: 1\nDepends: b | c\n\n"
                       "Package: b\nVersion: 1\nDepends: d | e\n\n"
                       "Package: d\nVersion: 1\nDepends: x\n\n"
                       "Package: e\nVersion: 1\nDepends: y\n\n"
                       "Package: x\nVersion: 1\nConflicts: z\n\n"
                       "Package: y\nVersion: 1\nBreaks: z\n\n"
                       "Package: c\nVersion: 1\n\n"
                       "Package: z\nVersion: 1\n");
    auto s = solved(sc);
    EXPECT_EQ(selected(sc.universe, s), (V{"a=1", "c=1", "z=1"}));
}

TEST(Solve, MultiArchForeignSatisfiesOtherArchitectures) {
    auto sc = scenario("Install: app:i386\n",
                       "Package: app\nArchitecture: i386\nVersion: 1\nDepends: tool, lib\n\n"
                       "Package: tool\nVersion: 1\nMulti-Arch: foreign\n\n"
                       "Package: lib\nVersion: 1\nMulti-Arch: same\n\n"
                       "Package: lib\nArchitecture: i386\nVersion: 1\nMulti-Arch: same\n");
    auto s = solved(sc);
    std::vector<std::string> got;
    for (uint32_t v : s.selected) got.push_back(sc.universe.describe(v));
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (V{"app:i386=1", "lib:i386=1", "tool:amd64=1"}));
    // Without Multi-Arch: foreign, an amd64 tool does not satisfy an i386 package.
    auto no = scenario("Install: app:i386\n",
                       "Package: app\nArchitecture: i386\nVersion: 1\nDepends: tool\n\n"
                       "Package: tool\nVersion: 1\n");
    EXPECT_FALSE(solve(no.universe, no.request).solved);
}

TEST(Solve, AutoremoveFollowsImportantRelations) {
    std::string pkgs =
        "Package: m\nVersion: 1\nInstalled: yes\nDepends: d\nRecommends: r\n\n"
        "Package: d\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
        "Package: r\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
        "Package: g\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n";
    auto sc = scenario("", pkgs);
    auto s = solved(sc);
    EXPECT_EQ(names_of(sc.universe, s.autoremove), (V{"g=1"}));
    sc.request.recommends_important = false;
    EXPECT_EQ(names_of(sc.universe, solve(sc.universe, sc.request).autoremove), (V{"g=1", "r=1"}));
    auto rm = scenario("Autoremove: yes\n", pkgs);
    auto r = solved(rm);
    EXPECT_EQ(names_of(rm.universe, r.remove), (V{"g=1"}));
    EXPECT_TRUE(r.autoremove.empty());
}

TEST(Solve, ObsoleteManualLibraryGivesWayInAFullUpgrade) {
    // The t64 transition: libfoo1 (manual) is replaced by libfoo1t64 from
    // a newer upload of the same source; app 2 needs the new one.
    std::string pkgs =
        "Package: app\nVersion: 1\nInstalled: yes\nDepends: libfoo1\nAPT-Candidate: no\n\n"
        "Package: app\nVersion: 2\nDepends: libfoo1t64\n\n"
        "Package: libfoo1\nVersion: 1\nSource: foo\nSource-Version: 1\nInstalled: yes\n\n"
        "Package: libfoo1t64\nVersion: 2\nSource: foo\nSource-Version: 2\nBreaks: libfoo1 (<< 2)\nProvides: libfoo1 (= 2)\n";
    auto sc = scenario("Upgrade-All: yes\nDist-Upgrade: yes\n", pkgs);
    auto s = solved(sc);
    EXPECT_EQ(selected(sc.universe, s), (V{"app=2", "libfoo1t64=2"}));
    EXPECT_EQ(names_of(sc.universe, s.remove), (V{"libfoo1=1"}));
    // A plain upgrade removes nothing: app stays at 1.
    auto up = scenario("Upgrade-All: yes\nForbid-New-Install: yes\nForbid-Remove: yes\n", pkgs);
    EXPECT_EQ(selected(up.universe, solved(up)), (V{"app=1", "libfoo1=1"}));
}

TEST(Check, FindsBrokenInstallations) {
    auto sc = scenario("",
                       "Package: a\nVersion: 1\nDepends: b (>= 2)\nConflicts: c\n\n"
                       "Package: b\nVersion: 1\n\n"
                       "Package: c\nVersion: 1\n");
    std::vector<uint32_t> all{0, 1, 2};
    auto problems = check_installation(sc.universe, all);
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_NE(problems[0].find("Depends b (>= 2): not met"), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("Conflicts c"), std::string::npos) << problems[1];
}

}  // namespace
}  // namespace aptus::solver
