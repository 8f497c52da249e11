// Explanations that end the search in one step: a removal names every
// package that must go with it and the one request that succeeds; a hold
// says how to release it; the user's own version request is a fact, and no
// switch is suggested that would not help.
#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

const char* const kSystem =
    "Package: libc\nVersion: 1\nInstalled: yes\n\n"
    "Package: app\nVersion: 1\nInstalled: yes\nDepends: libc\n\n"
    "Package: lib\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\nDepends: libc\n\n"
    "Package: tool\nVersion: 1\nInstalled: yes\nDepends: lib | libc\n\n"
    "Package: shell\nVersion: 1\nInstalled: yes\nEssential: yes\nPre-Depends: libc\n\n"
    "Package: unrelated\nVersion: 1\nInstalled: yes\n";

TEST(RemovalExplanation, NamesEveryBlockerAndOneRequestThatSucceeds) {
    auto sc = test::scenario("Remove: libc\n", kSystem);
    Solution s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved);
    const std::string marker = "A request that succeeds (checked): ";
    const size_t at = s.message.find(marker);
    ASSERT_NE(at, std::string::npos) << s.message;
    const std::string command = s.message.substr(at + marker.size());
    EXPECT_EQ(command, "remove libc app tool shell --allow-remove-essential");
    EXPECT_EQ(s.suggestion, (std::vector<std::string>{"remove", "libc", "app", "tool", "shell", "--allow-remove-essential"}));
    EXPECT_NE(s.message.find("Removing it takes 2 manually installed packages (app:amd64, tool:amd64) and 1 "
                             "Essential or protected (shell:amd64"),
              std::string::npos)
        << s.message;

    // The suggested request, as the command line would make it.
    auto again = test::scenario("Remove: libc app tool shell\n", kSystem);
    again.request.allow_remove_essential = true;
    Solution t = solve(again.universe, again.request);
    ASSERT_TRUE(t.solved) << t.message;
    EXPECT_EQ(test::names_of(again.universe, t.remove),
              (std::vector<std::string>{"app=1", "lib=1", "libc=1", "shell=1", "tool=1"}));
}

// The answer to a request that cannot be met (the test fails if it can).
Solution unsolvable(const std::string& request, const std::string& stanzas) {
    auto sc = test::scenario(request, stanzas);
    Solution s = solve(sc.universe, sc.request);
    EXPECT_FALSE(s.solved);
    return s;
}

TEST(HoldExplanation, SaysHowToReleaseTheHold) {
    Solution s = unsolvable("Install: git-ng\n",
                            "Package: git\nVersion: 2\nAPT-Candidate: yes\n\n"
                            "Package: git\nVersion: 1\nInstalled: yes\nHold: yes\nAPT-Candidate: no\n\n"
                            "Package: git-ng\nVersion: 1\nDepends: git (>= 2)\n");
    EXPECT_NE(s.message.find("release the hold on git:amd64 (name git in the request, or `aptus mark unhold git`)"),
              std::string::npos)
        << s.message;
}

TEST(VersionRequestExplanation, TheUsersOwnVersionIsAFactAndNoSwitchIsSuggested) {
    // libc=1 named (its candidate), libc-dev needs libc 2.
    Solution s = unsolvable("Install: libc libc-dev\n",
                            "Package: libc\nVersion: 2\nAPT-Candidate: no\n\n"
                            "Package: libc\nVersion: 1\nInstalled: yes\n\n"
                            "Package: libc-dev\nVersion: 2\nDepends: libc (= 2)\n");
    EXPECT_NE(s.message.find("libc:amd64=2: the request installs libc:amd64=1"), std::string::npos) << s.message;
    EXPECT_EQ(s.message.find("--no-strict-pinning"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("change the request (libc-dev:amd64, libc:amd64)"), std::string::npos) << s.message;
    bool fact = false;
    for (const Fact& f : s.facts) fact = fact || f.text == "libc:amd64 is requested for install at 1";
    EXPECT_TRUE(fact) << s.message;
}

TEST(PinExplanation, NamesThePinThatRulesAChoiceOut) {
    auto sc = test::scenario("Install: app\n",
                             "Package: lib\nVersion: 2\nAPT-Pin: -1\nAPT-Candidate: no\n\n"
                             "Package: lib\nVersion: 1\n\n"
                             "Package: app\nVersion: 1\nDepends: lib (>= 2) | other\n\n"
                             "Package: other\nVersion: 1\nConflicts: app\n");
    for (Version& v : sc.universe.versions)
        if (v.pin < 0) v.pin_source = sc.universe.text("/etc/apt/preferences:7");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("lib:amd64=2: pinned to -1 (/etc/apt/preferences:7)"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("change the pin at /etc/apt/preferences:7"), std::string::npos) << s.message;
}

TEST(EssentialExplanation, SaysEssentialAndTheSwitchEvenWithoutManualBlockers) {
    Solution s = unsolvable("Remove: libc\n",
                            "Package: libc\nVersion: 1\nInstalled: yes\n\n"
                            "Package: shell\nVersion: 1\nInstalled: yes\nEssential: yes\nPre-Depends: libc\n");
    EXPECT_NE(s.message.find("Removing it takes 1 Essential or protected (shell:amd64, which also needs "
                             "--allow-remove-essential) with it."),
              std::string::npos)
        << s.message;
    EXPECT_EQ(s.suggestion, (std::vector<std::string>{"remove", "libc", "shell", "--allow-remove-essential"}));
}

TEST(ConflictingRequests, SuggestTheRequestWithoutTheLaterOne) {
    Solution s = unsolvable("Install: mta-a mta-b\n",
                            "Package: mta-a\nVersion: 1\nProvides: mail-transport-agent\nConflicts: mail-transport-agent\n\n"
                            "Package: mta-b\nVersion: 1\nProvides: mail-transport-agent\nConflicts: mail-transport-agent\n");
    EXPECT_EQ(s.suggestion, (std::vector<std::string>{"install", "mta-a"})) << s.message;
    EXPECT_NE(s.message.find("A request that succeeds (checked): install mta-a"), std::string::npos) << s.message;
}

TEST(ManualBlocker, SuggestsRemovingTheManualPackageAsWell) {
    Solution s = unsolvable("Install: new\n",
                            "Package: old\nVersion: 1\nInstalled: yes\n\n"
                            "Package: new\nVersion: 1\nConflicts: old\n");
    EXPECT_EQ(s.suggestion, (std::vector<std::string>{"install", "new", "old-"})) << s.message;
}

TEST(ManualBlocker, EveryManualPackageInTheWayInOneAnswer) {
    // A library transition: libnew Breaks libold; libold-user (manual)
    // needs libold, so removing libold alone fails in turn.
    Solution s = unsolvable("Install: app\n",
                            "Package: libold\nVersion: 1\nInstalled: yes\n\n"
                            "Package: libold-user\nVersion: 1\nInstalled: yes\nDepends: libold\n\n"
                            "Package: libnew\nVersion: 1\nBreaks: libold\n\n"
                            "Package: app\nVersion: 1\nDepends: libnew\n");
    EXPECT_EQ(s.suggestion, (std::vector<std::string>{"install", "app", "libold-", "libold-user-"})) << s.message;
}

TEST(StrictPinning, SuggestedOnlyWhenItIsWhatHelps) {
    // lib 2 is not the candidate (1 is, pinned higher): only --no-strict-pinning lets app in.
    Solution s = unsolvable("Install: app\n",
                            "Package: lib\nVersion: 2\nAPT-Pin: 100\nAPT-Candidate: no\n\n"
                            "Package: lib\nVersion: 1\nAPT-Pin: 500\nAPT-Candidate: yes\n\n"
                            "Package: app\nVersion: 1\nDepends: lib (>= 2)\n");
    EXPECT_EQ(s.suggestion, (std::vector<std::string>{"install", "app", "--no-strict-pinning"})) << s.message;
}

TEST(NoSuggestion, WhenNothingButDroppingTheWholeRequestWorks) {
    Solution s = unsolvable("Install: app\n", "Package: app\nVersion: 1\nDepends: missing\n");
    EXPECT_TRUE(s.suggestion.empty()) << s.message;
    EXPECT_EQ(s.message.find("A request that succeeds"), std::string::npos) << s.message;
}

}  // namespace
}  // namespace aptus::solver
