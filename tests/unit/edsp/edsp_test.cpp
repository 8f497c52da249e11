#include <algorithm>
#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "aptus/edsp/edsp.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::edsp {
namespace {

using namespace solver;

TEST(Edsp, ReadsTheRequestAndTheVersions) {
    auto sc = test::scenario("Install: a b:amd64\nRemove: c\nUpgrade-All: yes\nForbid-Remove: yes\nStrict-Pinning: no\n",
                             "Package: a\nVersion: 1.0\nMulti-Arch: foreign\nEssential: yes\nInstalled: yes\nHold: yes\n"
                             "APT-Automatic: yes\nSource: asrc\nSource-Version: 0.9\nDepends: b (>= 1) | c:any, d\n"
                             "Pre-Depends: e\nRecommends: f\nSuggests: g\nConflicts: h (<< 2)\nBreaks: i\nProvides: v (= 3), w\n\n"
                             "Package: b\nVersion: 1\nAPT-Pin: 990\n\nPackage: c\nVersion: 1\nArchitecture: all\n");
    const Universe& u = sc.universe;
    ASSERT_EQ(u.versions.size(), 3u);
    EXPECT_EQ(sc.request.install.size(), 2u);
    EXPECT_EQ(sc.request.remove.size(), 1u);
    EXPECT_TRUE(sc.request.upgrade_all);
    EXPECT_TRUE(sc.request.forbid_remove);
    EXPECT_FALSE(sc.request.forbid_new_install);
    EXPECT_FALSE(sc.request.strict_pinning);
    const Version& a = u.versions[0];
    EXPECT_EQ(a.id, "1");
    EXPECT_EQ(a.multi_arch, MultiArch::Foreign);
    EXPECT_TRUE(a.essential && a.installed && a.hold && a.candidate);
    EXPECT_TRUE(u.packages[a.package].automatic);
    EXPECT_EQ(a.source, "asrc");
    const auto& deps = u.deps(0);
    ASSERT_EQ(deps.size(), 7u);
    EXPECT_EQ(u.dependency_text(deps[0]), "b (>= 1) | c:any");
    EXPECT_EQ(deps[2].kind, DepKind::PreDepends);
    EXPECT_EQ(deps[5].kind, DepKind::Conflicts);
    EXPECT_EQ(u.dependency_text(deps[5]), "h (<< 2)");
    ASSERT_EQ(a.provides.size(), 2u);
    EXPECT_EQ(a.provides[0].version, "3");
    EXPECT_EQ(u.versions[1].pin, 990);
    EXPECT_EQ(u.package_name(u.versions[2].package), "c:amd64");  // arch all lives under the native arch
}

TEST(Edsp, OldUpgradeFieldMeansNoRemovalsNoNewPackages) {
    auto sc = test::scenario("Upgrade: yes\n", "Package: a\nVersion: 1\n");
    EXPECT_TRUE(sc.request.upgrade_all && sc.request.forbid_remove && sc.request.forbid_new_install);
}

TEST(Edsp, BadInputNamesTheLine) {
    try {
        read_edsp("Request: EDSP 0.5\nArchitecture: amd64\nInstall: nothere\n\nPackage: a\nVersion: 1\nArchitecture: amd64\nAPT-ID: 1\nAPT-Pin: 500\n",
                  "x.edsp");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("x.edsp:1: the request names 'nothere'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(read_edsp("Request: EDSP 0.5\n\nPackage: a\nVersion: 1\nArchitecture: amd64\nAPT-ID: 1\nAPT-Pin: x\n", "y"), Error);
    EXPECT_THROW(read_edsp("Package: a\n", "z"), Error);
}

// A scenario read a few bytes at a time (stanzas and fields cut anywhere)
// gives what the whole text gives, and its errors name the scenario's lines.
TEST(Edsp, AStreamReadInSmallPiecesIsTheWholeText) {
    const std::string text =
        "Request: EDSP 0.5\nArchitecture: amd64\nInstall: a\n\n"
        "Package: a\nVersion: 1\nArchitecture: amd64\nAPT-ID: 1\nDepends: b (>= 1)\n | c,\n d\nSection: x\n"
        "Provides: v\n\n"
        "Package: b\nVersion: 2\nArchitecture: amd64\nAPT-ID: 2\nBreaks: a (<< 1)\n\n"
        "Package: c\nVersion: 3\nArchitecture: amd64\nAPT-ID: 3\nDepends: (bad\n";
    for (size_t piece : {size_t{1}, size_t{7}, size_t{64}, text.size()}) {
        size_t at = 0;
        Scenario sc = read_edsp(
            [&](char* buffer, size_t size) {
                const size_t n = std::min({size, piece, text.size() - at});
                std::copy_n(text.data() + at, n, buffer);
                at += n;
                return n;
            },
            "s.edsp");
        const Universe& u = sc.universe;
        ASSERT_EQ(u.versions.size(), 3u) << piece;
        ASSERT_EQ(sc.request.install.size(), 1u);
        ASSERT_EQ(u.deps(0).size(), 2u);
        EXPECT_EQ(u.dependency_text(u.deps(0)[0]), "b (>= 1) | c");
        EXPECT_EQ(u.dependency_text(u.deps(1)[0]), "a (<< 1)");
        EXPECT_EQ(u.versions[0].provides.size(), 1u);
        try {
            u.deps(2);
            FAIL() << "no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("s.edsp:21: Depends"), std::string::npos) << e.what();
        }
    }
}

TEST(Edsp, WritesSolutionErrorAndProgressStanzas) {
    auto sc = test::scenario("Install: a\n", "Package: a\nVersion: 1\n\nPackage: old\nVersion: 1\nInstalled: yes\nAPT-Automatic: yes\n");
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved);
    EXPECT_EQ(format_edsp_solution(sc.universe, s), "Install: 1\n\nAutoremove: 2\n\n");
    EXPECT_EQ(format_edsp_solution(sc.universe, s, true).substr(0, 52), "Install: 1\nPackage: a\nArchitecture: amd64\nVersion: 1");
    EXPECT_EQ(format_edsp_error("ERR_UNSOLVABLE", "first\nsecond\n\nthird"),
              "Error: ERR_UNSOLVABLE\nMessage: first\n second\n .\n third\n\n");
    std::string p = format_edsp_progress(50, "Solving");
    EXPECT_EQ(p.rfind("Progress: ", 0), 0u);
    EXPECT_NE(p.find(" +0000\nPercentage: 50\nMessage: Solving\n\n"), std::string::npos) << p;
}

}  // namespace
}  // namespace aptus::edsp
