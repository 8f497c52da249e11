// format_edsp_scenario() writes what read_edsp() reads: the same versions,
// facts, relations and request, so a dumped request solves the same way.
#include <gtest/gtest.h>

#include "aptus/edsp/edsp.hpp"
#include "aptus/solver/solver.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::edsp {
namespace {

using namespace solver;

using solver::test::names_of;
using solver::test::scenario;
using V = std::vector<std::string>;

const char* const kWorld =
    "Package: app\nVersion: 2\nDepends: libfoo (>= 2) | libbar, base:any\nRecommends: extra\n"
    "Conflicts: oldapp (<< 1)\nBreaks: base (<< 1)\nProvides: app-api (= 2), editor\n\n"
    "Package: app\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\nAPT-Pin: 100\nPre-Depends: base\n\n"
    "Package: libfoo\nVersion: 2\nMulti-Arch: same\nSource: foo\nSource-Version: 2\n\n"
    "Package: libfoo\nArchitecture: i386\nVersion: 2\nMulti-Arch: same\n\n"
    "Package: libbar\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\nHold: yes\n\n"
    "Package: base\nVersion: 1\nInstalled: yes\nEssential: yes\nProtected: yes\nMulti-Arch: foreign\n\n"
    "Package: extra\nVersion: 1\nArchitecture: all\nSuggests: nothing\n";

V everything(const Universe& u) {
    V out;
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        const Version& x = u.versions[v];
        std::string s = u.describe(v) + " arch=" + x.arch + " id=" + x.id + " pin=" + std::to_string(x.pin) +
                        " ma=" + std::to_string(int(x.multi_arch)) + " flags=" + std::to_string(x.installed) +
                        std::to_string(x.candidate) + std::to_string(x.essential) + std::to_string(x.important) +
                        std::to_string(x.hold) + std::to_string(u.packages[x.package].automatic) + " src=" + x.source +
                        "/" + x.source_version;
        for (const Dependency& d : u.deps(v)) s += " " + std::string(dep_kind_name(d.kind)) + ":" + u.dependency_text(d);
        for (const Provide& p : x.provides) s += " P:" + u.names[p.name] + "=" + p.version;
        out.push_back(s);
    }
    return out;
}

TEST(EdspScenarioWrite, ReadingTheTextBackGivesTheSameUniverseAndRequest) {
    auto sc = scenario("Install: app\nRemove: extra\nStrict-Pinning: no\nInstall-Recommends: no\n", kWorld);
    sc.universe.architectures = {"amd64", "i386"};
    std::string text = format_edsp_scenario(sc.universe, sc.request);
    EXPECT_EQ(text.rfind("Request: EDSP 0.5\nArchitecture: amd64\nArchitectures: amd64 i386\n"
                         "Install: app:amd64\nRemove: extra:amd64\n", 0),
              0u)
        << text;
    Scenario back = read_edsp(text, "dump.edsp");
    EXPECT_EQ(everything(back.universe), everything(sc.universe));
    EXPECT_EQ(back.universe.architectures, (V{"amd64", "i386"}));
    EXPECT_EQ(back.request.install, sc.request.install);
    EXPECT_EQ(back.request.remove, sc.request.remove);
    EXPECT_FALSE(back.request.strict_pinning);
    EXPECT_FALSE(back.request.install_recommends);
    EXPECT_FALSE(back.request.upgrade_all);
}

TEST(EdspScenarioWrite, UpgradeRequestsKeepTheirFlagsAndSolveAlike) {
    for (const char* req : {"Upgrade-All: yes\nForbid-Remove: yes\nForbid-New-Install: yes\n",
                            "Upgrade-All: yes\nForbid-Remove: no\nForbid-New-Install: no\nAutoremove: yes\n"}) {
        auto sc = scenario(req, kWorld);
        Scenario back = read_edsp(format_edsp_scenario(sc.universe, sc.request), "dump.edsp");
        EXPECT_EQ(back.request.upgrade_all, sc.request.upgrade_all);
        EXPECT_EQ(back.request.forbid_remove, sc.request.forbid_remove);
        EXPECT_EQ(back.request.forbid_new_install, sc.request.forbid_new_install);
        EXPECT_EQ(back.request.autoremove, sc.request.autoremove);
        Solution a = solve(sc.universe, sc.request), b = solve(back.universe, back.request);
        ASSERT_EQ(a.solved, b.solved) << req;
        EXPECT_EQ(names_of(sc.universe, a.install), names_of(back.universe, b.install));
        EXPECT_EQ(names_of(sc.universe, a.remove), names_of(back.universe, b.remove));
    }
}

}  // namespace
}  // namespace aptus::edsp
