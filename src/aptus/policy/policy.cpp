#include "aptus/policy/policy.hpp"

#include <algorithm>
#include <climits>

namespace aptus::policy {

Policy::Policy(const std::vector<PinRecord>& pins, std::string default_release) {
    for (const PinRecord& pin : pins) (pin.general ? general_ : specific_).emplace_back(pin);
    if (!default_release.empty()) {
        Diagnostics ignored;
        auto records = parse_preferences("Package: *\nPin: release " + default_release + "\nPin-Priority: 990\n",
                                         "APT::Default-Release", ignored);
        // A release pattern that is a bad regex matches nothing, as in apt.
        if (!records.empty()) target_.emplace(records.front());
    }
}

bool Policy::is_target_release(const FileFacts& file) const {
    return target_ && target_->matches_file(file.release);
}

int Policy::file_priority(const FileFacts& file) const {
    // The target release may be the status file itself (-t now); other
    // pins leave it at 100.
    if (file.release.is_status) return is_target_release(file) ? 990 : 100;
    // The target release is fixed before the general pins are looked at:
    // apt gives it 990 even when a general pin names the same release.
    if (is_target_release(file)) return 990;
    // apt keeps a file's priority where its lowest value, -32768, means
    // "none set": a general pin there counts as -32767.
    for (const PinMatcher& pin : general_)
        if (pin.matches_file(file.release)) return pin.record().never ? -32768 : std::max(pin.record().priority, -32767);
    if (file.not_automatic) return file.but_automatic_upgrades ? 100 : 1;
    return 500;
}

const PinRecord* Policy::specific_pin(const PackageFacts& package, std::string_view version,
                                      std::span<const FileFacts* const> files) const {
    for (const PinMatcher& pin : specific_) {
        if (!pin.matches_package(package) || !pin.matches_version(version, package.source_version)) continue;
        if (pin.record().kind == PinRecord::Kind::Version || pin.record().kind == PinRecord::Kind::SourceVersion)
            return &pin.record();
        for (const FileFacts* f : files)
            if (pin.matches_file(f->release)) return &pin.record();
    }
    return nullptr;
}

int Policy::version_priority(const PackageFacts& package, std::string_view version,
                             std::span<const FileFacts* const> files, bool installed, const Phase& phase) const {
    // apt caps every source of the priority, a specific pin's too; a
    // priority already below 1 stays as it is.
    const int ceiling = phasing_.by_policy() && phasing_.excludes(phase) ? 1 : INT_MAX;
    // The best of its files' priorities, and of its archives' alone (the
    // status file aside).
    bool only_status = true;
    int best = 0, best_archive = 0;
    bool any = false;
    for (const FileFacts* f : files) {
        int p = file_priority(*f);
        if (!f->release.is_status) {
            best_archive = only_status ? p : std::max(best_archive, p);
            only_status = false;
        }
        if (!any || p > best) best = p;
        any = true;
    }
    // "Pin-Priority: never" on every archive that has the version (none
    // gives -32768 otherwise) rules it out whatever a specific pin says
    // (APT 3.0).
    if (!only_status && best_archive == -32768) return -32768;
    if (const PinRecord* pin = specific_pin(package, version, files)) return std::min(pin->priority, ceiling);
    if (only_status && !installed) return -1;
    return std::min(best, ceiling);
}

std::vector<const PinRecord*> Policy::specific_records() const {
    std::vector<const PinRecord*> out;
    for (const PinMatcher& pin : specific_) out.push_back(&pin.record());
    return out;
}

std::optional<size_t> choose_candidate(std::span<const CandidateInput> newest_first) {
    std::optional<size_t> best;
    int best_priority = 0;
    bool past_installed = false;
    for (size_t i = 0; i < newest_first.size(); ++i) {
        const CandidateInput& v = newest_first[i];
        bool older_than_installed = past_installed;
        if (v.installed) past_installed = true;
        if (v.priority <= best_priority) continue;
        if (older_than_installed && v.priority < 1000) continue;
        best = i;
        best_priority = v.priority;
    }
    return best;
}

}  // namespace aptus::policy
