#include "aptus/request/package_pattern_syntax.hpp"

#include <optional>

namespace aptus::request {
namespace {

struct ShortForm {
    std::string_view letters, long_name;
    bool takes_argument;
};

// apt's short forms; the longer ~D/~R spellings come before the bare ones.
constexpr ShortForm kShortForms[] = {
    {"r", "?architecture", true},        {"A", "?archive", true},
    {"M", "?automatic", false},          {"b", "?broken", false},
    {"c", "?config-files", false},       {"DDepends:", "?depends", true},
    {"DPre-Depends:", "?pre-depends", true}, {"DSuggests:", "?suggests", true},
    {"DRecommends:", "?recommends", true}, {"DConflicts:", "?conflicts", true},
    {"DReplaces:", "?replaces", true},   {"DObsoletes:", "?obsoletes", true},
    {"DBreaks:", "?breaks", true},       {"DEnhances:", "?enhances", true},
    {"D", "?depends", true},             {"RDepends:", "?reverse-depends", true},
    {"RPre-Depends:", "?reverse-pre-depends", true}, {"RSuggests:", "?reverse-suggests", true},
    {"RRecommends:", "?reverse-recommends", true}, {"RConflicts:", "?reverse-conflicts", true},
    {"RReplaces:", "?reverse-replaces", true}, {"RObsoletes:", "?reverse-obsoletes", true},
    {"RBreaks:", "?reverse-breaks", true}, {"REnhances:", "?reverse-enhances", true},
    {"R", "?reverse-depends", true},     {"E", "?essential", false},
    {"F", "?false", false},              {"g", "?garbage", false},
    {"i", "?installed", false},          {"n", "?name", true},
    {"o", "?obsolete", false},           {"O", "?origin", true},
    {"p", "?priority", true},            {"s", "?section", true},
    {"e", "?source-package", true},      {"T", "?true", false},
    {"U", "?upgradable", false},         {"V", "?version", true},
    {"v", "?virtual", false},
};


class Parser {
public:
    explicit Parser(std::string_view s) : s_(s) {}

    PatternSyntax top() {
        skip_space();
        auto node = parse_or();
        skip_space();
        if (!node) throw PatternSyntaxError{0, s_.size(), "Expected pattern"};
        if (node->end != s_.size()) throw PatternSyntaxError{node->end, s_.size(), "Expected end of file"};
        return std::move(*node);
    }

private:
    // The input ends in a NUL to the parser, as apt's C string does.
    char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
    char cur() const { return at(pos_); }
    size_t skip_space() {
        while (cur() == ' ' || cur() == '\t' || cur() == '\r' || cur() == '\n') ++pos_;
        return pos_;
    }

    static PatternSyntax group_of(std::string term, std::vector<PatternSyntax> nodes, size_t start) {
        PatternSyntax g;
        g.text = std::move(term);
        g.start = start;
        g.end = nodes.back().end;
        g.args = std::move(nodes);
        g.has_args = true;
        return g;
    }

    std::optional<PatternSyntax> parse_or() {
        size_t start = pos_;
        auto first = parse_and();
        if (!first) return std::nullopt;
        std::vector<PatternSyntax> nodes;
        nodes.push_back(std::move(*first));
        for (skip_space(); cur() == '|'; skip_space()) {
            ++pos_;
            skip_space();
            auto next = parse_and();
            if (!next) throw PatternSyntaxError{pos_, s_.size(), "Expected pattern after |"};
            nodes.push_back(std::move(*next));
        }
        if (nodes.size() == 1) return std::move(nodes[0]);
        return group_of("?or", std::move(nodes), start);
    }

    std::optional<PatternSyntax> parse_and() {
        size_t start = pos_;
        std::vector<PatternSyntax> nodes;
        for (skip_space(); pos_ < s_.size(); skip_space()) {
            auto node = parse_unary();
            if (!node) break;
            nodes.push_back(std::move(*node));
        }
        if (nodes.empty()) return std::nullopt;
        if (nodes.size() == 1) return std::move(nodes[0]);
        return group_of("?and", std::move(nodes), start);
    }

    std::optional<PatternSyntax> parse_unary() {
        if (cur() != '!') return parse_primary();
        size_t start = ++pos_;
        auto primary = parse_primary();
        if (!primary) throw PatternSyntaxError{start, s_.size(), "Expected pattern"};
        std::vector<PatternSyntax> one;
        one.push_back(std::move(*primary));
        return group_of("?not", std::move(one), start);
    }

    std::optional<PatternSyntax> parse_primary() {
        if (cur() == '~') return parse_short();
        if (cur() == '?') return parse_long();
        if (cur() == '(') return parse_group();
        return std::nullopt;
    }

    std::optional<PatternSyntax> parse_group() {
        size_t start = pos_++;
        skip_space();
        auto node = parse_or();
        if (!node) throw PatternSyntaxError{pos_, s_.size(), "Expected pattern after '('"};
        skip_space();
        if (cur() != ')') throw PatternSyntaxError{pos_, s_.size(), "Expected closing parenthesis"};
        node->start = start;
        node->end = ++pos_;
        return node;
    }

    PatternSyntax parse_argument(bool after_short) {
        if (auto q = parse_quoted()) return std::move(*q);
        if (auto w = parse_word(after_short)) return std::move(*w);
        if (auto p = parse_or()) return std::move(*p);
        throw PatternSyntaxError{pos_, s_.size(), "Expected pattern, quoted word, or word"};
    }

    std::optional<PatternSyntax> parse_short() {
        for (const ShortForm& f : kShortForms) {
            if (s_.substr(std::min(pos_ + 1, s_.size())).substr(0, f.letters.size()) != f.letters) continue;
            PatternSyntax node;
            node.start = pos_;
            node.text = std::string(f.long_name);
            pos_ += f.letters.size() + 1;
            if (f.takes_argument) {
                node.args.push_back(parse_argument(true));
                node.has_args = true;
            }
            node.end = pos_;
            return node;
        }
        throw PatternSyntaxError{pos_, s_.size(), "Unknown short pattern"};
    }

    static bool name_char(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    }

    std::optional<PatternSyntax> parse_long() {
        PatternSyntax node;
        node.start = pos_++;
        while (name_char(cur())) ++pos_;
        node.text = std::string(s_.substr(node.start, pos_ - node.start));
        node.end = node.start;  // apt underlines nothing here
        if (node.text.size() <= 1) throw PatternSyntaxError{node.start, node.end, "Pattern must have a term/name"};
        node.end = skip_space();
        if (cur() != '(') return node;
        node.end = ++pos_;
        skip_space();
        node.has_args = true;
        if (cur() == ')') {
            node.end = ++pos_;
            return node;
        }
        node.args.push_back(parse_argument(false));
        skip_space();
        while (cur() == ',') {
            ++pos_;
            skip_space();
            if (cur() == ')') break;  // a trailing comma is allowed
            node.args.push_back(parse_argument(false));
            skip_space();
        }
        node.end = pos_;
        if (cur() != ')') {
            const PatternSyntax& where = node.args.back();
            std::string message = "Expected closing parenthesis or comma after last argument, received ";
            if (cur() != '\0') message += cur();
            throw PatternSyntaxError{where.start, where.end, message};
        }
        node.end = ++pos_;
        return node;
    }

    std::optional<PatternSyntax> parse_quoted() {
        if (cur() != '"') return std::nullopt;
        PatternSyntax node;
        node.is_word = true;
        node.start = pos_++;
        while (cur() != '"' && cur() != '\0') ++pos_;
        // apt reports this one with an end of 0: "input:6-0".
        if (cur() != '"') throw PatternSyntaxError{node.start, 0, "Could not find end of string"};
        node.end = ++pos_;
        node.text = std::string(s_.substr(node.start + 1, node.end - node.start - 2));
        return node;
    }

    std::optional<PatternSyntax> parse_word(bool after_short) {
        constexpr std::string_view not_first("!?~|,() \0", 9);
        constexpr std::string_view ends_long("|,()\0", 5);
        const std::string_view ends = after_short ? not_first : ends_long;
        if (not_first.find(cur()) != std::string_view::npos) return std::nullopt;
        PatternSyntax node;
        node.is_word = true;
        node.start = pos_;
        while (ends.find(cur()) == std::string_view::npos) ++pos_;
        node.end = pos_;
        node.text = std::string(s_.substr(node.start, node.end - node.start));
        return node;
    }

    std::string_view s_;
    size_t pos_ = 0;
};


}  // namespace

PatternSyntax parse_syntax(std::string_view text) { return Parser(text).top(); }

std::string error_text(std::string_view input, const PatternSyntaxError& e) {
    // apt's layout; main prints "E: " before it, apt indents the rest by 3.
    std::string out = "input:" + std::to_string(e.start) + "-" + std::to_string(e.end) + ": error: " + e.message;
    out += "\n   " + std::string(input);
    std::string marks = std::string(e.start, ' ');
    if (e.end > e.start) marks += std::string(e.end - e.start, '^');
    // apt drops an empty last line (an error at 0 with nothing underlined).
    if (!marks.empty()) out += "\n   " + marks;
    return out;
}


}  // namespace aptus::request
