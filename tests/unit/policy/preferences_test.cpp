// Each expectation here was first checked with apt 2.6's apt-cache policy on
// a sandbox holding the real bookworm and trixie lists.
#include "aptus/policy/preferences.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "support/test_support.hpp"

using aptus::Diagnostics;
using aptus::policy::parse_preferences;
using aptus::policy::PinRecord;

namespace {

std::vector<PinRecord> parse(const std::string& text, Diagnostics* diags = nullptr) {
    Diagnostics local;
    return parse_preferences(text, "prefs", diags ? *diags : local);
}

std::string error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(PolicyPreferences, SpecificAndGeneralRecords) {
    auto recs = parse(
        "Explanation: keep perl\n"
        "Package: perl perl-base\n"
        "Pin: version 5.32*\n"
        "Pin-Priority: 1001\n"
        "\n"
        "# a comment between records\n"
        "Package: *\n"
        "Pin: release a=unstable\n"
        "Pin-Priority: -10\n"
        "\n"
        "Package: *\n"
        "Pin: origin \"ftp.example\"\n"
        "Pin-Priority: 999\n");
    ASSERT_EQ(recs.size(), 3u);
    EXPECT_EQ(recs[0].packages, (std::vector<std::string>{"perl", "perl-base"}));
    EXPECT_FALSE(recs[0].general);
    EXPECT_EQ(recs[0].kind, PinRecord::Kind::Version);
    EXPECT_EQ(recs[0].version, "5.32*");
    EXPECT_EQ(recs[0].priority, 1001);
    EXPECT_EQ(recs[0].line, 1u);
    EXPECT_TRUE(recs[1].general);
    EXPECT_EQ(recs[1].release.archive, "unstable");
    EXPECT_EQ(recs[1].priority, -10);
    EXPECT_EQ(recs[1].line, 7u);
    EXPECT_EQ(recs[2].kind, PinRecord::Kind::Origin);
    EXPECT_EQ(recs[2].site, "ftp.example");
}

TEST(PolicyPreferences, ReleaseConditions) {
    auto recs = parse(
        "Package: a\nPin: release o=Debian,n=trixie, l=Debian , c=main,b=amd64,v=13.8\nPin-Priority: 700\n\n"
        "Package: b\nPin: release trixie\nPin-Priority: 700\n\n"
        "Package: c\nPin: release 13*\nPin-Priority: 700\n\n"
        "Package: d\nPin: release a=stable, a=oldstable\nPin-Priority: 700\n\n"
        "Package: e\nPin: release n=trixie, foo=bar\nPin-Priority: 600\n");
    ASSERT_EQ(recs.size(), 5u);
    const auto& r = recs[0].release;
    EXPECT_EQ(r.origin, "Debian");
    EXPECT_EQ(r.codename, "trixie");
    EXPECT_EQ(r.label, "Debian");
    EXPECT_EQ(r.component, "main");
    EXPECT_EQ(r.architecture, "amd64");
    EXPECT_EQ(r.version, "13.8");
    EXPECT_EQ(recs[1].release.archive_or_codename, "trixie");
    EXPECT_EQ(recs[2].release.version, "13*");
    EXPECT_EQ(recs[3].release.archive, "oldstable");  // the last condition of a kind counts
    EXPECT_EQ(recs[4].release.codename, "trixie");    // unknown keys are ignored
}

TEST(PolicyPreferences, RecordsAptSkips) {
    Diagnostics diags;
    auto recs = parse(
        "Package: bash\nPin-Priority: 600\n\n"                  // no Pin: skipped silently
        "Package: bash\nPin: foo bar\nPin-Priority: 600\n\n"    // unknown type: warning
        "Package: *\nPin: version 1*\nPin-Priority: 600\n\n"   // version pins cannot be general
        "Explanation: only words\n\n"
        "Package: zsh\nPin: release n=trixie\nPin-Priority: 600\n",
        &diags);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].packages[0], "zsh");
    ASSERT_EQ(diags.size(), 2u);
    EXPECT_EQ(diags[0].message, "prefs:4: Did not understand pin type foo");
    EXPECT_EQ(diags[1].message, "prefs:8: Did not understand pin type version");
    EXPECT_EQ(diags[0].level, aptus::Level::Warning);
}

TEST(PolicyPreferences, ErrorsNameFileAndLine) {
    EXPECT_EQ(error_of("Package: bash\nPin: release n=trixie\n"),
              "prefs:1: No priority (or zero) specified for pin");
    EXPECT_EQ(error_of("\n\nPackage: bash\nPin: release n=trixie\nPin-Priority: 0\n"),
              "prefs:3: No priority (or zero) specified for pin");
    EXPECT_EQ(error_of("Package: bash\nPin: release n=trixie\nPin-Priority: abc\n"),
              "prefs:1: No priority (or zero) specified for pin");
    EXPECT_EQ(error_of("Package: bash\nPin: release n=trixie\nPin-Priority: 12x\n"),
              "prefs:1: No priority (or zero) specified for pin");
    EXPECT_EQ(error_of("Pin: release n=trixie\nPin-Priority: 600\n"),
              "prefs:1: Invalid record in the preferences file, no Package header");
    // A line that is not "Field: value" is the tag file reader's error, located too.
    EXPECT_EQ(error_of("Package: a\nPin: release n=x\nPin-Priority: 1\n\nPackage bash\n").substr(0, 8), "prefs:5:");
}

TEST(PolicyPreferences, ReadsMainFileThenPartsInOrder) {
    aptus::test::TempDir tmp("prefs");
    tmp.write("etc/apt/preferences", "Package: a\nPin: release n=main\nPin-Priority: 1\n");
    tmp.write("etc/apt/preferences.d/20-second.pref", "Package: c\nPin: release n=x\nPin-Priority: 3\n");
    tmp.write("etc/apt/preferences.d/10first", "Package: b\nPin: release n=x\nPin-Priority: 2\n");
    tmp.write("etc/apt/preferences.d/notes.txt", "Package: z\nPin: release n=x\nPin-Priority: 9\n");
    tmp.write("etc/apt/preferences.d/old.pref.disabled", "Package: z\nPin: release n=x\nPin-Priority: 9\n");
    aptus::config::Config config;
    config.set("Dir", tmp.path() + "/");
    config.set("Dir::Etc", "etc/apt/");
    config.set("Dir::Etc::preferences", "preferences");
    config.set("Dir::Etc::preferencesparts", "preferences.d");
    config.set("Dir::Ignore-Files-Silently::", "\\.disabled$");
    Diagnostics diags;
    auto recs = aptus::policy::read_preferences(config, diags);
    ASSERT_EQ(recs.size(), 3u);
    EXPECT_EQ(recs[0].priority, 1);
    EXPECT_EQ(recs[1].priority, 2);
    EXPECT_EQ(recs[2].priority, 3);
    EXPECT_EQ(recs[1].file, tmp.path() + "/etc/apt/preferences.d/10first");
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_NE(diags[0].message.find("Ignoring file 'notes.txt'"), std::string::npos) << diags[0].message;
}

// apt 2.6 (checked on a sandbox): a /regex/ that does not compile is
// "W: Invalid regular expression: foo[" (said again for every package it is
// tried on) and that record never matches; the other records still apply.
// aptus says it once, with the file and line, and leaves the record out.
TEST(PolicyPreferences, BadRegexIsAWarningNamingFileAndLineAndOnlyThatRecordIsIgnored) {
    Diagnostics diags;
    auto recs = parse(
        "Package: good1\n"
        "Pin: release a=stable\n"
        "Pin-Priority: 600\n"
        "\n"
        "Package: /foo[/\n"
        "Pin: release a=stable\n"
        "Pin-Priority: 700\n"
        "\n"
        "Package: bar\n"
        "Pin: release a=/sta[ble/\n"
        "Pin-Priority: 900\n"
        "\n"
        "Package: baz\n"
        "Pin: version /1.[0/\n"
        "Pin-Priority: 901\n"
        "\n"
        "Package: good2 /ok[0-9]/\n"
        "Pin: release a=/^stab/\n"
        "Pin-Priority: 800\n",
        &diags);
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].packages, (std::vector<std::string>{"good1"}));
    EXPECT_EQ(recs[1].packages, (std::vector<std::string>{"good2", "/ok[0-9]/"}));
    EXPECT_EQ(recs[1].priority, 800);
    ASSERT_EQ(diags.size(), 3u);
    EXPECT_EQ(diags[0].level, aptus::Level::Warning);
    EXPECT_EQ(diags[0].message, "prefs:5: Invalid regular expression: foo[ (this record is ignored)");
    EXPECT_EQ(diags[1].message, "prefs:9: Invalid regular expression: sta[ble (this record is ignored)");
    EXPECT_EQ(diags[2].message, "prefs:13: Invalid regular expression: 1.[0 (this record is ignored)");
}

TEST(PolicyPreferences, BadRegexWithAnArchitectureOrInAGeneralPinIsIgnoredToo) {
    Diagnostics diags;
    auto recs = parse(
        "Package: /foo(/:i386\n"
        "Pin: release a=stable\n"
        "Pin-Priority: 700\n"
        "\n"
        "Package: *\n"
        "Pin: release o=/Deb(ian/\n"
        "Pin-Priority: 100\n",
        &diags);
    EXPECT_TRUE(recs.empty());
    ASSERT_EQ(diags.size(), 2u);
    EXPECT_EQ(diags[0].message.rfind("prefs:1: Invalid regular expression: foo(", 0), 0u);
    EXPECT_EQ(diags[1].message.rfind("prefs:5: Invalid regular expression: Deb(ian", 0), 0u);
}
