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
    std::vector<std::string> notices;  // apt's advice after the message, each a notice

    bool ok() const { return level == Level::Ok; }
    bool error() const { return level == Level::Error; }
};

// The knobs of these checks for one source entry: the entry's options
// (sources.list(5): check-valid-until, valid-until-min, valid-until-max,
// check-date, date-max-future, trusted, allow-insecure,
// allow-downgrade-to-insecure) over the Acquire:: configuration
// (Check-Valid-Until, Min-ValidTime, Max-ValidTime, Check-Date,
// Max-FutureTime, AllowInsecureRepositories,
// AllowDowngradeToInsecureRepositories, AllowReleaseInfoChange[::Field],
// quiet::ReleaseInfoChange[::Field]). The per-label forms
// (Acquire::Max-ValidTime::<Label>, ...) apply once the Release's Label is
// known. Times are seconds.
struct ReleaseCheckSettings {
    bool check_valid_until = true;
    int64_t min_valid_time = 0;  // 0: none. Valid-Until is at least Date + this.
    int64_t max_valid_time = 0;  // 0: none. Valid-Until is at most Date + this.
    bool check_date = true;      // off also turns check_valid_until off, as in apt
    int64_t max_future = 10;     // Acquire::Max-FutureTime's default
    bool trusted = false;        // trusted=yes: an unsigned Release is accepted
    bool allow_insecure = false;
    bool allow_downgrade_to_insecure = false;
    // allow-weak / Acquire::AllowWeakRepositories: a Release (or an index
    // in it) vouched for by MD5/SHA1 only is taken, the repository then as
    // an unauthenticated one when the whole Release is weak.
    bool allow_weak = false;
    // Which Release fields may change without the user's consent, and
    // whether an allowed change is still reported.
    struct InfoChange {
        bool allow = false;
        bool quiet = false;
    };
    InfoChange origin, label, suite{true, false}, codename, version{true, false}, default_pin;
};

// `label` is the Release's Label where known (for the per-label keys).
ReleaseCheckSettings release_check_settings(const sources::SourceEntry& entry, const config::Config& config,
                                            std::string_view label = "");

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
// repository will not be applied." A missing or unreadable Date is a Warning
// ("Invalid 'Date' entry in Release file <name>") and no date check, as apt.
CheckResult check_date(const deb::ReleaseFile& release, const ReleaseCheckSettings& settings, std::string_view name,
                       int64_t now);

// A fresh Release whose Date is older than the stored one's: a replay of an
// old, validly signed file (apt silently keeps the stored one). Error, so
// the caller keeps the stored lists.
CheckResult check_not_older(const deb::ReleaseFile& fresh, const deb::ReleaseFile& stored, std::string_view name);

// Origin, Label, Suite, Codename, Version and the default pin compared with
// the stored Release: one result per changed field, an Error for a change the
// settings do not allow (with apt's "This must be accepted explicitly..."
// line), a Notice for an allowed one. Empty when nothing changed.
std::vector<CheckResult> check_release_info_change(const deb::ReleaseFile& fresh, const deb::ReleaseFile& stored,
                                                   const ReleaseCheckSettings& settings, std::string_view name);

// The index files asked for against what the Release lists, as apt 3.0
// decides before fetching: a target the Release lists (in any compression)
// is fine; otherwise a Warning when the Release's Components lack its
// component and no target of that component is listed ("Skipping acquire of
// configured file '<meta key>' as repository '<name>' doesn't have the
// component '<component>' (component misspelt in sources.list?)"), nothing
// for an optional target, a Notice when the Release's Architectures lack its
// architecture ("... doesn't support architecture '<arch>'"), nothing when
// they list it (an empty index), and else a Warning ("... does not seem to
// provide it (sources.list entry misspelt?)"): the target is skipped and the
// rest of the repository used. One result per target that is not fine.
struct RequestedTarget {
    std::string meta_key;      // e.g. "main/binary-amd64/Packages"
    std::string component;     // "" for a flat repository
    std::string architecture;  // "" for targets without one (Sources, Translation)
    bool optional = false;     // Acquire::IndexTargets::...::Optional
};
std::vector<CheckResult> check_targets(const deb::ReleaseFile& release, const std::vector<RequestedTarget>& targets,
                                       std::string_view name);

// An unsigned repository (no InRelease and no Release.gpg, or a signature
// that did not verify): Ok with trusted=yes; with allow-insecure a Warning
// ("The repository '<name>' is not signed." and apt's note that its data
// cannot be authenticated); else the Error "The repository '<name>' is not
// signed." with apt's two explanation lines. `previously_signed`: the stored
// lists came from a signed Release; then only allow-downgrade-to-insecure
// (or trusted=yes) lets it go ("The repository '<name>' is no longer signed.").
CheckResult check_unsigned(const ReleaseCheckSettings& settings, std::string_view name, bool previously_signed);

// The suite or codename the entry asked for against the Release's: apt's
// Warning "Conflicting distribution: <name> (expected <suite> but got
// <codename>)" when it is neither. Flat repositories ("./") are not checked.
CheckResult check_distribution(const deb::ReleaseFile& release, std::string_view expected_suite,
                               std::string_view name);

}  // namespace aptus::acquire
