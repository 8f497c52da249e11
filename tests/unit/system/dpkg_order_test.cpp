// The dpkg work order over small universes written as EDSP text (each case
// one rule of ARCHITECTURE.md's ordering paragraph), and over the solver's
// answers to two real scenarios, where validate_dpkg_order() is the proof.
// The checker is tested too: a wrong order must be caught, or a passing
// order proves nothing.
#include "aptus/system/dpkg_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "aptus/base/compression.hpp"
#include "aptus/config/init.hpp"
#include "aptus/edsp/edsp.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/system.hpp"
#include "aptus/system/system_universe.hpp"
#include "support/test_support.hpp"
#include "unit/cli/sandbox_session.hpp"
#include "unit/solver/solver_test_util.hpp"

namespace aptus::system {
namespace {

using solver::Universe;
using solver::test::scenario;
using V = std::vector<std::string>;

// The version "name=version" or "name:arch=version".
uint32_t ver(const Universe& u, const std::string& spec) {
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        std::string plain = u.name_of_version(v) + "=" + u.versions[v].version;
        if (spec == plain || spec == u.describe(v)) return v;
    }
    ADD_FAILURE() << "no version " << spec;
    return 0;
}

std::vector<uint32_t> vers(const Universe& u, const V& specs) {
    std::vector<uint32_t> out;
    for (const std::string& s : specs) out.push_back(ver(u, s));
    return out;
}

// "unpack a=1", "configure a=1", "remove b=1", "purge c=1"
V text(const Universe& u, const std::vector<DpkgStep>& steps) {
    V out;
    for (const DpkgStep& s : steps) {
        std::string name = u.name_of_version(s.version);
        const std::string& arch = u.packages[u.versions[s.version].package].arch;
        if (arch != u.native_arch) name += ":" + arch;
        out.push_back(std::string(dpkg_action_name(s.action)) + " " + name + "=" + u.versions[s.version].version);
    }
    return out;
}

std::vector<DpkgStep> steps(const Universe& u, const V& lines) {
    std::vector<DpkgStep> out;
    for (const std::string& l : lines) {
        size_t sp = l.find(' ');
        std::string a = l.substr(0, sp);
        DpkgAction act = a == "unpack" ? DpkgAction::Unpack
                         : a == "configure" ? DpkgAction::Configure
                         : a == "remove" ? DpkgAction::Remove
                                         : DpkgAction::Purge;
        out.push_back({act, ver(u, l.substr(sp + 1))});
    }
    return out;
}

size_t pos(const V& order, const std::string& line) {
    auto it = std::find(order.begin(), order.end(), line);
    EXPECT_NE(it, order.end()) << line << " missing";
    return size_t(it - order.begin());
}

// Orders `work`, checks the result with the validator and returns it as text.
V order(const Universe& u, const DpkgWork& work) {
    std::vector<DpkgStep> s = order_dpkg_work(u, work);
    EXPECT_EQ(validate_dpkg_order(u, work, s), V{});
    return text(u, s);
}

// A small universe as EDSP text and the work dpkg is to do on it, each
// version as "name=version" or "name:arch=version".
struct Plan {
    const char* edsp;
    V install = {}, remove = {}, purge = {};
};

// A Plan read: its universe and its work as version indices.
struct Loaded {
    edsp::Scenario sc;
    DpkgWork work;
    explicit Loaded(const Plan& p)
        : sc(scenario("", p.edsp)),
          work{vers(sc.universe, p.install), vers(sc.universe, p.remove), vers(sc.universe, p.purge)} {}
    const Universe& u() const { return sc.universe; }
};

// Each plan one rule of the ordering paragraph.
const Plan chain{
    "Package: a\nVersion: 1\nDepends: b\n\n"
    "Package: b\nVersion: 1\nDepends: c\n\n"
    "Package: c\nVersion: 1\n",
    {"a=1", "b=1", "c=1"}};
const Plan pre_depends{"Package: a\nVersion: 1\nPre-Depends: b\n\nPackage: b\nVersion: 1\n", {"a=1", "b=1"}};
const Plan two_cycle{"Package: a\nVersion: 1\nDepends: b\n\nPackage: b\nVersion: 1\nDepends: a\n", {"a=1", "b=1"}};
const Plan three_cycle{
    "Package: a\nVersion: 1\nDepends: b\n\n"
    "Package: b\nVersion: 1\nDepends: c\n\n"
    "Package: c\nVersion: 1\nDepends: a\n\n"
    "Package: app\nVersion: 1\nDepends: a\n\n"
    "Package: tool\nVersion: 1\nPre-Depends: c\n",
    {"app=1", "a=1", "b=1", "c=1", "tool=1"}};
const Plan new_conflicts_installed{
    "Package: old-mta\nVersion: 1\nInstalled: yes\n\n"
    "Package: new-mta\nVersion: 1\nConflicts: old-mta\n\n"
    "Package: aaa\nVersion: 1\n",
    {"new-mta=1", "aaa=1"},
    {"old-mta=1"}};
// The other direction: the installed package's Conflicts name the new one.
const Plan installed_conflicts_new{
    "Package: old\nVersion: 1\nInstalled: yes\nConflicts: new\n\n"
    "Package: new\nVersion: 1\n",
    {"new=1"},
    {"old=1"}};
// One mail-transport-agent for another while a package that stays depends
// on one: dpkg removes nothing a configured package needs, and cannot
// unpack new-mta while old-mta is there.
const Plan provider_swap{
    "Package: old-mta\nVersion: 1\nInstalled: yes\nProvides: mail-transport-agent\n"
    "Conflicts: mail-transport-agent\n\n"
    "Package: new-mta\nVersion: 1\nProvides: mail-transport-agent\n"
    "Conflicts: mail-transport-agent\n\n"
    "Package: mailx\nVersion: 1\nInstalled: yes\nDepends: mail-transport-agent\n",
    {"new-mta=1"},
    {"old-mta=1"}};
const Plan conflicts_old_lib{
    "Package: lib\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: lib\nVersion: 2\n\n"
    "Package: app\nVersion: 2\nConflicts: lib (<< 2)\n",
    {"app=2", "lib=2"}};
const Plan breaks_old_lib{
    "Package: lib\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: lib\nVersion: 2\n\n"
    "Package: app\nVersion: 2\nBreaks: lib (<< 2)\n",
    {"app=2", "lib=2"}};
const Plan installed_breaks_new{
    "Package: plugin\nVersion: 1\nInstalled: yes\nBreaks: host (>= 2)\nAPT-Candidate: no\n\n"
    "Package: plugin\nVersion: 2\n\n"
    "Package: host\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: host\nVersion: 2\n\n"
    "Package: gone\nVersion: 1\nInstalled: yes\nBreaks: host (>= 2)\n",
    {"host=2", "plugin=2"},
    {"gone=1"}};
const Plan essential_upgrade{
    "Package: aaa\nVersion: 1\n\n"
    "Package: libacl\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: libacl\nVersion: 2\n\n"
    "Package: libattr\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: libattr\nVersion: 2\n\n"
    "Package: coreutils\nVersion: 1\nInstalled: yes\nEssential: yes\nAPT-Candidate: no\n\n"
    "Package: coreutils\nVersion: 2\nEssential: yes\nPre-Depends: libacl (>= 2)\n"
    "Depends: libattr (>= 2)\n",
    {"aaa=1", "coreutils=2", "libacl=2", "libattr=2"}};
const Plan removals{
    "Package: alpha\nVersion: 1\nInstalled: yes\n\n"
    "Package: zed\nVersion: 1\nInstalled: yes\nDepends: alpha\n\n"
    "Package: ess\nVersion: 1\nInstalled: yes\nEssential: yes\n\n"
    "Package: new\nVersion: 1\n",
    {"new=1"},
    {"alpha=1", "ess=1"},
    {"zed=1"}};
const Plan purge_alone{"Package: nginx\nVersion: 1\nInstalled: yes\n", {}, {}, {"nginx=1"}};
// A conflicts loop between upgrades: each new version conflicts with the
// other's old one, so no order of unpacks works; one old version is
// removed for a while (apt does the same), its new version then unpacked.
const Plan conflicts_loop{
    "Package: jre\nVersion: 1\nInstalled: yes\n\n"
    "Package: jre\nVersion: 2\nConflicts: lib (<< 2)\n\n"
    "Package: lib\nVersion: 1\nInstalled: yes\n\n"
    "Package: lib\nVersion: 2\nConflicts: jre (<< 2)\n",
    {"jre=2", "lib=2"},
    {}};
const Plan upgrade{
    "Package: a\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\nPackage: a\nVersion: 2\n", {"a=2"}, {"a=1"}};
const Plan multiarch_same_pair{
    "Package: libfoo\nVersion: 1\nMulti-Arch: same\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: libfoo\nVersion: 2\nMulti-Arch: same\n\n"
    "Package: libfoo\nArchitecture: i386\nVersion: 1\nMulti-Arch: same\nInstalled: yes\n"
    "APT-Candidate: no\n\n"
    "Package: libfoo\nArchitecture: i386\nVersion: 2\nMulti-Arch: same\n",
    {"libfoo:amd64=2", "libfoo:i386=2"}};
const Plan install_and_remove{"Package: a\nVersion: 1\n\nPackage: b\nVersion: 1\nInstalled: yes\n", {"a=1"}, {"b=1"}};
// apt's own rules of its order, each on the smallest plan that shows it.
// The package named apt is essential to apt (so configured at once), and
// with it what it depends on; the rest is configured at the end.
const Plan apt_itself{
    "Package: apt\nVersion: 2\nDepends: libfoo\nRecommends: extra\n\n"
    "Package: libfoo\nVersion: 1\n\n"
    "Package: extra\nVersion: 1\n\n"
    "Package: more\nVersion: 1\n",
    {"apt=2", "libfoo=1", "extra=1", "more=1"}};
// An installed essential package the plan leaves alone still makes what it
// depends on immediate: boot needs initsys, initsys needs core, and both
// are reinstalled (a reinstall does not satisfy a Pre-Depends in apt's eyes).
const Plan immediate_through_installed_essential{
    "Package: boot\nVersion: 1\nInstalled: yes\nEssential: yes\nDepends: initsys\n\n"
    "Package: initsys\nVersion: 5\nInstalled: yes\nPre-Depends: core\nDepends: core (= 5)\n\n"
    "Package: core\nVersion: 5\nInstalled: yes\nPre-Depends: libc\n\n"
    "Package: libc\nVersion: 1\nInstalled: yes\n",
    {"initsys=5", "core=5"}};
const Plan essential_cycle{
    "Package: esa\nVersion: 1\nEssential: yes\nDepends: esb\n\n"
    "Package: esb\nVersion: 1\nEssential: yes\nDepends: esa\n",
    {"esa=1", "esb=1"}};
// plugin 1 pins lib 1: apt unpacks plugin 2 before lib 2, though lib comes
// first by name (so lib 2 breaks nothing configured), and configures both
// at the end in that order, leaving the dependency between them to dpkg's
// one call.
const Plan pinned_by_old_dependant{
    "Package: lib\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\n\n"
    "Package: lib\nVersion: 2\n\n"
    "Package: plugin\nVersion: 1\nInstalled: yes\nAPT-Candidate: no\nDepends: lib (>= 1), lib (<< 1.1)\n\n"
    "Package: plugin\nVersion: 2\nDepends: lib (>= 2), lib (<< 2.1)\n",
    {"plugin=2", "lib=2"}};
// A downgrade that a removed library Breaks: an essential one is unpacked
// first (essential before removals) and configured once the library is
// gone; an ordinary one comes after the removal.
const Plan downgrade_broken_by_removal{
    "Package: lib4\nVersion: 1\nInstalled: yes\n\n"
    "Package: lib5\nVersion: 1\nInstalled: yes\nBreaks: eapp (<< 2), napp (<< 2)\n\n"
    "Package: eapp\nVersion: 3\nInstalled: yes\nEssential: yes\nDepends: lib5\n\n"
    "Package: eapp\nVersion: 1\nEssential: yes\nDepends: lib4\n",
    {"eapp=1"},
    {"lib5=1"}};
const Plan ordinary_downgrade_broken_by_removal{
    "Package: lib4\nVersion: 1\nInstalled: yes\n\n"
    "Package: lib5\nVersion: 1\nInstalled: yes\nBreaks: napp (<< 2)\n\n"
    "Package: napp\nVersion: 3\nInstalled: yes\nDepends: lib5\n\n"
    "Package: napp\nVersion: 1\nDepends: lib4\n",
    {"napp=1"},
    {"lib5=1"}};

// The whole order, where only one is right (apt-get -s prints the chain's
// for a plain install: Inst c, b, a; Conf c, b, a).
struct OrderCase {
    const char* name;
    const Plan* plan;
    V order;
};

void PrintTo(const OrderCase& c, std::ostream* os) { *os << c.name; }

class DpkgOrderIs : public testing::TestWithParam<OrderCase> {};

TEST_P(DpkgOrderIs, TheOneRightOrder) {
    Loaded l(*GetParam().plan);
    EXPECT_EQ(order(l.u(), l.work), GetParam().order);
}

INSTANTIATE_TEST_SUITE_P(
    DpkgOrder, DpkgOrderIs,
    testing::Values(
        OrderCase{"AChainIsUnpackedDependenciesFirstThenConfiguredInTheSameOrder",
                  &chain,
                  {"unpack c=1", "unpack b=1", "unpack a=1", "configure c=1", "configure b=1", "configure a=1"}},
        OrderCase{"PreDependsAreConfiguredBeforeTheUnpack",
                  &pre_depends,
                  {"unpack b=1", "configure b=1", "unpack a=1", "configure a=1"}},
        OrderCase{"AConflictingPackageIsRemovedBeforeTheUnpack",
                  &new_conflicts_installed,
                  {"remove old-mta=1", "unpack aaa=1", "unpack new-mta=1", "configure aaa=1", "configure new-mta=1"}},
        OrderCase{"AnInstalledPackageConflictingWithTheNewOneIsRemovedBeforeTheUnpack",
                  &installed_conflicts_new,
                  {"remove old=1", "unpack new=1", "configure new=1"}},
        OrderCase{"BreaksAgainstAnUpgradedPackageUnpackItsNewVersionFirst",
                  &breaks_old_lib,
                  {"unpack lib=2", "unpack app=2", "configure lib=2", "configure app=2"}},
        OrderCase{"AnEssentialUpgradeComesFirstWithItsPreDependsAndStaysUsable",
                  &essential_upgrade,
                  {"unpack libacl=2", "configure libacl=2", "unpack libattr=2", "configure libattr=2",
                   "unpack coreutils=2", "configure coreutils=2", "unpack aaa=1", "configure aaa=1"}},
        OrderCase{"RemovalsTakeTheirDependantsFirstAndAnEssentialOneGoesLast",
                  &removals,
                  {"purge zed=1", "remove alpha=1", "unpack new=1", "configure new=1", "remove ess=1"}},
        OrderCase{"APurgeAlone", &purge_alone, {"purge nginx=1"}},
        OrderCase{"TheOldVersionOfAnUpgradeIsNotRemoved", &upgrade, {"unpack a=2", "configure a=2"}},
        OrderCase{"AConflictsLoopRemovesOneOldVersionForAWhile",
                  &conflicts_loop,
                  {"remove jre=1", "unpack lib=2", "unpack jre=2", "configure lib=2", "configure jre=2"}},
        OrderCase{"AptIsEssentialAndWhatItDependsOnIsConfiguredAtOnce",
                  &apt_itself,
                  {"unpack libfoo=1", "configure libfoo=1", "unpack apt=2", "configure apt=2", "unpack extra=1",
                   "unpack more=1", "configure extra=1", "configure more=1"}},
        OrderCase{"WhatAnInstalledEssentialPackageNeedsIsConfiguredAtOnce",
                  &immediate_through_installed_essential,
                  {"unpack core=5", "configure core=5", "unpack initsys=5", "configure initsys=5"}},
        OrderCase{"AnEssentialCycleIsConfiguredDepthFirstItsEntryLast",
                  &essential_cycle,
                  {"unpack esa=1", "unpack esb=1", "configure esb=1", "configure esa=1"}},
        OrderCase{"AnInstalledDependantThatPinsTheOldVersionIsUpgradedFirst",
                  &pinned_by_old_dependant,
                  {"unpack plugin=2", "unpack lib=2", "configure plugin=2", "configure lib=2"}},
        OrderCase{"AnEssentialDowngradeComesBeforeTheRemovalThatBreaksIt",
                  &downgrade_broken_by_removal,
                  {"unpack eapp=1", "remove lib5=1", "configure eapp=1"}},
        OrderCase{"AnOrdinaryDowngradeComesAfterTheRemovalThatBreaksIt",
                  &ordinary_downgrade_broken_by_removal,
                  {"remove lib5=1", "unpack napp=1", "configure napp=1"}}),
    [](const testing::TestParamInfo<OrderCase>& info) { return std::string(info.param.name); });

// The checker on a given order: each wrong order must be caught (or a
// passing order proves nothing), by the problem it has.
struct CheckCase {
    const char* name;
    const Plan* plan;
    V steps;
    V problems;
};

void PrintTo(const CheckCase& c, std::ostream* os) { *os << c.name; }

class DpkgOrderChecker : public testing::TestWithParam<CheckCase> {};

TEST_P(DpkgOrderChecker, Finds) {
    Loaded l(*GetParam().plan);
    EXPECT_EQ(validate_dpkg_order(l.u(), l.work, steps(l.u(), GetParam().steps)), GetParam().problems);
}

INSTANTIATE_TEST_SUITE_P(
    DpkgOrder, DpkgOrderChecker,
    testing::Values(
        CheckCase{"AConfigureBeforeTheDependencyIsConfigured",
                  &chain,
                  {"unpack a=1", "configure a=1", "unpack b=1", "unpack c=1", "configure c=1", "configure b=1"},
                  {"step 2 (configure a:amd64=1): Depends b not configured"}},
        CheckCase{"AnUnpackBeforeThePreDependencyIsConfigured",
                  &pre_depends,
                  {"unpack b=1", "unpack a=1", "configure b=1", "configure a=1"},
                  {"step 2 (unpack a:amd64=1): Pre-Depends b not configured"}},
        CheckCase{"ACycleConfiguredBeforeItIsUnpackedWhole",
                  &two_cycle,
                  {"unpack a=1", "configure a=1", "unpack b=1", "configure b=1"},
                  {"step 2 (configure a:amd64=1): Depends b not configured"}},
        CheckCase{"AnUnpackWhileAConflictingPackageIsOnDisk",
                  &new_conflicts_installed,
                  {"unpack new-mta=1", "remove old-mta=1", "unpack aaa=1", "configure aaa=1", "configure new-mta=1"},
                  {"step 1 (unpack new-mta:amd64=1): conflicts with old-mta:amd64=1, still on disk"}},
        // dpkg --auto-deconfigure unconfigures lib 1 when app is unpacked,
        // and lib 2 is configured later anyway: valid too.
        CheckCase{"NothingInBreaksUnpackedBeforeTheUpgradeTheyBreak",
                  &breaks_old_lib,
                  {"unpack app=2", "unpack lib=2", "configure lib=2", "configure app=2"},
                  {}},
        // dpkg checks an installed package's Breaks against the new one
        // only when the new one is configured (its unpack looks at reverse
        // Conflicts alone): host 2 may come first, but is configured only
        // once plugin 1 is gone.
        CheckCase{"AConfigureAnInstalledPackagesBreaksStillForbid",
                  &installed_breaks_new,
                  {"remove gone=1", "unpack host=2", "configure host=2", "unpack plugin=2", "configure plugin=2"},
                  {"step 3 (configure host:amd64=2): plugin:amd64=1 Breaks it, still on disk"}},
        CheckCase{"AnUnpackBeforeAnInstalledPackagesBreaksAreLifted",
                  &installed_breaks_new,
                  {"remove gone=1", "unpack host=2", "unpack plugin=2", "configure host=2", "configure plugin=2"},
                  {}},
        // One run of configures is one dpkg call, which configures what a
        // package depends on first.
        CheckCase{"DependenciesConfiguredLaterInTheSameDpkgCall",
                  &chain,
                  {"unpack c=1", "unpack b=1", "unpack a=1", "configure a=1", "configure b=1", "configure c=1"},
                  {}},
        CheckCase{"ARemovalBeforeItsDependantGoes",
                  &removals,
                  {"remove alpha=1", "purge zed=1", "unpack new=1", "configure new=1", "remove ess=1"},
                  {"step 1 (remove alpha:amd64=1): zed:amd64=1 still needs it"}},
        CheckCase{"ARemoveWhereThePlanPurges",
                  &removals,
                  {"remove zed=1", "remove alpha=1", "unpack new=1", "configure new=1", "remove ess=1"},
                  {"step 1 (remove zed:amd64=1): the plan purges it"}},
        CheckCase{"TheRemovalOfTheOldVersionOfAnUpgrade",
                  &upgrade,
                  {"remove a=1", "unpack a=2", "configure a=2"},
                  {"step 1 (remove a:amd64=1): not a removal dpkg has to do"}},
        CheckCase{
            "AConfigureWhileAMultiArchSameSiblingIsAtAnotherVersion",
            &multiarch_same_pair,
            {"unpack libfoo:amd64=2", "configure libfoo:amd64=2", "unpack libfoo:i386=2", "configure libfoo:i386=2"},
            {"step 2 (configure libfoo:amd64=2): Multi-Arch: same sibling libfoo:i386=1 is at another version"}},
        CheckCase{"StepsTwiceAndStepsMissing",
                  &install_and_remove,
                  {"unpack a=1", "unpack a=1"},
                  {"step 2 (unpack a:amd64=1): unpacked twice", "a:amd64=1 is never configured",
                   "b:amd64=1 is never removed", "a:amd64=1 is left unpacked, not configured"}}),
    [](const testing::TestParamInfo<CheckCase>& info) { return std::string(info.param.name); });

// Where several orders are right: the rule as positions.

// Every one of `group` is unpacked before any of them is configured.
void expect_unpacked_whole(const V& o, const V& group) {
    size_t last_unpack = 0, first_configure = o.size();
    for (const std::string& g : group) {
        last_unpack = std::max(last_unpack, pos(o, "unpack " + g));
        first_configure = std::min(first_configure, pos(o, "configure " + g));
    }
    EXPECT_LT(last_unpack, first_configure) << "the group of " << group.front();
}

TEST(DpkgOrder, ATwoCycleIsUnpackedWholeAndConfiguredAfter) {
    Loaded l(two_cycle);
    V o = order(l.u(), l.work);
    ASSERT_EQ(o.size(), 4u);
    expect_unpacked_whole(o, {"a=1", "b=1"});
}

TEST(DpkgOrder, AThreeCycleAndItsDependantAreOrderedAsOneGroup) {
    Loaded l(three_cycle);
    V o = order(l.u(), l.work);
    ASSERT_EQ(o.size(), 10u);
    expect_unpacked_whole(o, {"a=1", "b=1", "c=1"});
    // tool's Pre-Depends reach into the cycle: the whole cycle is configured first.
    EXPECT_LT(pos(o, "configure a=1"), pos(o, "unpack tool=1"));
    EXPECT_LT(pos(o, "configure c=1"), pos(o, "unpack tool=1"));
    EXPECT_LT(pos(o, "configure a=1"), pos(o, "configure app=1"));
}

// No order satisfies both rules of provider_swap, so the removal is forced
// out just before the unpack (apt's removals rely on dpkg's --force-depends
// here) and the checker names exactly that step.
TEST(DpkgOrder, ASwapOfProvidersNoOrderCanSatisfyIsForcedAndNamed) {
    Loaded l(provider_swap);
    std::vector<DpkgStep> o = order_dpkg_work(l.u(), l.work);
    EXPECT_EQ(text(l.u(), o), (V{"remove old-mta=1", "unpack new-mta=1", "configure new-mta=1"}));
    EXPECT_EQ(validate_dpkg_order(l.u(), l.work, o),
              V{"step 1 (remove old-mta:amd64=1): mailx:amd64=1 still needs it"});
}

TEST(DpkgOrder, AConflictWithAnUpgradedPackageWaitsForItsNewVersion) {
    Loaded l(conflicts_old_lib);
    V o = order(l.u(), l.work);
    EXPECT_LT(pos(o, "unpack lib=2"), pos(o, "unpack app=2"));
}

TEST(DpkgOrder, BreaksFromAnInstalledPackageMustBeLiftedBeforeTheUnpack) {
    Loaded l(installed_breaks_new);
    V o = order(l.u(), l.work);
    EXPECT_LT(pos(o, "unpack plugin=2"), pos(o, "unpack host=2"));
    EXPECT_LT(pos(o, "remove gone=1"), pos(o, "unpack host=2"));
}

TEST(DpkgOrder, AMultiArchSamePairIsUnpackedTogetherAndConfiguredAtOneVersion) {
    Loaded l(multiarch_same_pair);
    V o = order(l.u(), l.work);
    ASSERT_EQ(o.size(), 4u);
    expect_unpacked_whole(o, {"libfoo=2", "libfoo:i386=2"});
}

// The real scenarios: the solver's answer, ordered, must pass the checker.
std::string scenario_path(const std::string& name) {
    std::string dir = APTUS_DATA_DIR;
    if (dir.empty()) return "";
    std::string p = dir + "/scenarios/" + name + "/problem.edsp.xz";
    return std::filesystem::exists(p) ? p : "";
}

void order_real(const std::string& name, size_t min_installs) {
    std::string path = scenario_path(name);
    APTUS_REQUIRE_REAL_DATA(path);
    edsp::Scenario sc = edsp::read_edsp(read_decompressed(path), path);
    solver::Solution s = solver::solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    ASSERT_GE(s.install.size(), min_installs);
    DpkgWork w{s.install, s.remove, {}};
    auto start = std::chrono::steady_clock::now();
    std::vector<DpkgStep> o = order_dpkg_work(sc.universe, w);
    auto ordered = std::chrono::steady_clock::now();
    V problems = validate_dpkg_order(sc.universe, w, o);
    auto checked = std::chrono::steady_clock::now();
    // For the record only (speed is measured in bench/, never asserted here).
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::printf("%s: %zu installs, %zu removals: ordered in %.1f ms, checked in %.1f ms\n", name.c_str(),
                s.install.size(), s.remove.size(), ms(ordered - start), ms(checked - ordered));
    EXPECT_EQ(problems.size(), 0u);
    for (size_t i = 0; i < problems.size() && i < 20; ++i) ADD_FAILURE() << problems[i];
    if (!problems.empty() && std::getenv("APTUS_DUMP_ORDER")) {
        V t = text(sc.universe, o);
        for (size_t i = 0; i < t.size(); ++i) std::fprintf(stderr, "%zu %s\n", i + 1, t[i].c_str());
    }
    std::map<DpkgAction, size_t> count;
    for (const DpkgStep& st : o) ++count[st.action];
    EXPECT_EQ(count[DpkgAction::Unpack], s.install.size());
    EXPECT_EQ(count[DpkgAction::Configure], s.install.size());
    // Every removal is a package that goes (an upgrade's old version is not listed).
    EXPECT_EQ(count[DpkgAction::Remove], s.remove.size());
    // The rules matter on this data: the old way of listing (every removal,
    // then every unpack, then every configure) breaks some of them.
    std::vector<DpkgStep> naive;
    for (uint32_t x : s.remove) naive.push_back({DpkgAction::Remove, x});
    for (uint32_t v : s.install) naive.push_back({DpkgAction::Unpack, v});
    for (uint32_t v : s.install) naive.push_back({DpkgAction::Configure, v});
    EXPECT_FALSE(validate_dpkg_order(sc.universe, w, naive).empty());
}

TEST(DpkgOrderRealData, FullUpgradeToTrixie) { order_real("server-full-upgrade-trixie", 100); }

TEST(DpkgOrderRealData, MinbaseGnomeInstall) { order_real("minbase-gnome", 1000); }

// The universe the -s commands order (system_universe of the real server
// sandbox: bookworm installed, bookworm and trixie lists), as
// simulate_vs_apt runs them.
struct ServerSandbox : test::SandboxSession {
    std::optional<SystemUniverse> su;

    explicit ServerSandbox(const std::string& root) : SandboxSession(root, "dpkg_order") {
        su.emplace(system_universe(opened->cache, *candidates));
    }

    uint32_t package(const std::string& name) {
        auto p = opened->cache.find_package(name, "amd64");
        EXPECT_TRUE(p) << name;
        return p ? su->package_of(opened->cache.index_of(*p)).value_or(0) : 0;
    }

    void order_and_check(const solver::Request& r, const std::string& what) {
        const Universe& u = su->universe;
        solver::Solution s = solver::solve(u, r);
        ASSERT_TRUE(s.solved) << what << ": " << s.message;
        DpkgWork w;
        w.install = s.install;
        (r.purge ? w.purge : w.remove) = s.remove;
        std::vector<DpkgStep> o = order_dpkg_work(u, w);
        EXPECT_EQ(validate_dpkg_order(u, w, o), V{}) << what;
        EXPECT_EQ(o.size(), 2 * s.install.size() + s.remove.size()) << what;
    }
};

TEST(DpkgOrderRealData, TheServerSandboxsPlans) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    ServerSandbox sb(root);
    solver::Request full;
    full.upgrade_all = true;
    sb.order_and_check(full, "full-upgrade");
    solver::Request upgrade;
    upgrade.upgrade_all = upgrade.forbid_remove = upgrade.forbid_new_install = true;
    sb.order_and_check(upgrade, "upgrade");
    solver::Request hello;
    hello.install = {sb.package("hello")};
    sb.order_and_check(hello, "install hello");
    solver::Request purge;
    purge.remove = {sb.package("nginx")};
    purge.purge = purge.autoremove = true;
    sb.order_and_check(purge, "purge --auto-remove nginx");
}

}  // namespace
}  // namespace aptus::system
