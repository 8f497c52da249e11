#include "aptus/deb/version.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::deb {
namespace {

// Weight of a character outside a digit run; the end of a run of non-digits
// weighs 0. '~' sorts before the end, so "1.0~rc1" < "1.0"; letters sort
// before every other character. Bytes >= 0x80 weigh what dpkg gives them on
// amd64, where plain char is signed: (c - 256) + 256, below the punctuation.
inline int weight(unsigned char c) {
    if (is_alpha(char(c))) return c;
    if (c == '~') return -1;
    return c >= 0x80 ? c : c + 256;
}

inline bool digit_at(const char* p, const char* end) { return p != end && is_digit(*p); }

// Compares one part (upstream or revision, or an epoch given as text) by
// alternating runs: non-digits by weight, then digits by numeric value.
// Digit runs are never converted to numbers, so 100-digit runs cannot overflow:
// after dropping leading zeros the longer run is larger, and runs of equal
// length are ordered by their first differing digit.
int compare_part(const char* a, const char* a_end, const char* b, const char* b_end) {
    while (a != a_end || b != b_end) {
        for (;;) {
            int wa = (a != a_end && !is_digit(*a)) ? weight(*a) : 0;
            int wb = (b != b_end && !is_digit(*b)) ? weight(*b) : 0;
            if (wa != wb) return wa < wb ? -1 : 1;
            if (wa == 0) break;  // both at a digit or an end
            ++a;
            ++b;
        }
        while (a != a_end && *a == '0') ++a;
        while (b != b_end && *b == '0') ++b;
        int first_difference = 0;
        while (digit_at(a, a_end) && digit_at(b, b_end)) {
            if (first_difference == 0) first_difference = *a - *b;
            ++a;
            ++b;
        }
        if (digit_at(a, a_end)) return 1;
        if (digit_at(b, b_end)) return -1;
        if (first_difference != 0) return first_difference < 0 ? -1 : 1;
    }
    return 0;
}

struct Split {
    const char* epoch;
    const char* epoch_end;
    const char* upstream;
    const char* upstream_end;
    const char* revision;
    const char* revision_end;
};

// The first ':' ends the epoch and the last '-' starts the revision, as in dpkg.
inline Split split(std::string_view v) {
    const char* begin = v.data();
    const char* end = begin + v.size();
    Split s{begin, begin, begin, end, end, end};
    if (v.empty()) return s;
    if (const void* colon = std::memchr(begin, ':', v.size())) {
        s.epoch_end = static_cast<const char*>(colon);
        s.upstream = s.epoch_end + 1;
    }
    if (const void* hyphen = memrchr(s.upstream, '-', size_t(end - s.upstream))) {
        s.upstream_end = static_cast<const char*>(hyphen);
        s.revision = s.upstream_end + 1;
    }
    return s;
}

int compare_part(std::string_view a, std::string_view b) {
    return compare_part(a.data(), a.data() + a.size(), b.data(), b.data() + b.size());
}

const char hex_digits[] = "0123456789abcdef";

// A character as a message shows it: control and non-ASCII bytes by value.
std::string show_char(char c) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return {'\'', c, '\''};
    return {'b', 'y', 't', 'e', ' ', '0', 'x', hex_digits[u >> 4], hex_digits[u & 15]};
}

bool allowed(char c, const char* punctuation) { return is_alnum(c) || (c != '\0' && std::strchr(punctuation, c)); }

// The version in quotes, control bytes escaped so that a NUL cannot cut the
// message short nor an escape sequence reach a terminal.
std::string quoted(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '\'';
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            out += "\\x";
            out += hex_digits[u >> 4];
            out += hex_digits[u & 15];
        } else {
            out += c;
        }
    }
    out += '\'';
    return out;
}

// One problem found in a version; `hard` when dpkg refuses the version, not
// just warns about it.
struct Problem {
    std::string what;  // empty when there is none
    bool hard = false;
};

Problem hard(std::string what) { return {std::move(what), true}; }

// dpkg's checks in dpkg's order, worded for people. A Problem that is not
// hard still fills `out`.
Problem check(std::string_view text, Version& out) {
    std::string_view v = trim(text);
    if (v.empty()) return hard("it is empty");
    for (char c : v)
        if (is_space(c)) return hard("it contains whitespace");

    std::string_view rest = v;
    if (size_t colon = v.find(':'); colon != std::string_view::npos) {
        std::string_view epoch = v.substr(0, colon);
        if (epoch.empty()) return hard("the epoch before ':' is empty");
        for (char c : epoch)
            if (!is_digit(c)) return hard("the epoch " + quoted(epoch) + " is not a number");
        // Leading zeros first, so "0000000001:" is fine and the length bounds the value.
        std::string_view digits = epoch.substr(std::min(epoch.find_first_not_of('0'), epoch.size()));
        unsigned long long value = 0;
        if (digits.size() <= 10)
            for (char c : digits) value = value * 10 + unsigned(c - '0');
        if (digits.size() > 10 || value > INT_MAX)
            return hard("the epoch " + quoted(epoch) + " is too big (the largest is " + std::to_string(INT_MAX) + ")");
        out.epoch = uint32_t(value);
        rest = v.substr(colon + 1);
        if (rest.empty()) return hard("nothing follows the epoch's ':'");
    } else {
        out.epoch = 0;
    }

    out.upstream = rest;
    out.revision = {};
    if (size_t hyphen = rest.rfind('-'); hyphen != std::string_view::npos) {
        out.upstream = rest.substr(0, hyphen);
        out.revision = rest.substr(hyphen + 1);
        if (out.revision.empty()) return hard("the revision after the last '-' is empty");
    }
    if (out.upstream.empty()) return hard("the upstream version is empty");

    // What dpkg only warns about. Policy allows ':' and '-' in the upstream
    // version, which the split above already made sure of: a ':' there implies
    // an epoch and a '-' a revision.
    if (!is_digit(out.upstream.front()))
        return {"the upstream version " + quoted(out.upstream) + " does not start with a digit"};
    for (char c : out.upstream)
        if (!allowed(c, ".+~-:"))
            return {show_char(c) + " is not allowed in the upstream version"};
    for (char c : out.revision)
        if (!allowed(c, ".+~"))
            return {show_char(c) + " is not allowed in the revision"};
    return {};
}

std::string invalid(std::string_view text, const std::string& what) {
    return "invalid version " + quoted(text) + ": " + what;
}

}  // namespace

Version parse_version(std::string_view text, VersionCheck mode) {
    Version out;
    Problem p = check(text, out);
    if (!p.what.empty() && (p.hard || mode == VersionCheck::Strict)) throw Error(invalid(text, p.what));
    return out;
}

std::string version_warning(std::string_view text) {
    Version out;
    Problem p = check(text, out);
    if (p.what.empty() || p.hard) return {};
    return "version " + quoted(text) + " breaks Debian Policy: " + p.what;
}

int compare_versions(std::string_view a, std::string_view b) noexcept {
    // Sorting and dependency checks often meet identical strings.
    if (a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0) return 0;
    Split x = split(a);
    Split y = split(b);
    if (int r = compare_part(x.epoch, x.epoch_end, y.epoch, y.epoch_end)) return r;
    if (int r = compare_part(x.upstream, x.upstream_end, y.upstream, y.upstream_end)) return r;
    return compare_part(x.revision, x.revision_end, y.revision, y.revision_end);
}

int compare_versions(const Version& a, const Version& b) noexcept {
    if (a.epoch != b.epoch) return a.epoch < b.epoch ? -1 : 1;
    if (int r = compare_part(a.upstream, b.upstream)) return r;
    return compare_part(a.revision, b.revision);
}

}  // namespace aptus::deb
