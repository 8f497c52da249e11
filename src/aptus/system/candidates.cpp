#include "aptus/system/candidates.hpp"

#include "aptus/system/system.hpp"

namespace aptus::system {

Candidates::Candidates(const cache::Cache& cache, const policy::Policy& policy)
    : cache_(cache),
      policy_(policy),
      facts_(system::file_facts(cache)),
      priorities_(cache.versions().size()),
      candidates_(cache.packages().size()),
      known_(cache.packages().size()) {
    file_priorities_.reserve(facts_.size());
    for (const policy::FileFacts& f : facts_) file_priorities_.push_back(policy.file_priority(f));
}

void Candidates::work_out(uint32_t package) const {
    known_[package] = 1;
    const cache::Package& p = cache_.packages()[package];
    std::span<const cache::Version> versions = cache_.versions_of(p);  // newest first
    std::vector<policy::CandidateInput> inputs;
    inputs.reserve(versions.size());
    for (const cache::Version& v : versions) {
        bool installed = p.current_version == cache_.index_of(v);
        int prio = policy_.version_priority(package_facts(p, v), cache_.str(v.version), files_of(v), installed, phase_of(v));
        priorities_[cache_.index_of(v)] = prio;
        inputs.push_back({prio, installed});
    }
    if (auto chosen = policy::choose_candidate(inputs)) candidates_[package] = cache_.index_of(versions[*chosen]) + 1;
}

int Candidates::priority(uint32_t version) const {
    const uint32_t package = cache_.index_of(cache_.package_of(cache_.versions()[version]));
    if (!known_[package]) work_out(package);
    return priorities_[version];
}

policy::PackageFacts Candidates::package_facts(const cache::Package& p, const cache::Version& v) const {
    std::string_view source = cache_.str(v.source_name);
    return {cache_.name_of(p), cache_.str(p.architecture), cache_.native_architecture(),
            source.empty() ? cache_.name_of(p) : source, cache_.str(v.source_version)};
}

std::vector<const policy::FileFacts*> Candidates::files_of(const cache::Version& v) const {
    std::vector<const policy::FileFacts*> out;
    for (const cache::VersionFile& f : cache_.files_of(v)) out.push_back(&facts_[f.index_file]);
    return out;
}

policy::Phase Candidates::phase_of(const cache::Version& v) const {
    const cache::Package& p = cache_.package_of(v);
    std::string_view source = cache_.str(v.source_name), source_version = cache_.str(v.source_version);
    return {source.empty() ? cache_.name_of(p) : source, source_version.empty() ? cache_.str(v.version) : source_version,
            cache::phased_percentage(v.flags)};
}

const cache::Version* Candidates::candidate(uint32_t package) const {
    if (!known_[package]) work_out(package);
    uint32_t v = candidates_[package];
    return v == 0 ? nullptr : &cache_.versions()[v - 1];
}

const policy::PinRecord* Candidates::pin_of(uint32_t version) const {
    const cache::Version& v = cache_.versions()[version];
    const cache::Package& p = cache_.package_of(v);
    return policy_.specific_pin(package_facts(p, v), cache_.str(v.version), files_of(v));
}

}  // namespace aptus::system
