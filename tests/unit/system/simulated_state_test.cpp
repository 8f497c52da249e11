#include <gtest/gtest.h>

#include "aptus/system/simulated_state.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::system {
namespace {

std::vector<std::string> broken_names(const solver::Universe& u, const SimulatedState& s) {
    std::vector<std::string> out;
    for (uint32_t p : s.broken_packages()) out.push_back(u.package_name(p));
    return out;
}

uint32_t version_of(const solver::Universe& u, const std::string& name, const std::string& version) {
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.name_of_version(v) == name && u.versions[v].version == version) return v;
    ADD_FAILURE() << name << "=" << version;
    return 0;
}

TEST(SimulatedState, AStepBreaksWhatDependsOnItUntilAnotherStepMendsIt) {
    auto sc = solver::test::scenario("Install: ntpb\n",
                                     "Package: timesync\nVersion: 1\nInstalled: yes\nDepends: ntpa | ntpb\n\n"
                                     "Package: ntpa\nVersion: 1\nInstalled: yes\n\n"
                                     "Package: ntpb\nVersion: 1\nConflicts: ntpa\n");
    const solver::Universe& u = sc.universe;
    const uint32_t ntpb = version_of(u, "ntpb", "1");
    SimulatedState s(u, {ntpb});
    EXPECT_EQ(s.broken_count(), 0u);
    s.remove(u.versions[version_of(u, "ntpa", "1")].package);
    EXPECT_EQ(broken_names(u, s), (std::vector<std::string>{"timesync:amd64"}));
    s.install(ntpb);
    EXPECT_EQ(s.broken_count(), 0u);
}

TEST(SimulatedState, AConflictOrAPreDependsIsNamed) {
    auto sc = solver::test::scenario("Install: b\n",
                                     "Package: a\nVersion: 1\nInstalled: yes\nBreaks: b (<< 2)\n\n"
                                     "Package: b\nVersion: 1\n\n"
                                     "Package: c\nVersion: 1\nInstalled: yes\nPre-Depends: d\n\n"
                                     "Package: d\nVersion: 1\n");
    const solver::Universe& u = sc.universe;
    SimulatedState s(u, {version_of(u, "b", "1")});
    // c is broken from the start: its Pre-Depends is not installed.
    EXPECT_EQ(broken_names(u, s), (std::vector<std::string>{"c:amd64"}));
    s.install(version_of(u, "b", "1"));
    EXPECT_EQ(broken_names(u, s), (std::vector<std::string>{"a:amd64", "c:amd64"}));
    auto unmet = s.unmet(u.versions[version_of(u, "a", "1")].package);
    ASSERT_EQ(unmet.size(), 1u);
    EXPECT_EQ(unmet[0].first, solver::DepKind::Breaks);
    EXPECT_EQ(u.names[unmet[0].second.name], "b");
}

}  // namespace
}  // namespace aptus::system
