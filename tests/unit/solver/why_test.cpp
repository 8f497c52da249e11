#include <gtest/gtest.h>

#include "aptus/solver/why.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

using test::scenario;

uint32_t pkg(const Universe& u, const char* name) { return *u.find_package(name, "amd64"); }

std::vector<uint32_t> installed(const Universe& u) {
    std::vector<uint32_t> out;
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) out.push_back(v);
    return out;
}

// "from -Kind-> to" per step, with the depth as leading dots (why-not).
std::vector<std::string> chain(const Universe& u, const std::vector<WhyStep>& steps) {
    std::vector<std::string> out;
    for (const WhyStep& s : steps)
        out.push_back(std::string(s.depth, '.') + u.describe(s.from) + " " + std::string(dep_kind_name(s.kind)) + " " +
                      s.relation + " -> " + (s.to ? u.describe(*s.to) : "nothing"));
    return out;
}

using V = std::vector<std::string>;

TEST(Why, ShortestDependsChainFromAManualPackage) {
    auto sc = scenario("",
                       "Package: app\nVersion: 1\nInstalled: yes\nDepends: lib (>= 1)\nRecommends: z\n\n"
                       "Package: lib\nVersion: 2\nInstalled: yes\nAPT-Automatic: yes\nDepends: z\n\n"
                       "Package: z\nVersion: 3\nInstalled: yes\nAPT-Automatic: yes\n\n"
                       "Package: other\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n");
    const Universe& u = sc.universe;
    // The Recommends is shorter, but a chain of Depends is stronger.
    WhyResult w = why(u, installed(u), pkg(u, "z"));
    ASSERT_EQ(w.verdict, WhyResult::Verdict::Chain);
    EXPECT_EQ(w.root, RootKind::Manual);
    EXPECT_EQ(w.strength, DepKind::Depends);
    EXPECT_EQ(chain(u, w.steps), (V{"app:amd64=1 Depends lib (>= 1) -> lib:amd64=2", "lib:amd64=2 Depends z -> z:amd64=3"}));
    EXPECT_EQ(u.describe(w.version), "z:amd64=3");

    WhyResult root = why(u, installed(u), pkg(u, "app"));
    EXPECT_EQ(root.verdict, WhyResult::Verdict::Root);
    EXPECT_EQ(root.root, RootKind::Manual);
    EXPECT_TRUE(root.steps.empty());

    EXPECT_EQ(why(u, installed(u), pkg(u, "other")).verdict, WhyResult::Verdict::Unreached);
}

TEST(Why, RecommendsThenSuggestsWhenNoDependsChainExists) {
    auto sc = scenario("",
                       "Package: app\nVersion: 1\nInstalled: yes\nSuggests: s\nRecommends: mid\n\n"
                       "Package: mid\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\nDepends: r\n\n"
                       "Package: r\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
                       "Package: s\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
                       "Package: base\nVersion: 1\nInstalled: yes\nEssential: yes\nAPT-Automatic: yes\n");
    const Universe& u = sc.universe;
    WhyResult r = why(u, installed(u), pkg(u, "r"));
    ASSERT_EQ(r.verdict, WhyResult::Verdict::Chain);
    EXPECT_EQ(r.strength, DepKind::Recommends);
    EXPECT_EQ(chain(u, r.steps), (V{"app:amd64=1 Recommends mid -> mid:amd64=1", "mid:amd64=1 Depends r -> r:amd64=1"}));
    WhyResult s = why(u, installed(u), pkg(u, "s"));
    ASSERT_EQ(s.verdict, WhyResult::Verdict::Chain);
    EXPECT_EQ(s.strength, DepKind::Suggests);
    WhyResult b = why(u, installed(u), pkg(u, "base"));
    EXPECT_EQ(b.verdict, WhyResult::Verdict::Root);
    EXPECT_EQ(b.root, RootKind::Essential);
}

TEST(Why, ThroughProvidesAndOrGroupsAndNeverAutoRemove) {
    auto sc = scenario("",
                       "Package: mailer\nVersion: 1\nInstalled: yes\nDepends: nothing-here | mail-transport-agent\n\n"
                       "Package: postfix\nVersion: 3\nInstalled: yes\nAPT-Automatic: yes\nProvides: mail-transport-agent\n\n"
                       "Package: linux-image-6\nVersion: 6\nInstalled: yes\nAPT-Automatic: yes\n");
    const Universe& u = sc.universe;
    WhyResult w = why(u, installed(u), pkg(u, "postfix"));
    ASSERT_EQ(w.verdict, WhyResult::Verdict::Chain);
    EXPECT_EQ(chain(u, w.steps), (V{"mailer:amd64=1 Depends nothing-here | mail-transport-agent -> postfix:amd64=3"}));

    EXPECT_EQ(why(u, installed(u), pkg(u, "linux-image-6")).verdict, WhyResult::Verdict::Unreached);
    Request r;
    r.never_autoremove = {"^linux-image-.*"};
    WhyResult k = why(u, installed(u), pkg(u, "linux-image-6"), r);
    EXPECT_EQ(k.verdict, WhyResult::Verdict::Root);
    EXPECT_EQ(k.root, RootKind::NeverAutoRemove);
}

TEST(Why, NotInstalled) {
    auto sc = scenario("", "Package: a\nVersion: 1\n");
    EXPECT_EQ(why(sc.universe, installed(sc.universe), pkg(sc.universe, "a")).verdict, WhyResult::Verdict::NotInstalled);
}

TEST(WhyNot, CandidateConflictsWithAnInstalledPackage) {
    auto sc = scenario("",
                       "Package: exim\nVersion: 4\nConflicts: mail-transport-agent\nProvides: mail-transport-agent\n\n"
                       "Package: postfix\nVersion: 3\nInstalled: yes\nProvides: mail-transport-agent\n");
    const Universe& u = sc.universe;
    WhyNotResult w = why_not(u, pkg(u, "exim"));
    ASSERT_EQ(w.verdict, WhyNotResult::Verdict::KeptOut);
    EXPECT_EQ(chain(u, w.steps), (V{"exim:amd64=4 Conflicts mail-transport-agent -> postfix:amd64=3"}));
    EXPECT_EQ(why_not(u, pkg(u, "postfix")).verdict, WhyNotResult::Verdict::Installed);
}

TEST(WhyNot, AnInstalledPackageBreaksTheCandidate) {
    auto sc = scenario("",
                       "Package: tool\nVersion: 2\n\n"
                       "Package: guard\nVersion: 1\nInstalled: yes\nBreaks: tool (<< 3)\n");
    const Universe& u = sc.universe;
    WhyNotResult w = why_not(u, pkg(u, "tool"));
    ASSERT_EQ(w.verdict, WhyNotResult::Verdict::KeptOut);
    EXPECT_EQ(chain(u, w.steps), (V{"guard:amd64=1 Breaks tool (<< 3) -> tool:amd64=2"}));
}

TEST(WhyNot, DependencyThatNothingMeetsNestedThroughAnOrGroup) {
    auto sc = scenario("",
                       "Package: app\nVersion: 2\nDepends: x | y\n\n"
                       "Package: x\nVersion: 1\nDepends: libnew (>= 5)\n\n"
                       "Package: libnew\nVersion: 4\n\n"
                       "Package: y\nVersion: 1\nConflicts: base\n\n"
                       "Package: base\nVersion: 1\nInstalled: yes\n\n"
                       "Package: z\nVersion: 2\nAPT-Candidate: no\n\n"
                       "Package: z\nVersion: 1\n\n"
                       "Package: needs-z2\nVersion: 1\nDepends: z (>= 2)\n");
    const Universe& u = sc.universe;
    WhyNotResult w = why_not(u, pkg(u, "app"));
    ASSERT_EQ(w.verdict, WhyNotResult::Verdict::KeptOut);
    EXPECT_EQ(chain(u, w.steps), (V{
                                     "app:amd64=2 Depends x | y -> x:amd64=1",
                                     ".x:amd64=1 Depends libnew (>= 5) -> nothing",
                                     "app:amd64=2 Depends x | y -> y:amd64=1",
                                     ".y:amd64=1 Conflicts base -> base:amd64=1",
                                 }));
    // z 2 exists but is not the candidate: with strict pinning nothing meets it.
    WhyNotResult n = why_not(u, pkg(u, "needs-z2"));
    ASSERT_EQ(n.verdict, WhyNotResult::Verdict::KeptOut);
    EXPECT_EQ(chain(u, n.steps), (V{"needs-z2:amd64=1 Depends z (>= 2) -> nothing"}));
}

TEST(WhyNot, InstallableAndNoCandidate) {
    auto sc = scenario("",
                       "Package: free\nVersion: 1\nDepends: dep\n\n"
                       "Package: dep\nVersion: 1\n\n"
                       "Package: pinned\nVersion: 1\nAPT-Candidate: no\n");
    const Universe& u = sc.universe;
    EXPECT_EQ(why_not(u, pkg(u, "free")).verdict, WhyNotResult::Verdict::Installable);
    EXPECT_EQ(why_not(u, pkg(u, "pinned")).verdict, WhyNotResult::Verdict::NoCandidate);
}

TEST(WhyNot, ConflictingDependenciesAreLeftToTheSolver) {
    // Each dependency alone can be met; both together cannot.
    auto sc = scenario("",
                       "Package: pair\nVersion: 1\nDepends: left, right\n\n"
                       "Package: left\nVersion: 1\nConflicts: right\n\n"
                       "Package: right\nVersion: 1\n");
    const Universe& u = sc.universe;
    WhyNotResult w = why_not(u, pkg(u, "pair"));
    ASSERT_EQ(w.verdict, WhyNotResult::Verdict::KeptOut);
    EXPECT_TRUE(w.steps.empty());
    EXPECT_NE(w.solver_message.find("left:amd64=1 Conflicts right"), std::string::npos) << w.solver_message;
}

}  // namespace
}  // namespace aptus::solver
