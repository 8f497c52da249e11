// apt walks "all packages" (the pinned list of `policy`) in the order of its
// cache's hash table: by bucket, and within a bucket by name length, then
// bytes. Reproducing that order lets `policy` match apt line for line. The
// bucket is apt 2.6's: a 32-bit DJB hash (h * 33 + c) of the lower-cased
// name, modulo its default table size of 196613 — checked against the
// pinned list apt-cache policy prints for several thousand pinned packages.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"

namespace aptus::request {

struct AptHashKey {
    uint32_t bucket;
    std::string_view name;
    bool operator<(const AptHashKey& o) const {
        if (bucket != o.bucket) return bucket < o.bucket;
        if (name.size() != o.name.size()) return name.size() < o.name.size();
        return name < o.name;
    }
};

inline AptHashKey apt_hash_key(std::string_view name) {
    uint32_t h = 5381;
    for (char c : name) h = h * 33 + uint32_t(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return {h % 196613U, name};
}

// Packages sorted as apt walks its hash table (stable: architectures of a
// name keep the cache's order).
inline void sort_in_apt_order(const cache::Cache& c, std::vector<const cache::Package*>& pkgs) {
    std::stable_sort(pkgs.begin(), pkgs.end(), [&](const cache::Package* a, const cache::Package* b) {
        return apt_hash_key(c.name_of(*a)) < apt_hash_key(c.name_of(*b));
    });
}

// Every package of the cache in that order.
inline std::vector<const cache::Package*> packages_in_apt_order(const cache::Cache& c) {
    std::vector<const cache::Package*> pkgs;
    for (const auto& p : c.packages()) pkgs.push_back(&p);
    sort_in_apt_order(c, pkgs);
    return pkgs;
}

}  // namespace aptus::request
