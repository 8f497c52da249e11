#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "aptus/edsp/edsp.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::edsp {
namespace {

using namespace solver;

using solver::test::names_of;

// ids: 1 a=2 (new), 2 a=1 (installed), 3 b=1 (installed, automatic, needed by
// a=1 only), 4 c=1 (installed, manual), 5 d=1 (new), 6 e=1 (installed, automatic, needed by c).
Scenario world(const std::string& request = "Install: a\n") {
    return test::scenario(request,
                          "Package: a\nVersion: 2\n\n"
                          "Package: a\nVersion: 1\nInstalled: yes\nDepends: b\nAPT-Candidate: no\n\n"
                          "Package: b\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
                          "Package: c\nVersion: 1\nInstalled: yes\nDepends: e\n\n"
                          "Package: d\nVersion: 1\n\n"
                          "Package: e\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n");
}

TEST(EdspAnswer, ReadsTheStanzasByAptIdAndSkipsProgress) {
    Scenario sc = world();
    EdspAnswer a = read_edsp_answer("Progress: Mon, 01 Jan 2024 00:00:00 +0000\nPercentage: 0\nMessage: Start\n\n"
                                    "Install: 1\n\nRemove: 4\nPackage: c\n\nAutoremove: 6\n\n",
                                    sc.universe);
    EXPECT_FALSE(a.failed);
    EXPECT_TRUE(a.errors.empty());
    EXPECT_TRUE(a.warnings.empty());
    EXPECT_EQ(names_of(sc.universe, a.install), std::vector<std::string>{"a=2"});
    EXPECT_EQ(names_of(sc.universe, a.remove), std::vector<std::string>{"c=1"});
    EXPECT_EQ(names_of(sc.universe, a.autoremove), std::vector<std::string>{"e=1"});
}

TEST(EdspAnswer, TheSolutionUpgradesRemovesAndListsGarbage) {
    Scenario sc = world();
    EdspAnswer a = read_edsp_answer("Install: 1\n\nRemove: 4\n\n", sc.universe);
    Solution s = solution_from_answer(sc.universe, sc.request, a);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(names_of(sc.universe, s.install), std::vector<std::string>{"a=2"});
    // The upgrade's old version is not a removal; c's is.
    EXPECT_EQ(names_of(sc.universe, s.remove), std::vector<std::string>{"c=1"});
    EXPECT_EQ(test::selected(sc.universe, s), (std::vector<std::string>{"a=2", "b=1", "e=1"}));
    // a=2 does not need b, and nothing keeps e once c is gone.
    EXPECT_EQ(names_of(sc.universe, s.autoremove), (std::vector<std::string>{"b=1", "e=1"}));

    sc.request.autoremove = true;
    s = solution_from_answer(sc.universe, sc.request, a);
    ASSERT_TRUE(s.solved);
    EXPECT_EQ(names_of(sc.universe, s.remove), (std::vector<std::string>{"b=1", "c=1", "e=1"}));
    EXPECT_TRUE(s.autoremove.empty());
}

TEST(EdspAnswer, TheSolversOwnAutoremoveIsKeptWhereThePackageStays) {
    Scenario sc = world();
    // b stays needed by a=1; the solver still calls it garbage: apt believes it.
    Solution s = solution_from_answer(sc.universe, sc.request, read_edsp_answer("Autoremove: 3\n\n", sc.universe));
    ASSERT_TRUE(s.solved);
    EXPECT_TRUE(s.install.empty());
    EXPECT_TRUE(s.remove.empty());
    EXPECT_EQ(names_of(sc.universe, s.autoremove), std::vector<std::string>{"b=1"});
}

TEST(EdspAnswer, AnErrorStanzaEndsTheAnswer) {
    Scenario sc = world();
    EdspAnswer a = read_edsp_answer("Progress: now\n\nError: ERR_UNSOLVABLE\nMessage: No luck.\n Second line\n .\n After "
                                    "an empty one\n\nInstall: 1\n\n",
                                    sc.universe);
    EXPECT_TRUE(a.failed);
    EXPECT_EQ(a.error_id, "ERR_UNSOLVABLE");
    EXPECT_EQ(a.error_message, "No luck.\nSecond line\n\nAfter an empty one");
    EXPECT_TRUE(a.install.empty());
    Solution s = solution_from_answer(sc.universe, sc.request, a);
    EXPECT_FALSE(s.solved);
    EXPECT_EQ(s.error_id, "ERR_UNSOLVABLE");
    EXPECT_EQ(s.message, a.error_message);
}

TEST(EdspAnswer, ContradictionsAndUnknownIdsAreErrors) {
    Scenario sc = world();
    EdspAnswer a = read_edsp_answer("Install: 1\n\nRemove: 2\n\nInstall: 4\n\nInstall: 99\n\n", sc.universe, "ext");
    ASSERT_EQ(a.errors.size(), 3u);
    EXPECT_EQ(a.errors[0], "Solver selected package a:amd64 version 1 multiple times (had a previous stanza for the package)");
    EXPECT_EQ(a.errors[1], "Solver wants to install package c:amd64 version 1 which is already installed!");
    EXPECT_EQ(a.errors[2], "ext:7: the Install stanza names APT-ID '99', which the scenario does not hold");
    Solution s = solution_from_answer(sc.universe, sc.request, a);
    EXPECT_FALSE(s.solved);
    EXPECT_EQ(s.error_id, "ERR_BAD_ANSWER");
    EXPECT_NE(s.message.find("already installed"), std::string::npos);
}

TEST(EdspAnswer, SkippedStanzasAreWarnings) {
    Scenario sc = world();
    EdspAnswer a = read_edsp_answer("Remove: 5\n\nSomething: else\n\nInstall: 1\n\n", sc.universe, "ext");
    EXPECT_TRUE(a.errors.empty());
    ASSERT_EQ(a.warnings.size(), 2u);
    EXPECT_EQ(a.warnings[0], "Solver wants to remove package d:amd64 version 1 which isn't installed!");
    EXPECT_NE(a.warnings[1].find("ext:3: skipped a stanza"), std::string::npos) << a.warnings[1];
    EXPECT_EQ(names_of(sc.universe, a.install), std::vector<std::string>{"a=2"});
    EXPECT_TRUE(a.remove.empty());
    // As apt's: a package is named once, even by a Remove that was skipped.
    a = read_edsp_answer("Remove: 5\n\nInstall: 5\n\n", sc.universe);
    EXPECT_EQ(a.errors.size(), 1u);
}

TEST(EdspAnswer, TextThatIsNoDeb822Throws) {
    Scenario sc = world();
    EXPECT_THROW(read_edsp_answer("this is not EDSP\n", sc.universe), Error);
    // Nothing at all is an answer that changes nothing, as apt reads it.
    Solution s = solution_from_answer(sc.universe, sc.request, read_edsp_answer("", sc.universe));
    EXPECT_TRUE(s.solved);
    EXPECT_TRUE(s.install.empty() && s.remove.empty());
}

TEST(EdspAnswer, AnAnswerThatBreaksPackagesIsRefused) {
    Scenario sc = world();
    // c needs e.
    Solution s = solution_from_answer(sc.universe, sc.request, read_edsp_answer("Remove: 6\n\n", sc.universe));
    EXPECT_FALSE(s.solved);
    EXPECT_EQ(s.error_id, "ERR_BAD_ANSWER");
    EXPECT_NE(s.message.find("leaves broken packages"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("c:amd64"), std::string::npos) << s.message;
}

TEST(EdspAnswer, BreakageThatWasThereBeforeIsNoReasonToRefuse) {
    Scenario sc = test::scenario("Install: d\n",
                                 "Package: x\nVersion: 1\nInstalled: yes\nDepends: missing\n\n"
                                 "Package: d\nVersion: 1\n");
    Solution s = solution_from_answer(sc.universe, sc.request, read_edsp_answer("Install: 2\n\n", sc.universe));
    EXPECT_TRUE(s.solved) << s.message;
}

TEST(EdspAnswer, SolveWrittenAndReadBackIsTheSameSolution) {
    for (const char* request : {"Install: a d\n", "Remove: c\n", "Upgrade-All: yes\n", "Remove: c\nAutoremove: yes\n"}) {
        Scenario sc = world(request);
        Solution direct = solve(sc.universe, sc.request);
        ASSERT_TRUE(direct.solved) << request << direct.message;
        EdspAnswer a = read_edsp_answer(format_edsp_solution(sc.universe, direct), sc.universe);
        Solution back = solution_from_answer(sc.universe, sc.request, a);
        ASSERT_TRUE(back.solved) << request << back.message;
        EXPECT_EQ(back.install, direct.install) << request;
        EXPECT_EQ(back.remove, direct.remove) << request;
        // solve() keeps what autoremove removes in `selected`; the answer says Remove.
        if (!sc.request.autoremove) EXPECT_EQ(back.selected, direct.selected) << request;
        EXPECT_EQ(back.autoremove, direct.autoremove) << request;
    }
}

TEST(EdspAnswer, TheScenarioForAnExternalSolverHasOnlyFieldsAptsSolversKnow) {
    // apt's solver programs warn about Install-Recommends/Install-Suggests:
    // written only where they differ from apt's defaults.
    Scenario sc = world();
    std::string text = format_edsp_scenario(sc.universe, sc.request, "apt");
    std::string request = text.substr(0, text.find("\n\n"));
    EXPECT_EQ(request.find("Install-Recommends"), std::string::npos) << request;
    EXPECT_EQ(request.find("Install-Suggests"), std::string::npos) << request;
    EXPECT_NE(request.find("\nSolver: apt"), std::string::npos) << request;
    sc.request.install_recommends = false;
    sc.request.install_suggests = true;
    text = format_edsp_scenario(sc.universe, sc.request);
    Scenario back = read_edsp(text, "back.edsp");
    EXPECT_FALSE(back.request.install_recommends);
    EXPECT_TRUE(back.request.install_suggests);
}

}  // namespace
}  // namespace aptus::edsp
