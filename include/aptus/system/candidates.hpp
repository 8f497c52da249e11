// Every version's priority and every package's candidate, from the cache
// and the policy, each package's worked out once, when first asked for:
// what policy, show, list and the solver ask.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/policy/policy.hpp"

namespace aptus::system {

class Candidates {
public:
    Candidates(const cache::Cache& cache, const policy::Policy& policy);

    // A version's priority, by version index. Priorities and candidates are
    // worked out per package on first use (a read command that asks about
    // one package pays for that one), so a Candidates is not for use by
    // several threads at once.
    int priority(uint32_t version) const;
    // A package file's priority, by index file id.
    int file_priority(uint32_t index_file) const { return file_priorities_[index_file]; }
    // The candidate version of a package (by package index), or nullptr.
    const cache::Version* candidate(uint32_t package) const;
    const cache::Version* candidate(const cache::Package& p) const { return candidate(cache_.index_of(p)); }
    // The specific pin that decided a version's priority, or nullptr.
    const policy::PinRecord* pin_of(uint32_t version) const;

    const std::vector<policy::FileFacts>& file_facts() const { return facts_; }
    const policy::Policy& policy() const { return policy_; }
    // A version's phasing facts: its source, source version and percentage.
    policy::Phase phase_of(const cache::Version& v) const;

private:
    const cache::Cache& cache_;
    const policy::Policy& policy_;
    std::vector<policy::FileFacts> facts_;
    std::vector<int> file_priorities_;
    // Zero-filled by calloc: a large block comes as fresh pages the kernel
    // fills on first touch, so a command about one package touches a few
    // pages of these, not a megabyte.
    template <class T>
    struct ZeroedArray {
        explicit ZeroedArray(size_t n) : p(static_cast<T*>(std::calloc(n ? n : 1, sizeof(T))), &std::free) {
            if (!p) throw std::bad_alloc();
        }
        T& operator[](size_t i) const { return p.get()[i]; }
        std::unique_ptr<T, decltype(&std::free)> p;
    };
    ZeroedArray<int> priorities_;
    ZeroedArray<uint32_t> candidates_;  // by package: version index + 1, 0 for none
    ZeroedArray<uint8_t> known_;        // by package: its priorities and candidate are worked out

    void work_out(uint32_t package) const;

    policy::PackageFacts package_facts(const cache::Package& p, const cache::Version& v) const;
    std::vector<const policy::FileFacts*> files_of(const cache::Version& v) const;
};

}  // namespace aptus::system
