// Phased updates (Ubuntu's Phased-Update-Percentage): a version offered to
// N percent of machines. Which machines is decided as apt decides it, from
// the source package, its version and the machine id, so a machine gets
// the same answer from aptus as from apt.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace aptus::policy {

// What phasing looks at in a version.
struct Phase {
    std::string_view source;          // the source package (the package's own name when none)
    std::string_view source_version;  // the source version (the version's own when none)
    unsigned percentage = 100;        // Phased-Update-Percentage; 100: not phased
};

// apt's draw: the seed "source-version-machineid" through std::seed_seq,
// std::minstd_rand and a uniform 0..100; the machine is in the phase when
// the number drawn is at most the percentage.
bool machine_in_phase(const Phase& phase, std::string_view machine_id);

class Phasing {
public:
    // Who takes a phased version: the machines its draw picks, everyone
    // (APT::Get::Always-Include-Phased-Updates, no machine id, a chroot,
    // SOURCE_DATE_EPOCH set), or no one (Never-Include).
    enum class Rule { ByMachine, IncludeAll, ExcludeAll };

    // No phasing at all: every version is taken.
    Phasing() = default;
    // `in_chroot` is asked at most once, and only when a draw is needed
    // (apt runs a program to find out; most runs meet no phased version).
    Phasing(Rule rule, std::string machine_id, std::function<bool()> in_chroot, bool by_policy);

    // Whether this machine does not take `phase` yet.
    bool excludes(const Phase& phase) const;

    // APT::Get::Phase-Policy: an excluded version's priority is capped at 1
    // (it stops being a candidate). Otherwise the policy leaves priorities
    // alone and only the upgrade commands hold excluded versions back.
    bool by_policy() const { return by_policy_; }

private:
    Rule rule_ = Rule::IncludeAll;
    std::string machine_id_;
    std::function<bool()> in_chroot_;
    bool by_policy_ = false;
    mutable std::optional<bool> chroot_;
};

}  // namespace aptus::policy
