// Interning during the build: each distinct string gets one 32-bit id, in the
// order first seen (so the same inputs give the same ids). The bytes are
// copied into one growing buffer, which is the pool written to the file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/format.hpp"
#include "hash.hpp"
#include "huge_allocator.hpp"

namespace aptus::cache::detail {

class StringPool {
public:
    StringPool() {
        offsets_.push_back(0);
        table_.assign(1u << 16, 0);
        intern("");
    }

    // Room for the expected strings, so growth never copies; untouched
    // reserved memory costs nothing.
    // `interned` of the `strings` go through the hash table; the table is
    // sized for at most 60 % full, small enough to stay cache and TLB friendly.
    void reserve(size_t interned, size_t strings, size_t bytes) {
        offsets_.reserve(strings + 1);
        bytes_.reserve(bytes);
        size_t slots = table_.size();
        while (slots * 3 < interned * 5) slots *= 2;
        if (slots > table_.size()) rehash(slots);
    }

    // Frees the hash table once interning is over (before the layout pass,
    // to lower the peak): intern() and find() must not be called after.
    void drop_table() {
        table_ = {};
        release_unused(offsets_);
        release_unused(bytes_);
    }

    StringId intern(std::string_view s) { return intern(s, hash_string(s)); }

    // intern() with the hash of `s` already computed (h == hash_string(s)).
    StringId intern(std::string_view s, uint64_t h) {
        if (s.empty() && count_ > 0) return 0;
        auto tag = uint32_t(h >> 32);
        size_t mask = table_.size() - 1;
        size_t i = h & mask;
        for (;; i = (i + 1) & mask) {
            uint64_t slot = table_[i];
            if (slot == 0) break;
            // The slot holds the hash's high half and the id + 1: most
            // mismatches are decided without touching the string bytes.
            if (uint32_t(slot >> 32) == tag && same(uint32_t(slot) - 1, s)) return uint32_t(slot) - 1;
        }
        auto id = uint32_t(count_++);
        bytes_.insert(bytes_.end(), s.begin(), s.end());
        offsets_.push_back(uint32_t(bytes_.size()));
        table_[i] = uint64_t(tag) << 32 | (id + 1);
        if (count_ * 5 > table_.size() * 3) rehash(table_.size() * 2);
        return id;
    }

    // Starts loading the table slot intern(s, h) will look at first: a
    // lookup in a table larger than the caches is a memory round trip, and
    // several in flight overlap.
    void prefetch(uint64_t h) const { __builtin_prefetch(&table_[h & (table_.size() - 1)]); }

    // The id of `s`, or kNone when it was never interned.
    StringId find(std::string_view s) const {
        uint64_t h = hash_string(s);
        auto tag = uint32_t(h >> 32);
        size_t mask = table_.size() - 1;
        for (size_t i = h & mask;; i = (i + 1) & mask) {
            uint64_t slot = table_[i];
            if (slot == 0) return kNone;
            if (uint32_t(slot >> 32) == tag && same(uint32_t(slot) - 1, s)) return uint32_t(slot) - 1;
        }
    }

    // Valid until the next intern().
    std::string_view view(StringId id) const { return {bytes_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]}; }
    size_t size() const { return count_; }
    const HugeVector<uint32_t>& offsets() const { return offsets_; }
    const HugeVector<char>& bytes() const { return bytes_; }

private:
    bool same(StringId id, std::string_view s) const {
        uint32_t begin = offsets_[id];
        return offsets_[id + 1] - begin == s.size() && equal_bytes(bytes_.data() + begin, s.data(), s.size());
    }

    void rehash(size_t slots) {
        HugeVector<uint64_t> old(slots, 0);
        old.swap(table_);
        size_t mask = slots - 1;
        for (uint64_t slot : old) {
            if (slot == 0) continue;
            uint64_t h = hash_string(view(uint32_t(slot) - 1));
            size_t i = h & mask;
            while (table_[i] != 0) i = (i + 1) & mask;
            table_[i] = slot;
        }
    }

    size_t count_ = 0;
    HugeVector<uint32_t> offsets_;
    HugeVector<char> bytes_;
    HugeVector<uint64_t> table_;  // hash high half << 32 | id + 1; 0 = empty
};

}  // namespace aptus::cache::detail
