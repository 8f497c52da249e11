// Phased updates: apt's draw per machine, the configuration's rules, and
// the cap at priority 1 that APT::Get::Phase-Policy puts on what this
// machine does not take yet.
#include "aptus/policy/phasing.hpp"

#include <gtest/gtest.h>

#include "aptus/policy/policy.hpp"

using aptus::policy::Phase;
using aptus::policy::Phasing;
using Rule = aptus::policy::Phasing::Rule;

namespace {

// The machine id apt's test framework gives every test root.
constexpr const char* kSuiteMachine = "912e43bd1c1d4ba481f9f8ccab25f9ee";

Phasing by_machine(std::string id, bool by_policy = true, bool* asked = nullptr) {
    return Phasing(Rule::ByMachine, std::move(id), [asked] {
        if (asked) *asked = true;
        return false;
    }, by_policy);
}

}  // namespace

// The answers apt 3.0 gives for these sources on these machines (its own
// test of phasing shows them as priorities 500 or 1).
TEST(Phasing, TheDrawGivesApt3sAnswers) {
    EXPECT_TRUE(aptus::policy::machine_in_phase({"phased1", "50", 50}, kSuiteMachine));
    EXPECT_FALSE(aptus::policy::machine_in_phase({"phased2", "50", 50}, kSuiteMachine));
    EXPECT_TRUE(aptus::policy::machine_in_phase({"phased3", "50", 50}, kSuiteMachine));
    for (const char* source : {"phased1", "phased2", "phased3"})
        EXPECT_FALSE(aptus::policy::machine_in_phase({source, "10", 10}, kSuiteMachine)) << source;
    // Another machine, another draw: phased2 at 50% is in for this one.
    const std::string zeros(32, '0');
    EXPECT_TRUE(aptus::policy::machine_in_phase({"phased1", "50", 50}, zeros));
    EXPECT_TRUE(aptus::policy::machine_in_phase({"phased2", "50", 50}, zeros));
    EXPECT_FALSE(aptus::policy::machine_in_phase({"phased1", "10", 10}, zeros));
}

TEST(Phasing, FullPercentageIsNeverPhasedAndZeroExcludesAlmostAll) {
    EXPECT_TRUE(aptus::policy::machine_in_phase({"any", "1", 100}, kSuiteMachine));
    Phasing never(Rule::ExcludeAll, kSuiteMachine, nullptr, true);
    EXPECT_FALSE(never.excludes({"any", "1", 100}));  // 100 is no phasing, whatever the rule
    EXPECT_TRUE(never.excludes({"phased1", "100", 99}));
    Phasing always(Rule::IncludeAll, kSuiteMachine, nullptr, true);
    EXPECT_FALSE(always.excludes({"phased2", "50", 50}));
    EXPECT_FALSE(always.excludes({"phased2", "0", 0}));
}

TEST(Phasing, TheChrootQuestionIsAskedOnlyForADraw) {
    bool asked = false;
    Phasing p = by_machine(kSuiteMachine, true, &asked);
    EXPECT_FALSE(p.excludes({"x", "1", 100}));
    EXPECT_FALSE(asked);  // nothing phased: no program run
    EXPECT_TRUE(p.excludes({"phased2", "50", 50}));
    EXPECT_TRUE(asked);

    int calls = 0;
    Phasing chroot(Rule::ByMachine, kSuiteMachine, [&] { return ++calls, true; }, true);
    EXPECT_FALSE(chroot.excludes({"phased2", "50", 50}));  // a chroot takes every update
    EXPECT_FALSE(chroot.excludes({"phased1", "10", 10}));
    EXPECT_EQ(calls, 1);
}

// apt's ceiling: min(priority, 1) for an excluded version, pins included;
// a priority below 1 stays; without Phase-Policy the priority is untouched.
TEST(Phasing, PhasePolicyCapsPrioritiesAtOne) {
    using namespace aptus::policy;
    aptus::Diagnostics diags;
    const FileFacts unstable{{"unstable", "sid", "", "main", "Debian", "Debian", "all", "", false}};
    const FileFacts* files[] = {&unstable};
    const PackageFacts phased2{"phased2", "all", "i386", "phased2"};

    Policy plain({}, "");
    plain.set_phasing(by_machine(kSuiteMachine));
    EXPECT_EQ(plain.version_priority(phased2, "50", files, false, {"phased2", "50", 50}), 1);
    EXPECT_EQ(plain.version_priority(phased2, "100", files, false, {"phased2", "100", 100}), 500);
    EXPECT_EQ(plain.version_priority(phased2, "50", files, false), 500);  // no phase facts: not phased

    auto pins = parse_preferences("Package: phased2\nPin: release a=unstable\nPin-Priority: -12\n\n"
                                  "Package: phased2\nPin: version 50\nPin-Priority: 990\n",
                                  "prefs", diags);
    Policy pinned(pins, "");
    pinned.set_phasing(by_machine(kSuiteMachine));
    EXPECT_EQ(pinned.version_priority(phased2, "10", files, false, {"phased2", "10", 0}), -12);
    Policy pinned_up({pins[1]}, "");
    pinned_up.set_phasing(by_machine(kSuiteMachine));
    EXPECT_EQ(pinned_up.version_priority(phased2, "50", files, false, {"phased2", "50", 50}), 1);

    Policy upgrade_based({}, "");
    upgrade_based.set_phasing(by_machine(kSuiteMachine, false));
    EXPECT_EQ(upgrade_based.version_priority(phased2, "50", files, false, {"phased2", "50", 50}), 500);
}
