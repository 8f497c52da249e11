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

// One side of a comparison, walking one part of a version. The end of the
// upstream part (the last '-') is looked up only when the walk meets a '-':
// most comparisons are decided before that, so they scan nothing twice.
struct Side {
    const char* p;
    const char* end;       // end of the part, or of the text while not yet known
    const char* text_end;  // end of the whole version
    bool end_known;

    bool at_end() const { return p == end; }
    bool at_digit() const { return p != end && is_digit(*p); }

    // The weight of the character at p inside a run of non-digits; 0 at a
    // digit or at the end of the part.
    int weight_here() {
        if (p == end || is_digit(*p)) return 0;
        if (*p == '-' && !end_known) {
            end = static_cast<const char*>(memrchr(p, '-', size_t(text_end - p)));
            end_known = true;
            if (p == end) return 0;
        }
        return weight(static_cast<unsigned char>(*p));
    }
};

Side whole_part(std::string_view part) {
    return {part.data(), part.data() + part.size(), part.data() + part.size(), true};
}

// Compares one part (upstream or revision, or an epoch given as text) by
// alternating runs: non-digits by weight, then digits by numeric value.
// Digit runs are never converted to numbers, so 100-digit runs cannot overflow:
// after dropping leading zeros the longer run is larger, and runs of equal
// length are ordered by their first differing digit.
[[gnu::always_inline]] inline int walk(Side& a, Side& b) {
    while (!a.at_end() || !b.at_end()) {
        for (;;) {
            int wa = a.weight_here();
            int wb = b.weight_here();
            if (wa != wb) return wa < wb ? -1 : 1;
            if (wa == 0) break;  // both at a digit or an end
            ++a.p;
            ++b.p;
        }
        while (!a.at_end() && *a.p == '0') ++a.p;
        while (!b.at_end() && *b.p == '0') ++b.p;
        int first_difference = 0;
        while (a.at_digit() && b.at_digit()) {
            if (first_difference == 0) first_difference = *a.p - *b.p;
            ++a.p;
            ++b.p;
        }
        if (a.at_digit()) return 1;
        if (b.at_digit()) return -1;
        if (first_difference != 0) return first_difference < 0 ? -1 : 1;
    }
    return 0;
}

// Walks copies so that the pointers live in registers, not behind references.
int compare_part(Side& a, Side& b) {
    Side x = a;
    Side y = b;
    int r = walk(x, y);
    a = x;
    b = y;
    return r;
}

int compare_part(std::string_view a, std::string_view b) {
    Side x = whole_part(a);
    Side y = whole_part(b);
    return compare_part(x, y);
}

// The epoch: the leading digits when a ':' follows them, "" for a leading
// ':', and a null view when there is none. Only digits are looked at, so the
// text is not scanned for a ':' that could only come after an epoch dpkg
// refuses (first ':' after a non-digit, as in "1.0-1:2" or "+1:2").
inline std::string_view epoch_of(std::string_view v) {
    size_t n = 0;
    while (n < v.size() && is_digit(v[n])) ++n;
    return n < v.size() && v[n] == ':' ? v.substr(0, n) : std::string_view();
}

// After the upstream walk: the revision is what follows the last '-', if any.
inline Side revision_after(const Side& upstream) {
    const char* start = upstream.end == upstream.text_end ? upstream.text_end : upstream.end + 1;
    return {start, upstream.text_end, upstream.text_end, true};
}

// A character as a message shows it: control and non-ASCII bytes by value.
std::string show_char(char c) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return {'\'', c, '\''};
    std::string out = "byte 0x";
    append_hex(out, u);
    return out;
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
            append_hex(out, u);
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
    if (a == b) return 0;
    std::string_view epoch_a = epoch_of(a);
    std::string_view epoch_b = epoch_of(b);
    if (!epoch_a.empty() || !epoch_b.empty()) {
        if (int r = compare_part(epoch_a, epoch_b)) return r;
    }
    // Past the ':' when there is an epoch (data() + size() + 1 lands on it).
    const char* start_a = a.data() + (epoch_a.data() ? epoch_a.size() + 1 : 0);
    const char* start_b = b.data() + (epoch_b.data() ? epoch_b.size() + 1 : 0);
    const char* end_a = a.data() + a.size();
    const char* end_b = b.data() + b.size();
    // Skip the common prefix, which ordering a package's versions meets all
    // the time. Stop before any '-' (it may end the upstream part of one side
    // only) and back up to the start of a digit run, which must be compared
    // whole.
    size_t common = 0;
    size_t shorter = size_t(std::min(end_a - start_a, end_b - start_b));
    while (common < shorter && start_a[common] == start_b[common] && start_a[common] != '-') ++common;
    while (common > 0 && is_digit(start_a[common - 1])) --common;
    Side x{start_a + common, end_a, end_a, false};
    Side y{start_b + common, end_b, end_b, false};
    if (int r = compare_part(x, y)) return r;
    Side rx = revision_after(x);
    Side ry = revision_after(y);
    return compare_part(rx, ry);
}

int compare_versions(const Version& a, const Version& b) noexcept {
    if (a.epoch != b.epoch) return a.epoch < b.epoch ? -1 : 1;
    if (int r = compare_part(a.upstream, b.upstream)) return r;
    return compare_part(a.revision, b.revision);
}

}  // namespace aptus::deb
