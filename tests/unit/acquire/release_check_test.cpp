#include "aptus/acquire/release_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "aptus/config/config.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::acquire {
namespace {

using Level = CheckResult::Level;

const std::string kName = "http://archive.invalid/debian stable InRelease";

int64_t at(const char* date) { return parse_release_date(date).value(); }

deb::ReleaseFile release(const std::string& date, const std::string& valid_until = "") {
    deb::ReleaseFile r;
    r.origin = "Debian";
    r.label = "Debian";
    r.suite = "stable";
    r.codename = "bookworm";
    r.version = "12.8";
    r.date = date;
    r.valid_until = valid_until;
    return r;
}

sources::SourceEntry entry_with(std::vector<std::pair<std::string, std::string>> options) {
    sources::SourceEntry e;
    e.uri = "http://archive.invalid/debian";
    e.suite = "stable";
    e.components = {"main"};
    for (auto& [k, v] : options) e.options.push_back({k, sources::SourceOption::Op::Set, {v}});
    return e;
}

TEST(ReleaseDate, ReadsTheFormsArchivesWrite) {
    EXPECT_EQ(parse_release_date("Sat, 09 Nov 2024 09:54:16 UTC"), 1731146056);
    EXPECT_EQ(parse_release_date("Sat, 09 Nov 2024 09:54:16 GMT"), 1731146056);
    EXPECT_EQ(parse_release_date("Sat, 9 Nov 2024 09:54:16 +0000"), 1731146056);
    EXPECT_EQ(parse_release_date("09 Nov 2024 09:54:16 UTC"), 1731146056);
    EXPECT_EQ(parse_release_date("Sat, 09 Nov 2024 11:54:16 +0200"), 1731146056);
    EXPECT_EQ(parse_release_date("Thu, 01 Jan 1970 00:00:00 UTC"), 0);
    EXPECT_EQ(parse_release_date("Thu, 29 Feb 2024 00:00:00 UTC"), 1709164800);
    for (const char* bad : {"", "yesterday", "Sat, 09 Nov 2024 09:54:16", "Sat, 09 Foo 2024 09:54:16 UTC",
                            "Sat, 31 Nov 2024 09:54:16 UTC", "Sat, 09 Nov 2024 9:54:16 UTC",
                            "Sat, 09 Nov 2024 09:54:16 CEST", "Thu, 29 Feb 2023 00:00:00 UTC"})
        EXPECT_FALSE(parse_release_date(bad)) << bad;
}

TEST(ReleaseCheck, ValidUntilPassedIsAnError) {
    ReleaseCheckSettings s;
    auto r = release("Sat, 09 Nov 2024 09:54:16 UTC", "Sat, 16 Nov 2024 09:54:16 UTC");
    EXPECT_TRUE(check_valid_until(r, s, kName, at("Fri, 15 Nov 2024 00:00:00 UTC")).ok());
    CheckResult c = check_valid_until(r, s, kName, at("Mon, 18 Nov 2024 13:56:17 UTC"));
    EXPECT_EQ(c.level, Level::Error);
    EXPECT_EQ(c.message, "Release file for " + kName +
                             " is expired (invalid since 2d 4h 2min 1s). Updates for this repository will not be "
                             "applied.");
    // Check-Valid-Until off (or Check-Date off) lets it through.
    s.check_valid_until = false;
    EXPECT_TRUE(check_valid_until(r, s, kName, at("Mon, 18 Nov 2024 13:56:17 UTC")).ok());
}

TEST(ReleaseCheck, MinAndMaxValidTimeBoundValidUntil) {
    ReleaseCheckSettings s;
    auto r = release("Sat, 09 Nov 2024 00:00:00 UTC", "Sun, 10 Nov 2024 00:00:00 UTC");
    int64_t three_days_later = at("Tue, 12 Nov 2024 00:00:00 UTC");
    EXPECT_TRUE(check_valid_until(r, s, kName, three_days_later).error());
    s.min_valid_time = 7 * 86400;  // extends a short promise
    EXPECT_TRUE(check_valid_until(r, s, kName, three_days_later).ok());
    // Max-ValidTime also applies to a Release without Valid-Until.
    ReleaseCheckSettings capped;
    capped.max_valid_time = 86400;
    auto forever = release("Sat, 09 Nov 2024 00:00:00 UTC");
    EXPECT_TRUE(check_valid_until(forever, ReleaseCheckSettings{}, kName, three_days_later).ok());
    CheckResult c = check_valid_until(forever, capped, kName, three_days_later);
    EXPECT_TRUE(c.error());
    EXPECT_NE(c.message.find("invalid since 2d 0h 0min 0s"), std::string::npos) << c.message;
}

TEST(ReleaseCheck, UnreadableValidUntilIsAnError) {
    auto r = release("Sat, 09 Nov 2024 00:00:00 UTC", "next week");
    CheckResult c = check_valid_until(r, ReleaseCheckSettings{}, kName, at("Sat, 09 Nov 2024 00:00:00 UTC"));
    EXPECT_TRUE(c.error());
    EXPECT_EQ(c.message, "Invalid 'Valid-Until' entry in Release file " + kName);
}

TEST(ReleaseCheck, DateFromTheFuture) {
    ReleaseCheckSettings s;
    auto r = release("Sat, 09 Nov 2024 12:00:00 UTC");
    EXPECT_TRUE(check_date(r, s, kName, at("Sat, 09 Nov 2024 11:59:50 UTC")).ok());  // 10 s allowed
    CheckResult c = check_date(r, s, kName, at("Sat, 09 Nov 2024 10:00:00 UTC"));
    EXPECT_EQ(c.level, Level::Error);
    EXPECT_EQ(c.message, "Release file for " + kName +
                             " is not valid yet (invalid for another 1h 59min 50s). Updates for this repository will "
                             "not be applied.");
    s.max_future = 3 * 3600;
    EXPECT_TRUE(check_date(r, s, kName, at("Sat, 09 Nov 2024 10:00:00 UTC")).ok());
    s.max_future = 10;
    s.check_date = false;
    EXPECT_TRUE(check_date(r, s, kName, at("Sat, 09 Nov 2024 10:00:00 UTC")).ok());
    EXPECT_EQ(check_date(release("soon"), s, kName, 0).level, Level::Warning);
}

TEST(ReleaseCheck, AnOlderReleaseIsAReplay) {
    auto stored = release("Sat, 09 Nov 2024 12:00:00 UTC");
    EXPECT_TRUE(check_not_older(release("Sat, 09 Nov 2024 12:00:00 UTC"), stored, kName).ok());
    EXPECT_TRUE(check_not_older(release("Sun, 10 Nov 2024 12:00:00 UTC"), stored, kName).ok());
    CheckResult c = check_not_older(release("Fri, 08 Nov 2024 12:00:00 UTC"), stored, kName);
    EXPECT_TRUE(c.error());
    EXPECT_NE(c.message.find(kName), std::string::npos);
    EXPECT_NE(c.message.find("older than the one already stored"), std::string::npos);
}

TEST(ReleaseCheck, ReleaseInfoChanges) {
    config::Config config;
    auto settings = release_check_settings(entry_with({}), config);
    auto stored = release("Sat, 09 Nov 2024 12:00:00 UTC");
    EXPECT_TRUE(check_release_info_change(stored, stored, settings, kName).empty());

    // stable becoming oldstable and a point release: told, not refused.
    auto moved = stored;
    moved.suite = "oldstable";
    moved.version = "12.9";
    auto found = check_release_info_change(moved, stored, settings, kName);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].level, Level::Notice);
    EXPECT_EQ(found[0].message, "Repository '" + kName + "' changed its 'Version' value from '12.8' to '12.9'");
    EXPECT_EQ(found[1].message, "Repository '" + kName + "' changed its 'Suite' value from 'stable' to 'oldstable'");

    // A new Codename and Origin need consent.
    auto other = stored;
    other.codename = "trixie";
    other.origin = "Evil";
    other.not_automatic = true;
    found = check_release_info_change(other, stored, settings, kName);
    ASSERT_EQ(found.size(), 4u);
    EXPECT_EQ(found[0].level, Level::Error);
    EXPECT_EQ(found[0].message, "Repository '" + kName + "' changed its 'Origin' value from 'Debian' to 'Evil'");
    EXPECT_EQ(found[1].message, "Repository '" + kName + "' changed its 'Codename' value from 'bookworm' to 'trixie'");
    EXPECT_EQ(found[2].message,
              "Repository '" + kName + "' changed its default priority for apt_preferences(5) from 500 to 1.");
    EXPECT_EQ(found[3].level, Level::Notice);
    EXPECT_EQ(found[3].message,
              "This must be accepted explicitly before updates for this repository can be applied. See apt-secure(8) "
              "manpage for details.");

    // --allow-releaseinfo-change, or one field at a time.
    config.set("Acquire::AllowReleaseInfoChange::Codename", "true");
    settings = release_check_settings(entry_with({}), config);
    auto codename_only = stored;
    codename_only.codename = "trixie";
    found = check_release_info_change(codename_only, stored, settings, kName);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].level, Level::Notice);
    config.set("Acquire::AllowReleaseInfoChange", "true");
    config.set("quiet::ReleaseInfoChange", "true");
    settings = release_check_settings(entry_with({}), config);
    EXPECT_TRUE(check_release_info_change(other, stored, settings, kName).empty());
}

TEST(ReleaseCheck, TargetsTheReleaseDoesNotList) {
    deb::ReleaseFile r = release("Sat, 09 Nov 2024 12:00:00 UTC");
    r.components = {"main", "contrib"};
    r.architectures = {"amd64", "arm64"};
    r.sha256 = {{"main/binary-amd64/Packages.xz", 10, "00"}, {"main/i18n/Translation-en.bz2", 10, "00"},
                {"contrib/binary-amd64/Packages", 10, "00"}};
    std::vector<RequestedTarget> targets{
        {"main/binary-amd64/Packages", "main", "amd64", false},
        {"contrib/binary-amd64/Packages", "contrib", "amd64", false},
        {"main/i18n/Translation-en", "main", "", true},
        {"main/i18n/Translation-de", "main", "", true},         // optional: silently skipped
        {"non-free/binary-amd64/Packages", "non-free", "amd64", false},
        {"main/binary-i386/Packages", "main", "i386", false},
        // An announced architecture without an index: as an empty index,
        // silently skipped (apt: "pretty much the same as an empty file").
        {"contrib/binary-arm64/Packages", "contrib", "arm64", false},
    };
    auto found = check_targets(r, targets, kName);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].level, Level::Warning);
    EXPECT_EQ(found[0].message, "Skipping acquire of configured file 'non-free/binary-amd64/Packages' as repository '" +
                                    kName + "' doesn't have the component 'non-free' (component misspelt in "
                                            "sources.list?)");
    EXPECT_EQ(found[1].level, Level::Notice);
    EXPECT_EQ(found[1].message, "Skipping acquire of configured file 'main/binary-i386/Packages' as repository '" +
                                    kName + "' doesn't support architecture 'i386'");
    // Without an Architectures field nothing says the index may be missing:
    // apt 3.0 warns and goes on with the rest of the repository.
    r.architectures.clear();
    found = check_targets(r, {{"contrib/binary-arm64/Packages", "contrib", "arm64", false}}, kName);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].level, Level::Warning);
    EXPECT_EQ(found[0].message, "Skipping acquire of configured file 'contrib/binary-arm64/Packages' as repository '" +
                                    kName + "' does not seem to provide it (sources.list entry misspelt?)");
    // A component listed by a longer name (security archives: "updates/main")
    // is there; a required index missing from it is the same warning.
    r.components = {"updates/main", "updates/contrib", "sub/component"};
    EXPECT_NE(check_targets(r, {{"sub/component/source/Sources", "sub/component", "", false}}, kName)
                  .at(0)
                  .message.find("does not seem to provide it"),
              std::string::npos);
    found = check_targets(r, {{"contrib/source/Sources", "contrib", "", false},
                              {"non-free/source/Sources", "non-free", "", false},
                              {"non-free/i18n/Translation-en", "non-free", "", true}},
                          kName);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_NE(found[0].message.find("does not seem to provide it"), std::string::npos);
    EXPECT_NE(found[1].message.find("doesn't have the component 'non-free'"), std::string::npos);
    EXPECT_NE(found[2].message.find("'non-free/i18n/Translation-en'"), std::string::npos);
}

TEST(ReleaseCheck, UnsignedRepositories) {
    config::Config config;
    auto plain = release_check_settings(entry_with({}), config);
    CheckResult c = check_unsigned(plain, kName, false);
    EXPECT_TRUE(c.error());
    EXPECT_EQ(c.message, "The repository '" + kName + "' is not signed.");
    // apt's advice is two notices of their own, which -q silences.
    ASSERT_EQ(c.notices.size(), 2u);
    EXPECT_EQ(c.notices[0],
              "Updating from such a repository can't be done securely, and is therefore disabled by default.");
    EXPECT_EQ(c.notices[1], "See apt-secure(8) manpage for repository creation and user configuration details.");
    EXPECT_TRUE(check_unsigned(plain, kName, true).error());

    auto insecure = release_check_settings(entry_with({{"allow-insecure", "yes"}}), config);
    EXPECT_EQ(check_unsigned(insecure, kName, false).level, Level::Warning);
    EXPECT_EQ(check_unsigned(insecure, kName, false).notices.at(0),
              "Data from such a repository can't be authenticated and is therefore potentially dangerous to use.");
    // A repository that was signed and no longer is stays refused.
    c = check_unsigned(insecure, kName, true);
    EXPECT_TRUE(c.error());
    EXPECT_EQ(c.message, "The repository '" + kName + "' is no longer signed.");
    // The downgrade allowed alone is not enough: insecure repositories must be too.
    config.set("Acquire::AllowDowngradeToInsecureRepositories", "true");
    EXPECT_TRUE(check_unsigned(release_check_settings(entry_with({}), config), kName, true).error());
    config.set("Acquire::AllowInsecureRepositories", "true");
    EXPECT_EQ(check_unsigned(release_check_settings(entry_with({}), config), kName, true).level, Level::Warning);

    auto trusted = release_check_settings(entry_with({{"trusted", "yes"}}), config::Config{});
    EXPECT_TRUE(check_unsigned(trusted, kName, false).ok());
    EXPECT_TRUE(check_unsigned(trusted, kName, true).ok());
}

TEST(ReleaseCheck, SettingsFromEntryOverConfiguration) {
    config::Config config;
    config.set("Acquire::Check-Valid-Until", "false");
    config.set("Acquire::Max-FutureTime", "100");
    config.set("Acquire::Max-ValidTime", "86400");
    config.set("Acquire::Max-ValidTime::Debian", "3600");
    auto s = release_check_settings(entry_with({}), config);
    EXPECT_FALSE(s.check_valid_until);
    EXPECT_EQ(s.max_future, 100);
    EXPECT_EQ(s.max_valid_time, 86400);
    EXPECT_EQ(release_check_settings(entry_with({}), config, "Debian").max_valid_time, 3600);

    s = release_check_settings(entry_with({{"check-valid-until", "yes"},
                                           {"date-max-future", "60"},
                                           {"valid-until-max", "7200"},
                                           {"valid-until-min", "600"}}),
                               config, "Debian");
    EXPECT_TRUE(s.check_valid_until);
    EXPECT_EQ(s.max_future, 60);
    EXPECT_EQ(s.max_valid_time, 7200);
    EXPECT_EQ(s.min_valid_time, 600);
    // No trustworthy clock, no date checks at all.
    s = release_check_settings(entry_with({{"check-date", "no"}, {"check-valid-until", "yes"}}), config);
    EXPECT_FALSE(s.check_date);
    EXPECT_FALSE(s.check_valid_until);
    EXPECT_EQ(release_check_settings(entry_with({}), config::Config{}).max_future, 10);
}

TEST(ReleaseCheck, ConflictingDistribution) {
    auto r = release("Sat, 09 Nov 2024 12:00:00 UTC");
    EXPECT_TRUE(check_distribution(r, "stable", kName).ok());
    EXPECT_TRUE(check_distribution(r, "bookworm", kName).ok());
    EXPECT_TRUE(check_distribution(r, "bookworm/updates", kName).ok());
    EXPECT_TRUE(check_distribution(r, "./", kName).ok());
    CheckResult c = check_distribution(r, "trixie", kName);
    EXPECT_EQ(c.level, Level::Warning);
    EXPECT_EQ(c.message, "Conflicting distribution: " + kName + " (expected trixie but got bookworm)");
}

}  // namespace
}  // namespace aptus::acquire
