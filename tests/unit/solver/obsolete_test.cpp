// What a full upgrade may remove although it was installed manually: the
// obsolete packages, and which package replaces each.
#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

TEST(Obsolete, TheOldHalfOfATransitionAndWhatNoRepositoryHas) {
    auto sc = test::scenario("Upgrade-All: yes\n",
                             "Package: libfoo1\nVersion: 1\nSource: foo\nSource-Version: 1\nInstalled: yes\n\n"
                             "Package: libfoo-dev\nVersion: 2\nSource: foo\nSource-Version: 2\n\n"
                             "Package: libfoo1t64\nVersion: 2\nSource: foo\nSource-Version: 2\n\n"
                             "Package: gone\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
                             "Package: kept\nVersion: 1\nSource: kept\nInstalled: yes\n");
    const Universe& u = sc.universe;
    const std::vector<uint32_t> why = obsolete_packages(u);
    auto of = [&](const std::string& name) { return why[*u.find_package(name, "amd64")]; };
    ASSERT_NE(of("libfoo1"), kNotObsolete);
    ASSERT_NE(of("libfoo1"), kNoCandidate);
    EXPECT_EQ(u.describe(of("libfoo1")), "libfoo1t64:amd64=2");  // not libfoo-dev
    EXPECT_EQ(of("gone"), kNoCandidate);
    EXPECT_EQ(of("kept"), kNotObsolete);
    EXPECT_EQ(of("libfoo1t64"), kNotObsolete);  // not installed
}

}  // namespace
}  // namespace aptus::solver
