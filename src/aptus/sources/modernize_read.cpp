// Reading a .list file for modernize: entries, disabled entries and comments,
// in order, so nothing the user wrote is lost in the conversion.
#include <algorithm>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/sources/modernize.hpp"
#include "aptus/sources/one_line.hpp"
#include "aptus/sources/entry_rules.hpp"
#include "modernize_detail.hpp"

namespace aptus::sources::detail {
namespace {

// Where a line's "# ..." tail starts, by the rule parse_one_line strips it:
// '#' outside the option brackets.
size_t comment_start(std::string_view line) {
    int depth = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == '[') ++depth;
        else if (c == ']' && depth > 0) --depth;
        else if (c == '#' && depth == 0) return i;
    }
    return std::string_view::npos;
}

// One value of a deb822 list field: deb822 splits values at blanks and at
// commas, so a one-line suite "a,b" would come back as two; and a NUL (from
// "%00" in the one-line word) is no text at all.
bool is_word(std::string_view w) {
    if (w.empty()) return false;
    for (char c : w)
        if (is_space(c) || c == ',' || c == '\0') return false;
    return true;
}

bool is_field_name(std::string_view name) {
    if (name.empty() || name[0] == '#' || name[0] == '-') return false;
    for (char c : name)
        if (c <= ' ' || c == ':' || c == 127) return false;
    return true;
}

// deb822 separates values by blanks and has no quoting, so a quoted word that
// holds a blank (a "cdrom:[Debian GNU/Linux ...]/" URI) cannot be written.
std::string deb822_problem(const SourceEntry& e) {
    if (!is_word(e.uri)) return "the URI '" + e.uri + "' holds a blank, a comma or a NUL";
    // "cdrom:[Debian GNU/Linux 12]/" split at its blanks: not one URI.
    if (std::count(e.uri.begin(), e.uri.end(), '[') != std::count(e.uri.begin(), e.uri.end(), ']'))
        return "the URI '" + e.uri + "' has unbalanced brackets";
    if (!is_word(e.suite)) return "the suite '" + e.suite + "' holds a blank, a comma or a NUL";
    for (const auto& c : e.components)
        if (!is_word(c)) return "the component '" + c + "' holds a blank, a comma or a NUL";
    for (const auto& o : e.options) {
        if (!is_field_name(deb822_field_name(o.key, o.op))) return "the option name '" + o.key + "' is not a field name";
        // deb822 field names ignore case: "signed-by=" and "Signed-By=" would
        // both become one Signed-By field, written twice.
        for (const auto& other : e.options)
            if (other.key != o.key && iequals(other.key, o.key))
                return "the options '" + o.key + "' and '" + other.key + "' differ only in case";
        for (const auto& v : o.values)
            if (!is_word(v)) return "the value '" + v + "' of option '" + o.key + "' holds a blank, a comma or a NUL";
    }
    return "";
}

std::optional<std::string> tail_comment(std::string_view line) {
    size_t hash = comment_start(line);
    if (hash == std::string_view::npos) return std::nullopt;
    std::string_view text = trim(line.substr(hash));
    return std::string(text);
}

// "# deb http://... stable main" (any number of '#' and blanks before the
// type) as a disabled entry; nullopt when it is prose, not an entry.
std::optional<ListLine> disabled_entry(std::string_view comment, const std::string& file, unsigned line_no) {
    size_t i = 0;
    while (i < comment.size() && (comment[i] == '#' || is_blank(comment[i]))) ++i;
    std::string_view body = comment.substr(i);
    bool typed = false;
    for (std::string_view t : {"deb", "deb-src"})
        typed = typed || (starts_with(body, t) && body.size() > t.size() &&
                          (is_blank(body[t.size()]) || body[t.size()] == '['));
    if (!typed) return std::nullopt;
    std::optional<SourceEntry> entry;
    try {
        entry = parse_one_line(body, file, line_no);
    } catch (const Error&) {
        return std::nullopt;
    }
    if (!entry || !deb822_problem(*entry).empty()) return std::nullopt;
    entry->enabled = false;
    ListLine out{std::move(*entry), {}};
    if (auto tail = tail_comment(body)) out.comments.push_back(*tail);
    return out;
}

}  // namespace

ListFile read_list_file(std::string_view text, const std::string& file) {
    reject_nul_bytes(text, file);
    ListFile out;
    std::vector<std::string> pending;
    unsigned line_no = 0;
    while (!text.empty()) {
        ++line_no;
        size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::string_view t = trim(line);
        if (t.empty()) continue;
        if (t[0] == '#') {
            if (auto disabled = disabled_entry(t, file, line_no)) {
                pending.insert(pending.end(), disabled->comments.begin(), disabled->comments.end());
                disabled->comments = std::move(pending);
                pending.clear();
                out.lines.push_back(std::move(*disabled));
            } else {
                pending.emplace_back(t);
            }
            continue;
        }
        std::optional<SourceEntry> entry = parse_one_line(line, file, line_no);
        if (!entry) continue;
        if (std::string why = deb822_problem(*entry); !why.empty())
            throw file_error(file, line_no, "This entry cannot be written as a deb822 stanza: " + why);
        if (auto tail = tail_comment(line)) pending.push_back(*tail);
        out.lines.push_back({std::move(*entry), std::move(pending)});
        pending.clear();
    }
    out.trailing_comments = std::move(pending);
    return out;
}

}  // namespace aptus::sources::detail
