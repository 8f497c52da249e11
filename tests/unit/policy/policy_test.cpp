// Priorities and candidates for bash on a server running bookworm with the
// bookworm and trixie lists: bash 5.2.15-2+b13 installed (in bookworm and in
// the status file), 5.2.37-2+b10 in trixie. Every expected figure is what
// apt 2.6's apt-cache policy printed for the same pins on that sandbox.
#include "aptus/policy/policy.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

using aptus::Diagnostics;
using aptus::policy::CandidateInput;
using aptus::policy::choose_candidate;
using aptus::policy::FileFacts;
using aptus::policy::PackageFacts;
using aptus::policy::Policy;

namespace {

const FileFacts kTrixie{{"stable", "trixie", "13.8", "main", "Debian", "Debian", "amd64", "archive.example", false}};
const FileFacts kBookworm{
    {"oldstable", "bookworm", "12.15", "main", "Debian", "Debian", "amd64", "archive.example", false}};
const FileFacts kStatus{{"now", "", "", "", "", "", "", "", true}};
const PackageFacts kBash{"bash", "amd64", "amd64", "bash"};

struct Outcome {
    int trixie_file, bookworm_file, new_version, installed_version;
    std::string candidate;
};

Outcome run(const std::string& prefs, const std::string& target = "") {
    Diagnostics diags;
    Policy policy(aptus::policy::parse_preferences(prefs, "prefs", diags), target);
    const FileFacts* new_files[] = {&kTrixie};
    const FileFacts* old_files[] = {&kBookworm, &kStatus};
    Outcome o;
    o.trixie_file = policy.file_priority(kTrixie);
    o.bookworm_file = policy.file_priority(kBookworm);
    o.new_version = policy.version_priority(kBash, "5.2.37-2+b10", new_files, false);
    o.installed_version = policy.version_priority(kBash, "5.2.15-2+b13", old_files, true);
    CandidateInput versions[] = {{o.new_version, false}, {o.installed_version, true}};
    auto c = choose_candidate(versions);
    o.candidate = !c ? "(none)" : (*c == 0 ? "5.2.37-2+b10" : "5.2.15-2+b13");
    return o;
}

}  // namespace

TEST(PolicyPriority, Defaults) {
    Outcome o = run("");
    EXPECT_EQ(o.trixie_file, 500);
    EXPECT_EQ(o.bookworm_file, 500);
    EXPECT_EQ(o.new_version, 500);
    EXPECT_EQ(o.installed_version, 500);
    EXPECT_EQ(o.candidate, "5.2.37-2+b10");
}

TEST(PolicyPriority, TargetReleaseBeatsGeneralPins) {
    Outcome o = run("", "bookworm");
    EXPECT_EQ(o.bookworm_file, 990);
    EXPECT_EQ(o.installed_version, 990);
    EXPECT_EQ(o.candidate, "5.2.15-2+b13");
    o = run("", "oldstable");
    EXPECT_EQ(o.bookworm_file, 990);
    o = run("Package: *\nPin: release n=trixie\nPin-Priority: 600\n", "trixie");
    EXPECT_EQ(o.trixie_file, 990);
    o = run("Package: *\nPin: release n=bookworm\nPin-Priority: 600\n", "trixie");
    EXPECT_EQ(o.trixie_file, 990);
    EXPECT_EQ(o.bookworm_file, 600);
}

TEST(PolicyPriority, FirstMatchingGeneralPinPerFile) {
    Outcome o = run(
        "Package: *\nPin: release n=trixie\nPin-Priority: 600\n\n"
        "Package: *\nPin: release o=Debian\nPin-Priority: 700\n");
    EXPECT_EQ(o.trixie_file, 600);
    EXPECT_EQ(o.bookworm_file, 700);
    EXPECT_EQ(o.new_version, 600);
    EXPECT_EQ(o.installed_version, 700);
    EXPECT_EQ(o.candidate, "5.2.15-2+b13");
}

TEST(PolicyPriority, StatusFileKeepsInstalledAtLeast100) {
    Outcome o = run("Package: *\nPin: release n=bookworm\nPin-Priority: 50\n");
    EXPECT_EQ(o.bookworm_file, 50);
    EXPECT_EQ(o.installed_version, 100);
    EXPECT_EQ(o.candidate, "5.2.37-2+b10");
}

TEST(PolicyPriority, FirstMatchingSpecificPinPerVersion) {
    Outcome o = run(
        "Package: bash\nPin: release n=trixie\nPin-Priority: 600\n\n"
        "Package: bash\nPin: release o=Debian\nPin-Priority: 700\n");
    EXPECT_EQ(o.trixie_file, 500);  // specific pins leave the files alone
    EXPECT_EQ(o.new_version, 600);
    EXPECT_EQ(o.installed_version, 700);
    o = run(
        "Package: *\nPin: release n=trixie\nPin-Priority: 600\n\n"
        "Package: bash\nPin: release o=Debian\nPin-Priority: 50\n");
    EXPECT_EQ(o.trixie_file, 600);
    EXPECT_EQ(o.new_version, 50);
    EXPECT_EQ(o.installed_version, 50);
    EXPECT_EQ(o.candidate, "5.2.37-2+b10");  // equal priorities: the newest
}

TEST(PolicyPriority, HighAndNegativePins) {
    Outcome o = run("Package: bash\nPin: release n=bookworm\nPin-Priority: 1001\n");
    EXPECT_EQ(o.installed_version, 1001);
    EXPECT_EQ(o.candidate, "5.2.15-2+b13");
    o = run("Package: bash\nPin: release n=trixie\nPin-Priority: -1\n");
    EXPECT_EQ(o.new_version, -1);
    EXPECT_EQ(o.candidate, "5.2.15-2+b13");
    o = run("Package: bash\nPin: version *\nPin-Priority: -1\n");
    EXPECT_EQ(o.installed_version, -1);
    EXPECT_EQ(o.candidate, "(none)");
}

TEST(PolicyPriority, NotAutomaticArchives) {
    Diagnostics diags;
    Policy policy({}, "");
    FileFacts experimental = kTrixie;
    experimental.not_automatic = true;
    EXPECT_EQ(policy.file_priority(experimental), 1);
    experimental.but_automatic_upgrades = true;
    EXPECT_EQ(policy.file_priority(experimental), 100);
    EXPECT_EQ(policy.file_priority(kStatus), 100);
}

TEST(PolicyPriority, StatusOnlyVersionThatIsNotInstalledIsNeverChosen) {
    Policy policy({}, "");
    const FileFacts* only_status[] = {&kStatus};
    EXPECT_EQ(policy.version_priority(kBash, "5.0-1", only_status, false), -1);
    EXPECT_EQ(policy.version_priority(kBash, "5.0-1", only_status, true), 100);
}

TEST(PolicyCandidate, NeverOlderThanInstalledBelow1000) {
    // installed 2.0 (100, local only), an archive has 1.0 at 500: keep 2.0.
    CandidateInput a[] = {{100, true}, {500, false}};
    EXPECT_EQ(choose_candidate(a), 0u);
    // ... unless the older one is pinned to 1000 or more: a downgrade.
    CandidateInput b[] = {{100, true}, {1000, false}};
    EXPECT_EQ(choose_candidate(b), 1u);
    // Newer versions of lower priority than the installed one lose.
    CandidateInput c[] = {{1, false}, {100, true}};
    EXPECT_EQ(choose_candidate(c), 1u);
    CandidateInput none[] = {{-5, false}};
    EXPECT_FALSE(choose_candidate(none).has_value());
    EXPECT_FALSE(choose_candidate({}).has_value());
}

// The pins around a record with a bad /regex/ still apply (the record is
// left out with a warning), and an APT::Default-Release that is a bad regex
// matches nothing instead of failing.
TEST(PolicyPriority, BadRegexRecordLeavesTheOtherPinsInForce) {
    Outcome o = run(
        "Package: bash\nPin: release n=/trix(/\nPin-Priority: 1001\n\n"
        "Package: bash\nPin: release n=trixie\nPin-Priority: 50\n");
    EXPECT_EQ(o.new_version, 50);
    EXPECT_EQ(o.candidate, "5.2.15-2+b13");
    Outcome t = run("", "/trix(/");
    EXPECT_EQ(t.trixie_file, 500);
    EXPECT_EQ(t.bookworm_file, 500);
}

// "Pin-Priority: never" (APT 3.0): -32768 for a general record, which no
// number gives (apt caps those at -32767); refused on a specific record.
TEST(PolicyPriority, NeverIsBelowEveryNumber) {
    Outcome o = run("Package: *\nPin: release n=trixie\nPin-Priority: never\n");
    EXPECT_EQ(o.trixie_file, -32768);
    EXPECT_EQ(o.new_version, -32768);
    EXPECT_EQ(o.candidate, "5.2.15-2+b13");
    // It wins over a specific pin of the package.
    Outcome s = run("Package: bash\nPin: release n=trixie\nPin-Priority: 990\n\n"
                    "Package: *\nPin: release n=trixie\nPin-Priority: never\n");
    EXPECT_EQ(s.new_version, -32768);
    EXPECT_EQ(s.candidate, "5.2.15-2+b13");
    Diagnostics diags;
    try {
        aptus::policy::parse_preferences("Package: bash\nPin: release n=trixie\nPin-Priority: never\n", "prefs", diags);
        ADD_FAILURE() << "a specific 'never' pin was accepted";
    } catch (const aptus::Error& e) {
        EXPECT_STREQ(e.what(), "prefs: The special 'Pin-Priority: never' can only be used for 'Package: *' records");
    }
}

// "Pin: source-version V" (APT 3.0) pins the versions built from that
// version of their source package.
TEST(PolicyPriority, SourceVersionPinsByTheSourcePackagesVersion) {
    Diagnostics diags;
    Policy policy(aptus::policy::parse_preferences(
                      "Package: bash\nPin: source-version 5.2.15-2*\nPin-Priority: 1001\n", "prefs", diags),
                  "");
    const FileFacts* files[] = {&kBookworm};
    const PackageFacts built_from_old{"bash", "amd64", "amd64", "bash", "5.2.15-2"};
    const PackageFacts built_from_new{"bash", "amd64", "amd64", "bash", "5.2.37-2"};
    EXPECT_EQ(policy.version_priority(built_from_old, "5.2.15-2+b13", files, false), 1001);
    EXPECT_EQ(policy.version_priority(built_from_new, "5.2.15-2+b13", files, false), 500);
    // No Source-Version: the version is its own source version.
    EXPECT_EQ(policy.version_priority(kBash, "5.2.15-2", files, false), 1001);
}
