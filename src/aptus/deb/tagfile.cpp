#include "aptus/deb/tagfile.hpp"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::deb {
namespace {

bool is_blank_or_cr(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A line of only spaces, tabs and CR separates stanzas (Policy 5.1).
bool is_blank_line(const char* p, const char* eol) {
    while (p < eol && is_blank_or_cr(*p)) ++p;
    return p == eol;
}

const char* trim_right(const char* begin, const char* end) {
    while (end > begin && is_blank_or_cr(end[-1])) --end;
    return end;
}

bool bad_name_char(char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7f; }

// The first '\n' or NUL in [p, limit), or null. Lines of an index average
// about 40 bytes: a call to memchr per line cost more than the search it did,
// and a separate pass for NUL was the first to touch each page of the file
// (a tenth of a cache build between them). One inline pass, 16 bytes at a
// time, finds both.
const char* find_newline_or_nul(const char* p, const char* limit) {
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n'), nul = _mm_setzero_si128();
    for (; limit - p >= 16; p += 16) {
        __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(bytes, newline), _mm_cmpeq_epi8(bytes, nul));
        unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
        if (mask != 0) return p + __builtin_ctz(mask);
    }
#endif
    for (; p < limit; ++p)
        if (*p == '\n' || *p == '\0') return p;
    return nullptr;
}

}  // namespace

const Field* Stanza::find(std::string_view name) const {
    // A field given twice: the last one counts, as in apt's tag sections.
    for (auto f = fields.rbegin(); f != fields.rend(); ++f)
        if (iequals(f->name, name)) return &*f;
    return nullptr;
}

std::optional<std::string_view> Stanza::get(std::string_view name) const {
    if (const Field* f = find(name)) return f->value;
    return std::nullopt;
}

std::string_view Stanza::value_or_empty(std::string_view name) const {
    const Field* f = find(name);
    return f ? f->value : std::string_view();
}

TagFileReader::TagFileReader(std::string_view buffer, std::string name, TagFileOptions options)
    : buf_(buffer), name_(std::move(name)), options_(options), line_(options.first_line) {}

void TagFileReader::fail(uint32_t line, std::string_view message) const {
    throw file_error(name_, line, message);
}

// The end of the line starting at `p` (its '\n', or the buffer's end), after
// checking the line's length and that it holds no NUL. Every line passes
// here exactly once, so the whole parse stays linear. With skip_malformed a
// NUL or an overlong line is noted in flags_ (the line's real end is
// returned), for the field's check to deal with.
const char* TagFileReader::line_end(const char* p, uint32_t line) {
    const char* end = buf_.data() + buf_.size();
    size_t left = static_cast<size_t>(end - p);
    size_t window = std::min(left, options_.max_line_length + 1);
    const char* eol = find_newline_or_nul(p, p + window);
    if (eol != nullptr && *eol == '\n') [[likely]]
        return eol;
    if (eol == nullptr && left <= options_.max_line_length) return end;
    if (!options_.skip_malformed) {
        if (eol == nullptr) fail(line, "line longer than " + std::to_string(options_.max_line_length) + " bytes");
        fail(line, "NUL byte in line");
    }
    // Tolerant: NUL bytes are data to the line's end, which is searched
    // for without a limit (still once per byte).
    const char* q = eol;
    if (q != nullptr) {
        if (!(flags_ & kNul)) {
            nul_ = q;
            nul_line_ = line;
        }
        flags_ |= kNul;
        q = static_cast<const char*>(std::memchr(q, '\n', static_cast<size_t>(end - q)));
    } else {
        q = static_cast<const char*>(std::memchr(p + window, '\n', static_cast<size_t>(end - (p + window))));
        // The NULs of the window, if any, were searched together with '\n'.
    }
    eol = q != nullptr ? q : end;
    if (static_cast<size_t>(eol - p) > options_.max_line_length) {
        flags_ |= kTooLong;
        long_line_ = line;
    }
    return eol;
}

void TagFileReader::record(uint32_t line, std::string what, bool skipped) {
    if (problems_.size() < kMaxKeptProblems) problems_.push_back({line, std::move(what), skipped});
    ++problem_count_;
}

// `p` starts line `line`: the bad line, or (an overlong line found by the
// field's check) the line after the field.
TagFileReader::Step TagFileReader::malformed(const char* p, uint32_t line, std::string_view message) {
    if ((flags_ & kNul) && nul_line_ == line) message = "NUL byte in line";
    if (!options_.skip_malformed) fail(line, message);
    uint32_t reported = (flags_ & kTooLong) ? long_line_ : line;
    std::string what(message);
    what += "; the stanza was skipped";
    record(reported, std::move(what), true);
    // To the blank line that ends the stanza (Policy 5.1), or the end.
    const char* const end = buf_.data() + buf_.size();
    while (p < end) {
        const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        if (eol == nullptr) eol = end;
        bool blank = is_blank_line(p, eol);
        p = eol < end ? eol + 1 : end;
        ++line;
        if (blank) break;
    }
    pos_ = static_cast<size_t>(p - buf_.data());
    line_ = line;
    flags_ = 0;
    cut_line_ = 0;
    return Step::Skipped;
}

bool TagFileReader::next(Stanza& out) {
    for (;;) {
        Step step = parse(out);
        if (step == Step::Stanza) [[likely]]
            return true;
        if (step == Step::End) return false;
    }
}

TagFileReader::Step TagFileReader::parse(Stanza& out) {
    out.fields.clear();
    out.line = 0;
    out.raw = {};
    const char* const end = buf_.data() + buf_.size();
    const char* p = buf_.data() + pos_;
    uint32_t line = line_;
    auto after = [end](const char* eol) { return eol < end ? eol + 1 : end; };

    // Blank lines and comments before the stanza.
    const char* eol = nullptr;
    for (;;) {
        if (p == end) {
            pos_ = buf_.size();
            line_ = line;
            return Step::End;
        }
        flags_ = 0;
        eol = line_end(p, line);
        if (is_blank_line(p, eol)) {
        } else if (*p == '#' && options_.allow_comments) {
        } else if (*p == ' ' || *p == '\t') {
            return malformed(p, line, "continuation line before the first field of a stanza");
        } else {
            break;
        }
        p = after(eol);
        ++line;
    }

    const char* const stanza_begin = p;
    out.line = line;
    // Invariant at the top of the loop: p starts a field line ending at eol.
    for (;;) {
        if (*p == '#') return malformed(p, line, "'#' comment lines are not allowed in this file");
        const char* q = p;
        while (q < eol && *q != ':' && !bad_name_char(*q)) ++q;
        if (q == eol || *q != ':') {
            if (std::memchr(q, ':', static_cast<size_t>(eol - q)) == nullptr)
                return malformed(p, line, "line has no ':' (expected \"Field: value\")");
            return malformed(p, line, "field name contains a space or control character");
        }
        if (q == p) return malformed(p, line, "empty field name");
        if (*p == '-') return malformed(p, line, "field name may not start with '-'");

        Field& field = out.fields.emplace_back();
        field.name = std::string_view(p, static_cast<size_t>(q - p));
        field.line = line;
        const char* v = q + 1;
        while (v < eol && (*v == ' ' || *v == '\t')) ++v;
        const char* value_end = trim_right(v, eol);
        p = after(eol);
        ++line;

        // Continuation and comment lines: decided by the next line's first byte.
        for (;;) {
            if (p == end) break;
            char c = *p;
            if (c == ' ' || c == '\t') {
                eol = line_end(p, line);
                if (is_blank_line(p, eol)) break;
                value_end = trim_right(p, eol);
            } else if (c == '#' && options_.allow_comments) {
                eol = line_end(p, line);
            } else {
                break;
            }
            p = after(eol);
            ++line;
        }
        if (flags_ != 0) [[unlikely]] {
            // skip_malformed only: an overlong line skips the stanza, a NUL
            // ends the value (as in apt, whose values are C strings).
            if (flags_ & kTooLong) return malformed(p, line, "line longer than " + std::to_string(options_.max_line_length) + " bytes");
            if (nul_ < value_end) value_end = trim_right(v, std::max(v, nul_));
            if (cut_line_ == 0) {
                cut_line_ = nul_line_;
                cut_field_ = field.name;
            }
            flags_ = 0;
        }
        field.value = std::string_view(v, static_cast<size_t>(value_end - v));

        if (p == end) break;
        eol = line_end(p, line);
        if (is_blank_line(p, eol)) break;
    }
    if (cut_line_ != 0) [[unlikely]] {
        record(cut_line_, "NUL byte in field '" + std::string(cut_field_) + "'; its value ends there", false);
        cut_line_ = 0;
    }
    out.raw = std::string_view(stanza_begin, static_cast<size_t>(p - stanza_begin));
    pos_ = static_cast<size_t>(p - buf_.data());
    line_ = line;
    return Step::Stanza;
}

std::string field_text(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    size_t pos = 0;
    bool first = true;
    while (pos <= raw.size()) {
        size_t nl = raw.find('\n', pos);
        std::string_view line = raw.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (first) {
            out.append(line);
            first = false;
        } else if (!line.empty() && line.front() == '#') {
            // comment line kept in the raw view by a comment-aware reader
        } else {
            if (!line.empty()) line.remove_prefix(1);  // the continuation marker
            out += '\n';
            if (line != ".") out.append(line);
        }
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    return out;
}

}  // namespace aptus::deb
