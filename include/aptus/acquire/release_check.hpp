// The checks apt makes on a verified Release file before it trusts what the
// Release lists: dates, replays, changed identity, missing components. Each
// check is a plain function over deb::ReleaseFile values that returns what it
// found; the update code decides what to do (an Error keeps the source's old
// lists, a Warning or Notice is printed and the update goes on).
//
// Messages are apt's and name the repository by the `name` the caller passes
// (apt's description, e.g. "http://deb.example.org/debian bookworm InRelease").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::config {
class Config;
}
namespace aptus::deb {
struct ReleaseFile;
}
namespace aptus::sources {
struct SourceEntry;
}

namespace aptus::acquire {

struct CheckResult {
    enum class Level : uint8_t { Ok, Notice, Warning, Error };
    Level level = Level::Ok;
    std::string message;  // empty for Ok; may hold several lines

    bool ok() const { return level == Level::Ok; }
    bool error() const { return level == Level::Error; }
};

// The knobs of these checks for one source entry: the entry's options
// (sources.list(5): check-valid-until, valid-until-min, valid-until-max,
// check-date, date-max-future, trusted, allow-insecure,
// allow-downgrade-to-insecure) over the Acquire:: configuration
// (Check-Valid-Until, Min-ValidTime, Max-ValidTime, Check-Date,
// Max-FutureTime, AllowInsecureRepositories,
// AllowDowngradeToInsecureRepositories, AllowReleaseInfoChange[::Field]),
// the per-origin Acquire::<key>::<Origin> forms included once the Release's
// Origin is known. Times are seconds.
struct ReleaseCheckSettings {
    bool check_valid_until = true;
    int64_t min_valid_time = 0;  // 0: none. Valid-Until is at least Date + this.
    int64_t max_valid_time = 0;  // 0: none. Valid-Until is at most Date + this.
    bool check_date = true;
    int64_t max_future = 10;  // Acquire::Max-FutureTime's default
    bool trusted = false;     // trusted=yes: an unsigned or badly signed Release is accepted
    bool allow_insecure = false;
    bool allow_downgrade_to_insecure = false;
    // Which Release fields may change without the user's consent.
    bool allow_origin_change = false;
    bool allow_label_change = false;
    bool allow_suite_change = false;
    bool allow_codename_change = false;
    bool allow_version_change = true;
    bool allow_defaultpin_change = false;  // NotAutomatic / ButAutomaticUpgrades
};

// `origin` is the Release's Origin where known (for the per-origin keys).
ReleaseCheckSettings release_check_settings(const sources::SourceEntry& entry, const config::Config& config,
                                            std::string_view origin = "");

// Seconds since the epoch for a Release date ("Sat, 09 Nov 2024 09:54:16 UTC",
// also "+0000"-style offsets and a missing weekday, as apt accepts);
// nullopt if it cannot be read.
std::optional<int64_t> parse_release_date(std::string_view value);

// Valid-Until passed (taking Min-/Max-ValidTime into account), or a
// Valid-Until that cannot be read: Error "Release file for <name> is expired
// (invalid since ...). Updates for this repository will not be applied."
CheckResult check_valid_until(const deb::ReleaseFile& release, const ReleaseCheckSettings& settings,
                              std::string_view name, int64_t now);

// Date more than max_future seconds ahead of `now`: Error "Release file for
// <name> is not valid yet (invalid for another ...). Updates for this
// repository will not be applied." A missing or unreadable Date is an Error
// only when check_date is on (apt refuses it too).
CheckResult check_date(const deb::ReleaseFile& release, const ReleaseCheckSettings& settings, std::string_view name,
                       int64_t now);

// A fresh Release whose Date is older than the stored one's: a replay of an
// old, validly signed file. Error.
CheckResult check_not_older(const deb::ReleaseFile& fresh, const deb::ReleaseFile& stored, std::string_view name);

// Origin, Label, Suite, Codename, Version and the default pin compared with
// the stored Release: one result per changed field, an Error for a change the
// settings do not allow (with apt's "This must be accepted explicitly..."
// line), a Notice for an allowed one. Empty when nothing changed.
std::vector<CheckResult> check_release_info_change(const deb::ReleaseFile& fresh, const deb::ReleaseFile& stored,
                                                   const ReleaseCheckSettings& settings, std::string_view name);

// Components and architectures the entry asks for that the Release does not
// list: one Notice each, as apt prints them ("Skipping acquire of configured
// file '<component>/binary-<arch>/Packages' as repository '<name>' doesn't
// have the component '<component>' ..."). `targets` are the MetaKeys apt would
// fetch (e.g. "main/binary-amd64/Packages"), each with its component and
// architecture. A Release without Components/Architectures fields lists
// everything (apt's rule), so nothing is reported for it.
struct RequestedTarget {
    std::string meta_key;
    std::string component;
    std::string architecture;  // "" for targets without one (Sources, Translation)
};
std::vector<CheckResult> check_targets(const deb::ReleaseFile& release, const std::vector<RequestedTarget>& targets,
                                       std::string_view name);

// An unsigned repository (no InRelease and no Release.gpg, or a signature
// that did not verify where the settings allow it): Ok with trusted=yes,
// a Warning with allow-insecure, else the Error "The repository '<name>' is
// not signed." with apt's two explanation lines. `previously_signed`: the
// stored lists came from a signed Release, which only
// allow-downgrade-to-insecure lets go.
CheckResult check_unsigned(const ReleaseCheckSettings& settings, std::string_view name, bool previously_signed);

}  // namespace aptus::acquire
