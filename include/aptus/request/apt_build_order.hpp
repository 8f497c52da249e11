// The order apt-cache depends/rdepends print in comes from how apt built its
// cache, not from anything in the data: dependencies in the order apt read
// them, reverse dependencies in the order of the linked list apt grows per
// target package. This file rebuilds both orders from aptus's cache, so the
// CLI can print what apt prints; the rules were found by experiment against
// apt 2.6 and are described where they are applied.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "aptus/cache/cache.hpp"

namespace aptus::request {

// The rank of a dependency type in the order apt's parser reads the fields
// (Pre-Depends, Depends, Conflicts, Breaks, Recommends, Suggests, Replaces,
// Enhances), which is the order `depends` lists them in.
int apt_field_rank(cache::DepType t);

// What apt compares when it shares one data record between dependencies
// on the same target: type, operator (with the "or" flag of an alternative
// that has a next one) and the version string, by its place in apt's
// string pool (0: no version).
struct AptDepKey {
    uint32_t string_rank;
    cache::DepType type;
    cache::DepOp op;
    bool or_next;
    bool operator==(const AptDepKey&) const = default;
};

// The order of apt's reverse-dependency list of one package, given its
// dependencies in the order apt created them: returns indices into `keys`.
std::vector<uint32_t> apt_reverse_list_order(const std::vector<AptDepKey>& keys);

class AptBuildOrder {
public:
    explicit AptBuildOrder(const cache::Cache& cache);

    // Reverse dependencies of the package `p` (indices into
    // cache.rdepends-style RevDep records), in apt's list order. Only
    // dependencies that name `p` itself are in apt's list: those with an
    // ":any" (or other) qualifier name another package to apt.
    std::vector<cache::RevDep> reverse_dependencies(const cache::Package& p) const;

    // When apt created the version (smaller: earlier).
    uint32_t version_rank(const cache::Version& v) const { return version_rank_[c_.index_of(v)]; }

    // When apt created its package record for `name` with this architecture
    // qualifier (0: the plain name; "any" etc. for "perl:any", which apt
    // keeps as a package of its own); UINT32_MAX when it never did. apt
    // lists the packages it calls virtual in this order.
    uint32_t package_rank(uint32_t name, cache::StringId qualifier) const;
    // The same for a package record of aptus's cache.
    uint32_t package_rank(const cache::Package& p) const;

private:
    const cache::Cache& c_;
    std::vector<uint32_t> version_rank_;  // by version index
    std::vector<uint32_t> dep_seq_;       // by dependency index: creation order
    std::vector<uint32_t> string_rank_;   // by StringId: when apt first stored it as a version string; 0 for none
    std::vector<uint32_t> name_rank_;  // by name index: when apt created the plain name's package
    std::unordered_map<uint64_t, uint32_t> qualified_rank_;  // (name, qualifier) -> the same, for "name:any" and such
};

}  // namespace aptus::request
