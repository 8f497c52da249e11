#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

using test::scenario;
using V = std::vector<std::string>;

// "name:arch=version" of every selected version, sorted.
V selected_with_arch(const Universe& u, const Solution& s) {
    V out;
    for (uint32_t v : s.selected) out.push_back(u.describe(v));
    std::sort(out.begin(), out.end());
    return out;
}

// libfoo is Multi-Arch: same and installed for amd64 and i386 at 1; both
// architectures have a 2 unless `i386_has_2` is false.
std::string libfoo(bool i386_has_2, bool i386_automatic) {
    std::string auto_mark = i386_automatic ? "APT-Automatic: yes\n" : "";
    std::string s =
        "Package: libfoo\nVersion: 2\nMulti-Arch: same\n\n"
        "Package: libfoo\nVersion: 1\nMulti-Arch: same\nInstalled: yes\nAPT-Candidate: no\n\n"
        "Package: libfoo\nArchitecture: i386\nVersion: 1\nMulti-Arch: same\nInstalled: yes\n" + auto_mark +
        (i386_has_2 ? "APT-Candidate: no\n\n" : "\n");
    if (i386_has_2) s += "Package: libfoo\nArchitecture: i386\nVersion: 2\nMulti-Arch: same\n\n";
    return s;
}

TEST(MultiArchSame, AnUpgradeOfOneArchitectureTakesTheOthersAlong) {
    auto sc = scenario("Install: app\n", libfoo(true, false) + "Package: app\nVersion: 1\nDepends: libfoo (>= 2)\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected_with_arch(sc.universe, s), (V{"app:amd64=1", "libfoo:amd64=2", "libfoo:i386=2"}));
}

TEST(MultiArchSame, AnAutomaticSiblingWithoutTheNewVersionGoes) {
    auto sc = scenario("Install: app\n", libfoo(false, true) + "Package: app\nVersion: 1\nDepends: libfoo (>= 2)\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected_with_arch(sc.universe, s), (V{"app:amd64=1", "libfoo:amd64=2"}));
}

TEST(MultiArchSame, AManualSiblingWithoutTheNewVersionMakesItImpossibleAndIsNamed) {
    auto sc = scenario("Install: app\n", libfoo(false, false) + "Package: app\nVersion: 1\nDepends: libfoo (>= 2)\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved);
    EXPECT_NE(s.message.find("libfoo:amd64=2 and libfoo:i386=1 are Multi-Arch: same"), std::string::npos) << s.message;
}

TEST(MultiArchSame, UpgradeMovesBothOrNeither) {
    auto both = scenario("Upgrade-All: yes\nForbid-Remove: yes\nForbid-New-Install: yes\n", libfoo(true, true));
    Solution s = solve(both.universe, both.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected_with_arch(both.universe, s), (V{"libfoo:amd64=2", "libfoo:i386=2"}));
    // No 2 for i386, and nothing may be removed: amd64 stays at 1 as well.
    auto held = scenario("Upgrade-All: yes\nForbid-Remove: yes\nForbid-New-Install: yes\n", libfoo(false, true));
    Solution h = solve(held.universe, held.request);
    ASSERT_TRUE(h.solved) << h.message;
    EXPECT_EQ(selected_with_arch(held.universe, h), (V{"libfoo:amd64=1", "libfoo:i386=1"}));
}

TEST(MultiArchSame, TheInstallationCheckKnowsTheLockStep) {
    auto sc = scenario("Install: app\n", libfoo(true, false) + "Package: app\nVersion: 1\nDepends: libfoo (>= 2)\n");
    auto version = [&](const std::string& described) {
        for (uint32_t v = 0; v < sc.universe.versions.size(); ++v)
            if (sc.universe.describe(v) == described) return v;
        ADD_FAILURE() << described;
        return uint32_t(0);
    };
    std::vector<uint32_t> apart = {version("app:amd64=1"), version("libfoo:amd64=2"), version("libfoo:i386=1")};
    EXPECT_EQ(check_installation(sc.universe, apart),
              V{"libfoo:amd64=2 and libfoo:i386=1 are Multi-Arch: same at different versions"});
    std::vector<uint32_t> together = {version("app:amd64=1"), version("libfoo:amd64=2"), version("libfoo:i386=2")};
    EXPECT_EQ(check_installation(sc.universe, together), V{});
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(check_installation(sc.universe, s.selected), V{});
}

}  // namespace
// Architectures that are not both Multi-Arch: same are one package to dpkg:
// git:i386 (Multi-Arch: foreign) cannot satisfy git-ng beside the git:amd64
// a held package keeps (APT's test-bug-961266-hold-means-hold).
TEST(MultiArchSame, OtherArchitecturesOfAPackageThatIsNotSameAreNotCoInstalled) {
    const std::string packages =
        "Package: git\nVersion: 2\nMulti-Arch: foreign\n\n"
        "Package: git\nVersion: 1\nMulti-Arch: foreign\nInstalled: yes\nAPT-Candidate: no\n\n"
        "Package: git\nArchitecture: i386\nVersion: 2\nMulti-Arch: foreign\n\n"
        "Package: git-cvs\nVersion: 2\nDepends: git (>= 2)\n\n"
        "Package: git-cvs\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\nHold: yes\nDepends: git (<< 2)\n\n"
        "Package: git-ng\nVersion: 2\nDepends: git (>= 2)\n";
    auto sc = scenario("Install: git-ng\n", packages);
    Solution s = solve(sc.universe, sc.request);
    ASSERT_FALSE(s.solved) << "selected: " << ::testing::PrintToString(selected_with_arch(sc.universe, s));
    EXPECT_NE(s.message.find("git:amd64=1 and git:i386=2 are not both Multi-Arch: same"), std::string::npos) << s.message;
    // Without the hold git and git-cvs move to 2 and git:i386 stays out.
    auto free = scenario("Install: git-ng\n", packages.substr(0, packages.find("Hold: yes\n")) +
                                                packages.substr(packages.find("Hold: yes\n") + 10));
    Solution f = solve(free.universe, free.request);
    ASSERT_TRUE(f.solved) << f.message;
    EXPECT_EQ(selected_with_arch(free.universe, f), (V{"git-cvs:amd64=2", "git-ng:amd64=2", "git:amd64=2"}));
}

// "Provides: bar:i386" (APT's test-bug-758153) provides bar for i386 alone,
// whatever the provider's architecture: it meets an i386 package's plain
// "Depends: bar" and an explicit "bar:i386", not an amd64 package's "bar".
static std::string arch_provides() {
    return "Package: foo\nArchitecture: all\nVersion: 1\nProvides: bar:i386\n\n"
           "Package: baz\nArchitecture: i386\nVersion: 1\nDepends: bar\n\n"
           "Package: baz\nVersion: 1\nDepends: bar\n\n"
           "Package: qux\nVersion: 1\nDepends: bar:i386\n\n";
}

TEST(ArchQualifiedProvides, ProvideTheNamedArchitectureOnly) {
    auto i386 = scenario("Install: baz:i386\n", arch_provides());
    Solution s = solve(i386.universe, i386.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected_with_arch(i386.universe, s), (V{"baz:i386=1", "foo:amd64=1"}));
    auto explicit_arch = scenario("Install: qux\n", arch_provides());
    s = solve(explicit_arch.universe, explicit_arch.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected_with_arch(explicit_arch.universe, s), (V{"foo:amd64=1", "qux:amd64=1"}));
    EXPECT_EQ(check_installation(explicit_arch.universe, s.selected), V{});
    auto amd64 = scenario("Install: baz:amd64\n", arch_provides());
    EXPECT_FALSE(solve(amd64.universe, amd64.request).solved);
}

}  // namespace aptus::solver

namespace aptus::solver {

// "Conflicts: lib:i386" (apt-get satisfy's test) conflicts with lib of i386
// alone: the solver keeps lib:amd64, and the independent check agrees.
TEST(ArchQualifiedConflicts, HitTheNamedArchitectureOnly) {
    const std::string packages =
        "Package: lib\nArchitecture: i386\nVersion: 1\nMulti-Arch: same\nInstalled: yes\nAPT-Automatic: yes\n\n"
        "Package: lib\nVersion: 1\nMulti-Arch: same\nInstalled: yes\n\n"
        "Package: app\nVersion: 1\nConflicts: lib:i386\n";
    auto sc = scenario("Install: app\n", packages);
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(selected_with_arch(sc.universe, s), (V{"app:amd64=1", "lib:amd64=1"}));
    EXPECT_EQ(check_installation(sc.universe, s.selected), V{});
    // Keeping both is what the check must refuse.
    std::vector<uint32_t> all;
    for (uint32_t v = 0; v < sc.universe.versions.size(); ++v) all.push_back(v);
    EXPECT_EQ(check_installation(sc.universe, all).size(), 1u);
}

}  // namespace aptus::solver
