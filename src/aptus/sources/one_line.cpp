#include "aptus/sources/one_line.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/sources/entry_rules.hpp"

namespace aptus::sources {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = ascii_lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// apt reads the words of a one-line entry with %XX escapes decoded ("deb%20x"
// is "deb x"); a '%' not followed by two hex digits stays as it is.
std::string percent_decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 &&
            hex_value(s[i + 2]) >= 0) {
            out += char(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

class LineParser {
public:
    LineParser(std::string_view text, const std::string& file, unsigned line_no)
        : s_(text), file_(file), line_(line_no) {}

    SourceEntry parse();

private:
    [[noreturn]] void malformed(std::string_view why) const {
        // apt's words, which name the file and the line too.
        throw Error("Malformed entry " + std::to_string(line_) + " in list file " + file_ + " (" + std::string(why) + ")");
    }
    void skip_blanks() {
        while (pos_ < s_.size() && is_blank(s_[pos_])) ++pos_;
    }
    bool at_end() const { return pos_ >= s_.size(); }
    // A blank-separated word; "double quotes" group blanks into it and are dropped.
    std::string word();
    void options(SourceEntry& entry);
    void option(std::string_view text, SourceEntry& entry);

    std::string_view s_;
    const std::string& file_;
    unsigned line_;
    size_t pos_ = 0;
};

std::string LineParser::word() {
    std::string out;
    bool quoted = false;
    bool bracket = false;  // "cdrom:[Debian 12]/": blanks inside [...] stay in the word
    while (pos_ < s_.size()) {
        char c = s_[pos_];
        if (c == '"' && !bracket) {
            quoted = !quoted;
        } else if (is_blank(c) && !quoted && !bracket) {
            break;
        } else {
            if (c == '[' && !quoted) bracket = true;
            else if (c == ']' && !quoted) bracket = false;
            out += c;
        }
        ++pos_;
    }
    if (quoted) malformed("unterminated quote");
    if (bracket) malformed("unterminated '['");
    return percent_decode(out);
}

void LineParser::option(std::string_view text, SourceEntry& entry) {
    size_t eq = text.find('=');
    if (eq == std::string_view::npos) malformed("[option] not assignment");
    std::string_view key = text.substr(0, eq);
    SourceOption opt;
    if (!key.empty() && (key.back() == '+' || key.back() == '-')) {
        opt.op = key.back() == '+' ? SourceOption::Op::Add : SourceOption::Op::Remove;
        key.remove_suffix(1);
    }
    if (key.empty()) malformed("[option] no key");
    std::string_view value = text.substr(eq + 1);
    if (value.empty()) malformed("[option] no value");
    opt.key = std::string(key);
    while (!value.empty()) {
        size_t comma = value.find(',');
        std::string_view piece = value.substr(0, comma);
        if (!piece.empty()) opt.values.push_back(percent_decode(piece));
        if (comma == std::string_view::npos) break;
        value.remove_prefix(comma + 1);
    }
    if (opt.values.empty()) malformed("[option] no value");
    entry.options.push_back(std::move(opt));
}

void LineParser::options(SourceEntry& entry) {
    size_t close = s_.find(']', pos_);
    // No ']': as apt, the rest of the line is read as options, and the
    // first word that is no assignment is the error.
    if (close == std::string_view::npos) close = s_.size();
    std::string_view inside = s_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = std::min(close + 1, s_.size());
    if (!at_end() && !is_blank(s_[pos_])) malformed("[option] needs a space after ']'");
    for (std::string_view w : split_words(inside)) option(w, entry);
}

SourceEntry LineParser::parse() {
    SourceEntry entry;
    entry.location = {file_, line_, 0};
    skip_blanks();
    std::string type = word();
    if (type.empty()) malformed("type");
    auto t = parse_type(type);
    if (!t) throw Error("Malformed line " + std::to_string(line_) + " in source list " + file_ + " (type)");
    entry.type = *t;
    skip_blanks();
    if (!at_end() && s_[pos_] == '[') {
        options(entry);
        skip_blanks();
    }
    entry.uri = word();
    if (entry.uri.empty()) malformed("URI");
    if (!detail::uri_has_scheme(entry.uri)) malformed("URI parse");
    skip_blanks();
    entry.suite = word();
    if (entry.suite.empty()) malformed("Suite");
    for (skip_blanks(); !at_end(); skip_blanks()) entry.components.push_back(word());
    std::string_view problem = detail::suite_component_problem(entry.suite, !entry.components.empty());
    if (!problem.empty()) malformed(problem);
    return entry;
}

// The line without its comment: '#' starts one unless it sits inside the
// option brackets (a '#' in an option value is data, as apt treats it).
std::string_view strip_comment(std::string_view line) {
    int depth = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == '[') ++depth;
        else if (c == ']' && depth > 0) --depth;
        else if (c == '#' && depth == 0) return line.substr(0, i);
    }
    return line;
}

}  // namespace

std::optional<SourceEntry> parse_one_line(std::string_view line, const std::string& file, unsigned line_no) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view text = trim(strip_comment(line));
    if (text.empty()) return std::nullopt;
    return LineParser(text, file, line_no).parse();
}

std::vector<SourceEntry> parse_one_line_file(std::string_view text, const std::string& file) {
    detail::reject_nul_bytes(text, file);
    std::vector<SourceEntry> out;
    unsigned line_no = 0;
    while (!text.empty()) {
        ++line_no;
        size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (auto e = parse_one_line(line, file, line_no)) out.push_back(std::move(*e));
    }
    return out;
}

}  // namespace aptus::sources
