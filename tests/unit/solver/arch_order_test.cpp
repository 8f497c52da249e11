// Where several architectures of a package would meet a dependency, apt
// takes them in the configured order (APT::Architectures), not in the
// order the packages were read.
#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::solver {
namespace {

std::vector<std::string> chosen(const std::string& architectures) {
    auto sc = test::scenario("Install: app\n",
                             "Package: foo\nArchitecture: armel\nVersion: 1\nMulti-Arch: foreign\n\n"
                             "Package: foo\nArchitecture: i386\nVersion: 1\nMulti-Arch: foreign\n\n"
                             "Package: app\nVersion: 1\nDepends: foo\n",
                             architectures);
    Solution s = solve(sc.universe, sc.request);
    EXPECT_TRUE(s.solved) << s.message;
    std::vector<std::string> out;
    for (uint32_t v : s.install) out.push_back(sc.universe.describe(v));
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ArchitectureOrder, TheFirstConfiguredForeignArchitectureWins) {
    EXPECT_EQ(chosen("amd64 i386 armel"), (std::vector<std::string>{"app:amd64=1", "foo:i386=1"}));
    EXPECT_EQ(chosen("amd64 armel i386"), (std::vector<std::string>{"app:amd64=1", "foo:armel=1"}));
}

}  // namespace
}  // namespace aptus::solver
