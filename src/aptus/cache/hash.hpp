// The hash functions the cache file depends on: one for strings (interning and
// the name table stored in the file) and one checksum over the whole file. Both
// are part of the format: changing them means bumping kFormatVersion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "aptus/base/strings.hpp"

namespace aptus::cache::detail {

inline uint64_t load64(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

// The last n < 8 bytes as memcpy(&t, p, n) gives them on a little-endian
// machine, from fixed-size loads: a memcpy of variable size is a library
// call, and most strings hashed are a few bytes long.
inline uint64_t load_tail(const char* p, size_t n) {
    uint64_t t = 0;
    size_t at = 0;
    if (n & 4) {
        uint32_t v;
        std::memcpy(&v, p, 4);
        t = v;
        at = 4;
    }
    if (n & 2) {
        uint16_t v;
        std::memcpy(&v, p + at, 2);
        t |= uint64_t(v) << (8 * at);
        at += 2;
    }
    if (n & 1) t |= uint64_t(static_cast<unsigned char>(p[at])) << (8 * at);
    return t;
}

// a[0, n) == b[0, n) without a library call for the short strings that most
// interned strings are (loads stay inside both ranges).
inline bool equal_bytes(const char* a, const char* b, size_t n) {
    if (n >= 8) {
        if (n > 16) return std::memcmp(a, b, n) == 0;
        return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
    }
    return load_tail(a, n) == load_tail(b, n);
}

// 64x64 -> 128 multiply folded to 64 bits: one instruction pair on x86-64,
// and every input bit reaches most output bits.
inline uint64_t mix(uint64_t a, uint64_t b) {
    __uint128_t r = static_cast<__uint128_t>(a) * b;
    return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

inline constexpr uint64_t kK0 = 0x9e3779b97f4a7c15ull;
inline constexpr uint64_t kK1 = 0xbf58476d1ce4e5b9ull;
inline constexpr uint64_t kK2 = 0x94d049bb133111ebull;
inline constexpr uint64_t kK3 = 0xd6e8feb86659fd93ull;

inline uint64_t hash_string(std::string_view s) {
    const char* p = s.data();
    size_t n = s.size();
    uint64_t h = kK0 ^ (uint64_t(n) * kK1);
    while (n >= 8) {
        h = mix(h ^ load64(p), kK1);
        p += 8;
        n -= 8;
    }
    if (n > 0) h = mix(h ^ load_tail(p, n), kK2);
    return mix(h, kK3);
}

// The hash of a package name in the name table: of its ASCII lower case,
// because apt's names are case-insensitive ("WorldOfGoo" in an index is the
// installed "worldofgoo").
inline uint64_t hash_name(std::string_view s) {
    char low[256];
    if (s.size() > sizeof low) return hash_string(to_lower(s));
    bool upper = false;
    for (size_t i = 0; i < s.size(); ++i) {
        low[i] = ascii_lower(s[i]);
        upper |= low[i] != s[i];
    }
    return upper ? hash_string({low, s.size()}) : hash_string(s);
}

// Four independent lanes so the multiplies overlap: several GB/s, enough
// that checking a 40 MB cache on every open costs a few milliseconds.
inline uint64_t checksum(const char* p, size_t n, uint64_t seed = 0) {
    uint64_t a = seed ^ kK0, b = seed ^ kK1, c = seed ^ kK2, d = seed ^ kK3;
    const uint64_t total = n;
    while (n >= 32) {
        a = mix(a ^ load64(p), kK1) + 1;
        b = mix(b ^ load64(p + 8), kK2) + 2;
        c = mix(c ^ load64(p + 16), kK3) + 3;
        d = mix(d ^ load64(p + 24), kK0) + 4;
        p += 32;
        n -= 32;
    }
    uint64_t h = mix(a ^ (b << 1), kK0) ^ mix(c ^ (d << 1), kK1) ^ total;
    while (n >= 8) {
        h = mix(h ^ load64(p), kK2);
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        uint64_t t = 0;
        std::memcpy(&t, p, n);
        h = mix(h ^ t, kK3);
    }
    return mix(h, kK0);
}

// checksum() fed in pieces: the same result as one call over the
// concatenation, so the image can be summed section by section as written.
class StreamChecksum {
public:
    explicit StreamChecksum(uint64_t seed = 0) : a_(seed ^ kK0), b_(seed ^ kK1), c_(seed ^ kK2), d_(seed ^ kK3) {}

    void update(const char* p, size_t n) {
        total_ += n;
        if (fill_ > 0) {
            size_t take = std::min(n, size_t(32) - fill_);
            std::memcpy(buf_ + fill_, p, take);
            fill_ += take;
            p += take;
            n -= take;
            if (fill_ < 32) return;
            block(buf_);
            fill_ = 0;
        }
        while (n >= 32) {
            block(p);
            p += 32;
            n -= 32;
        }
        std::memcpy(buf_, p, n);
        fill_ = n;
    }
    void zeros(size_t n) {
        static const char kZero[32] = {};
        while (n > 0) {
            size_t k = std::min(n, sizeof kZero);
            update(kZero, k);
            n -= k;
        }
    }
    uint64_t finish() const {
        uint64_t h = mix(a_ ^ (b_ << 1), kK0) ^ mix(c_ ^ (d_ << 1), kK1) ^ total_;
        const char* p = buf_;
        size_t n = fill_;
        while (n >= 8) {
            h = mix(h ^ load64(p), kK2);
            p += 8;
            n -= 8;
        }
        if (n > 0) {
            uint64_t t = 0;
            std::memcpy(&t, p, n);
            h = mix(h ^ t, kK3);
        }
        return mix(h, kK0);
    }

private:
    void block(const char* p) {
        a_ = mix(a_ ^ load64(p), kK1) + 1;
        b_ = mix(b_ ^ load64(p + 8), kK2) + 2;
        c_ = mix(c_ ^ load64(p + 16), kK3) + 3;
        d_ = mix(d_ ^ load64(p + 24), kK0) + 4;
    }
    uint64_t a_, b_, c_, d_;
    uint64_t total_ = 0;
    char buf_[32];
    size_t fill_ = 0;
};

}  // namespace aptus::cache::detail
