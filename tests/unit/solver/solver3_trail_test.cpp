// The replay of solver3's decisions (solver3_trail) as its words tell a
// failed request: the chains of reasons, the choices it took in or-groups,
// the choices left out "for context", version selection and holds.
#include <gtest/gtest.h>

#include "aptus/solver/solver3_trail.hpp"
#include "aptus/solver/solver3_words.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

std::string words(const std::string& request, const std::string& stanzas, const std::string& archs = "amd64 i386") {
    auto sc = test::scenario(request, stanzas, archs);
    return solver3_conflicting_decisions(sc.universe, sc.request).value_or("(none)");
}

TEST(Solver3Trail, EveryAlternativeFailsAndTheLastIsTaken) {
    // top needs left or right; left's own choices dead-end, so solver3 gives
    // left up without a reason, takes right, and right's last choice fails.
    EXPECT_EQ(words("Install: top\n",
                    "Package: top\nVersion: 1\nDepends: left | right\n\n"
                    "Package: left\nVersion: 1\nDepends: gone1\n\n"
                    "Package: right\nVersion: 1\nDepends: r1 | r2\n\n"
                    "Package: r1\nVersion: 1\nDepends: gone2\n\n"
                    "Package: r2\nVersion: 1\nDepends: gone3\n",
                    "amd64"),
              "   1. r2:amd64 is selected for install because:\n"
              "      1. top:amd64=1 is selected for install\n"
              "      2. top:amd64 Depends left | right\n"
              "         [selected right:amd64 for install]\n"
              "      3. right:amd64 Depends r1 | r2\n"
              "         [selected right:amd64]\n"
              "      For context, additional choices that could not be installed:\n"
              "      * In top:amd64 Depends left | right:\n"
              "        - left:amd64 is not selected for install\n"
              "      * In right:amd64 Depends r1 | r2:\n"
              "        - r1:amd64 is not selected for install\n"
              "   2. r2:amd64 Depends gone3\n"
              "      but none of the choices are installable:\n"
              "      [no choices]");
}

TEST(Solver3Trail, AnUpgradeWithNothingToChoose) {
    EXPECT_EQ(words("Install: editor\n",
                    "Package: editor\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
                    "Package: editor\nVersion: 2\nDepends: runtime (>= 2)\n\n"
                    "Package: runtime\nVersion: 1\n",
                    "amd64"),
              "   1. editor:amd64=2 is selected as an upgrade\n"
              "   2. editor:amd64=2 Depends runtime (>= 2)\n"
              "      but none of the choices are installable:\n"
              "      [no choices]");
}

TEST(Solver3Trail, AnotherArchitectureAtAnotherVersionShowsItsVersion) {
    // A Multi-Arch: same library installed for amd64 at another version
    // than the one i386 could have: the implicit Breaks says so, and the
    // version selection of the installed one is shown.
    EXPECT_EQ(words("Install: prog:i386\n",
                    "Package: prog\nArchitecture: i386\nVersion: 1\nDepends: mid\n\n"
                    "Package: mid\nArchitecture: i386\nVersion: 1\nDepends: libz (>= 2)\n\n"
                    "Package: libz\nArchitecture: i386\nVersion: 3\nMulti-Arch: same\n\n"
                    "Package: libz\nVersion: 4\nMulti-Arch: same\nInstalled: yes\n"),
              "   1. libz:i386 is not selected for install because:\n"
              "      1. libz:amd64 is selected for install\n"
              "      2. libz:amd64 is available in version 4\n"
              "      3. libz:i386 Breaks libz (!= 3)\n"
              "   2. libz:i386 is selected for install because:\n"
              "      1. prog:i386=1 is selected for install\n"
              "      2. prog:i386 Depends mid:i386\n"
              "      3. mid:i386 Depends libz:i386 (>= 2)");
}

TEST(Solver3Trail, AHeldVersionConflictsWithItsUpgrade) {
    EXPECT_EQ(words("Install: plugin\n",
                    "Package: core\nVersion: 1\nInstalled: yes\nHold: yes\nMulti-Arch: foreign\nAPT-Candidate: no\n\n"
                    "Package: core\nVersion: 2\nMulti-Arch: foreign\n\n"
                    "Package: core\nArchitecture: i386\nVersion: 2\nMulti-Arch: foreign\n\n"
                    "Package: plugin\nVersion: 2\nDepends: core (>> 1.5)\n"),
              "   1. plugin:amd64=2 is selected for install\n"
              "   2. plugin:amd64 Depends core (> 1.5)\n"
              "      but none of the choices are installable:\n"
              "      - core:amd64=2 is not selected for install because:\n"
              "        1. core:amd64=1 is selected for install\n"
              "        2. core:amd64=1 conflicts with other versions of itself\n"
              "      - core:i386=2 is not selected for install because:\n"
              "        1. core:amd64=1 is selected for install as above\n"
              "        2. core:amd64 Conflicts core:i386");
}

TEST(Solver3Trail, AnUpgradeAManualPackageCannotFollow) {
    // The upgrade's new dependency conflicts with what a manual package
    // pre-depends on: the chain from the request, then the one from the
    // manual package, whose target has only its installed version.
    EXPECT_EQ(words("Install: front\n",
                    "Package: front\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
                    "Package: front\nVersion: 2\nDepends: newlib\n\n"
                    "Package: newlib\nVersion: 2\nConflicts: oldlib\n\n"
                    "Package: oldlib\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n\n"
                    "Package: addon\nVersion: 1\nInstalled: yes\nPre-Depends: oldlib\n",
                    "amd64"),
              "   1. oldlib:amd64=1 is not selected for install because:\n"
              "      1. front:amd64=2 is selected as an upgrade\n"
              "      2. front:amd64=2 Depends newlib\n"
              "      3. newlib:amd64 Conflicts oldlib\n"
              "   2. oldlib:amd64=1 is selected for install because:\n"
              "      1. addon:amd64 is selected for install\n"
              "      2. addon:amd64 PreDepends oldlib\n"
              "      3. oldlib:amd64 is available in version 1");
}

TEST(Solver3Trail, AConflictsOnANameHasAClauseForEachArchitecture) {
    // The clause of the depender's own architecture has one choice: no
    // "[selected ...]" line.
    EXPECT_EQ(words("Install: gadget hatesgadget\n",
                    "Package: gadget\nVersion: 1\nMulti-Arch: allowed\n\n"
                    "Package: gadget\nArchitecture: i386\nVersion: 1\nMulti-Arch: allowed\n\n"
                    "Package: hatesgadget\nVersion: 1\nConflicts: gadget\n"),
              "   1. gadget:amd64=1 is selected for install\n"
              "   2. gadget:amd64=1 is not selected for install because:\n"
              "      1. hatesgadget:amd64=1 is selected for install\n"
              "      2. hatesgadget:amd64 Conflicts gadget");
}

TEST(Solver3Trail, AForeignArchitectureThatIsMultiArchForeignIsAChoiceToo) {
    EXPECT_EQ(words("Install: hatesgadget gadget\n",
                    "Package: gadget\nVersion: 1\nMulti-Arch: foreign\n\n"
                    "Package: gadget\nArchitecture: i386\nVersion: 1\nMulti-Arch: foreign\n\n"
                    "Package: hatesgadget\nVersion: 1\nConflicts: gadget\n"),
              "   1. gadget:amd64=1 is selected for install\n"
              "   2. gadget:amd64=1 is not selected for install because:\n"
              "      1. hatesgadget:amd64=1 is selected for install\n"
              "      2. hatesgadget:amd64 Conflicts gadget\n"
              "         [selected hatesgadget:amd64]");
}

TEST(Solver3Trail, AVersionStrictPinningRulesOutIsAFactAgainstTheOnlyChoice) {
    // Two records of one version string that differ are two versions; the
    // one that is not the candidate is ruled out before anything else, so
    // the one choice a relation has is refused at once.
    EXPECT_EQ(words("Install: user\n",
                    "Package: user\nVersion: 1\nDepends: api-1 | api-2\n\n"
                    "Package: impl\nVersion: 1\nProvides: api-0\n\n"
                    "Package: impl\nVersion: 1\nProvides: api-2\nAPT-Candidate: no\n",
                    "amd64"),
              "   1. impl:amd64=1 is not selected for install\n"
              "   2. impl:amd64=1 is selected for install because:\n"
              "      1. user:amd64=1 is selected for install\n"
              "      2. user:amd64 Depends api-1 | api-2");
}

TEST(Solver3Trail, GivesNothingWhenTheReplaySucceeds) {
    auto sc = test::scenario("Install: app\n", "Package: app\nVersion: 1\nDepends: lib\n\nPackage: lib\nVersion: 1\n");
    solver3::Trail trail(sc.universe, sc.request);
    EXPECT_FALSE(trail.run().has_value());
}

}  // namespace
}  // namespace aptus::solver
