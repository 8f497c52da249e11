// Priorities and candidates as apt computes them, over plain facts so the
// cache (or a test) supplies the data and the rules stay in one place.
//
//   package file: the dpkg status file 100; a file of the target release
//   (APT::Default-Release, -t) 990; else the first matching general pin;
//   else 1 for NotAutomatic archives, 100 with ButAutomaticUpgrades too, 500.
//   version: the first matching specific pin; else the highest priority of
//   the files it is in; -1 for a version only the status file knows that is
//   not installed (a removed package's config files). Under
//   APT::Get::Phase-Policy a phased version this machine does not take yet
//   is capped at 1 (phasing.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/policy/phasing.hpp"
#include "aptus/policy/pin_match.hpp"
#include "aptus/policy/preferences.hpp"

namespace aptus::policy {

struct FileFacts {
    PackageFileFacts release;
    bool not_automatic = false;
    bool but_automatic_upgrades = false;
};

class Policy {
public:
    // `default_release` is APT::Default-Release ("" for none), matched like a
    // "Pin: release" value (a bare word is a suite or codename).
    Policy(const std::vector<PinRecord>& pins, std::string default_release);

    int file_priority(const FileFacts& file) const;
    bool is_target_release(const FileFacts& file) const;

    // `files`: every file the version appears in, the status file included
    // when it is installed; `phase`: its phasing facts.
    int version_priority(const PackageFacts& package, std::string_view version,
                         std::span<const FileFacts* const> files, bool installed, const Phase& phase = {}) const;

    void set_phasing(Phasing phasing) { phasing_ = std::move(phasing); }
    const Phasing& phasing() const { return phasing_; }

    // The specific pin that decides this version's priority, or nullptr.
    const PinRecord* specific_pin(const PackageFacts& package, std::string_view version,
                                  std::span<const FileFacts* const> files) const;

    // Every specific record, for `policy` without arguments.
    std::vector<const PinRecord*> specific_records() const;

private:
    std::vector<PinMatcher> specific_;
    std::vector<PinMatcher> general_;
    std::optional<PinMatcher> target_;
    Phasing phasing_;
};

struct CandidateInput {
    int priority = 0;
    bool installed = false;
};

// apt's choice over a package's versions, newest first: the first version of
// the highest positive priority, never one older than the installed version
// unless its priority is 1000 or more. nullopt: no candidate.
std::optional<size_t> choose_candidate(std::span<const CandidateInput> newest_first);

}  // namespace aptus::policy
