#include "aptus/policy/phasing.hpp"

#include <random>

namespace aptus::policy {

bool machine_in_phase(const Phase& phase, std::string_view machine_id) {
    if (phase.percentage >= 100) return true;
    // The same seed text and the same standard engines as apt, so the same
    // number comes out for the same machine.
    std::string seed_text;
    seed_text.reserve(phase.source.size() + phase.source_version.size() + machine_id.size() + 2);
    seed_text.append(phase.source).append("-").append(phase.source_version).append("-").append(machine_id);
    std::seed_seq seed(seed_text.begin(), seed_text.end());
    std::minstd_rand engine(seed);
    std::uniform_int_distribution<unsigned> draw(0, 100);
    return draw(engine) <= phase.percentage;
}

Phasing::Phasing(Rule rule, std::string machine_id, std::function<bool()> in_chroot, bool by_policy)
    : rule_(rule), machine_id_(std::move(machine_id)), in_chroot_(std::move(in_chroot)), by_policy_(by_policy) {}

bool Phasing::excludes(const Phase& phase) const {
    if (phase.percentage >= 100) return false;
    switch (rule_) {
        case Rule::IncludeAll: return false;
        case Rule::ExcludeAll: return true;
        case Rule::ByMachine: break;
    }
    if (!chroot_) chroot_ = in_chroot_ ? in_chroot_() : false;
    if (*chroot_) return false;
    return !machine_in_phase(phase, machine_id_);
}

}  // namespace aptus::policy
