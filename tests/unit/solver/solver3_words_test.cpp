// solver3's words for an unsolvable request (`--solver 3.0` under apt's
// names): the two conflicting decisions, as APT 3.0 prints them.
#include <gtest/gtest.h>

#include "aptus/solver/solver3_words.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

std::string words(const std::string& request, const std::string& stanzas) {
    auto sc = test::scenario(request, stanzas, "amd64 i386");
    return solver3_conflicting_decisions(sc.universe, sc.request).value_or("(none)");
}

TEST(Solver3Words, ADependencyNothingSatisfiesHasNoChoices) {
    EXPECT_EQ(words("Install: app\n", "Package: app\nVersion: 1\nDepends: missing (>= 2)\n"),
              "   1. app:amd64=1 is selected for install\n"
              "   2. app:amd64 Depends missing (>= 2)\n"
              "      but none of the choices are installable:\n"
              "      [no choices]");
}

TEST(Solver3Words, AForeignPackageNamesItsDependencysArchitecture) {
    EXPECT_EQ(words("Install: app:i386\n",
                    "Package: app\nArchitecture: i386\nVersion: 1\nPre-Depends: lib | other:any\n"),
              "   1. app:i386=1 is selected for install\n"
              "   2. app:i386 PreDepends lib:i386 | other:any\n"
              "      but none of the choices are installable:\n"
              "      [no choices]");
}

TEST(Solver3Words, TwoArchitecturesOfOneName) {
    EXPECT_EQ(words("Install: foo:i386 foo:amd64\n",
                    "Package: foo\nArchitecture: i386\nVersion: 1.0\n\nPackage: foo\nVersion: 1.0\n"),
              "   1. foo:amd64 is not selected for install because:\n"
              "      1. foo:i386=1.0 is selected for install\n"
              "      2. foo:amd64 Conflicts foo:i386\n"
              "   2. foo:amd64=1.0 is selected for install");
}

TEST(Solver3Words, ALaterRequestThatConflictsWithAnEarlierOne) {
    EXPECT_EQ(words("Install: foo hatesfoo\n",
                    "Package: foo\nVersion: 1\n\nPackage: hatesfoo\nVersion: 1\nConflicts: foo\n"),
              "   1. foo:amd64=1 is selected for install\n"
              "   2. foo:amd64=1 is not selected for install because:\n"
              "      1. hatesfoo:amd64=1 is selected for install\n"
              "      2. hatesfoo:amd64 Conflicts foo");
}

TEST(Solver3Words, EveryChoiceExcludedByAnotherArchitectureRequested) {
    EXPECT_EQ(words("Install: needsfoo:i386 foo:amd64\n",
                    "Package: needsfoo\nArchitecture: i386\nVersion: 1\nDepends: foo\n\n"
                    "Package: foo\nArchitecture: i386\nVersion: 1\n\nPackage: foo\nVersion: 1\n"),
              "   1. needsfoo:i386=1 is selected for install\n"
              "   2. needsfoo:i386 Depends foo:i386\n"
              "      but none of the choices are installable:\n"
              "      - foo:i386 is not selected for install because:\n"
              "        1. foo:amd64=1 is selected for install\n"
              "        2. foo:i386 Conflicts foo");
}

TEST(Solver3Words, ARemovalAnEssentialPackageNeeds) {
    EXPECT_EQ(words("Remove: libfoo\n",
                    "Package: foo\nVersion: 1\nEssential: yes\nInstalled: yes\nDepends: libfoo\n\n"
                    "Package: libfoo\nVersion: 1\nInstalled: yes\n"),
              "   1. libfoo:amd64 is selected for removal\n"
              "   2. libfoo:amd64 is selected for install because:\n"
              "      1. foo:amd64 is selected for install\n"
              "      2. foo:amd64 Depends libfoo");
}

TEST(Solver3Words, ARemovalAManualPackageNeeds) {
    EXPECT_EQ(words("Remove: libdb\n",
                    "Package: daemon\nVersion: 1\nInstalled: yes\nDepends: libdb\n\n"
                    "Package: libdb\nVersion: 1\nInstalled: yes\n"),
              "   1. daemon:amd64 is selected for install\n"
              "   2. daemon:amd64 Depends libdb\n"
              "      but none of the choices are installable:\n"
              "      - libdb:amd64 is selected for removal");
}

TEST(Solver3Words, ARequestAnInstalledManualPackageConflictsWith) {
    // The manual package is selected after the request, by name; its
    // Conflicts names what it provides itself.
    EXPECT_EQ(words("Install: postfix\n",
                    "Package: postfix\nVersion: 2\nProvides: mail-transport-agent\n"
                    "Conflicts: mail-transport-agent\n\n"
                    "Package: exim\nVersion: 1\nInstalled: yes\nProvides: mail-transport-agent\n"
                    "Conflicts: mail-transport-agent\n"),
              "   1. postfix:amd64=2 is selected for install\n"
              "   2. postfix:amd64=2 is not selected for install because:\n"
              "      1. exim:amd64 is selected for install\n"
              "      2. exim:amd64 Conflicts mail-transport-agent\n"
              "         [selected exim:amd64]");
}

TEST(Solver3Words, OtherShapesAreLeftToAptusOwnExplanation) {
    // A choice exists and nothing requested excludes it: no words of solver3's.
    EXPECT_EQ(words("Install: app\n", "Package: app\nVersion: 1\nDepends: lib\n\nPackage: lib\nVersion: 1\n"),
              "(none)");
}

}  // namespace
}  // namespace aptus::solver
