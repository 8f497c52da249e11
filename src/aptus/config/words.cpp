#include "words.hpp"

#include "aptus/base/strings.hpp"

namespace aptus::config::detail {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<std::string> read_quote_word(std::string_view& in) {
    size_t i = 0;
    while (i < in.size() && is_space(in[i])) ++i;
    if (i == in.size()) return std::nullopt;
    size_t start = i;
    while (i < in.size() && !is_space(in[i])) {
        char close = in[i] == '"' ? '"' : in[i] == '[' ? ']' : 0;
        if (close) {
            size_t end = in.find(close, i + 1);
            if (end == std::string_view::npos) return std::nullopt;
            i = end;
        }
        ++i;
    }
    std::string word;
    for (size_t j = start; j < i; ++j) {
        char c = in[j];
        if (c == '"') continue;
        if (c == '%' && j + 2 < i && hex_value(in[j + 1]) >= 0 && hex_value(in[j + 2]) >= 0) {
            word += char(hex_value(in[j + 1]) * 16 + hex_value(in[j + 2]));
            j += 2;
            continue;
        }
        word += c;
    }
    while (i < in.size() && is_space(in[i])) ++i;
    in.remove_prefix(i);
    return word;
}

std::optional<std::string> read_c_word(std::string_view& in) {
    size_t i = 0;
    while (i < in.size() && is_space(in[i])) ++i;
    if (i == in.size()) return std::nullopt;
    std::string word;
    for (; i < in.size(); ++i) {
        char c = in[i];
        if (c == '"') {
            size_t end = in.find('"', i + 1);
            if (end == std::string_view::npos) return std::nullopt;
            word.append(in.substr(i + 1, end - i - 1));
            i = end;
            continue;
        }
        if (!is_space(c)) return std::nullopt;
        if (is_space(in[i - 1])) continue;  // runs of blanks become one space
        word += ' ';
    }
    in.remove_prefix(i);
    return word;
}

}  // namespace aptus::config::detail
