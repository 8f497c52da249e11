// Small string helpers used by every parser. ASCII only: Debian control
// data is ASCII in every place where case or spaces matter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aptus {

constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }
constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }

bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);
std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
// Split on any run of blanks/newlines; empty words are dropped.
std::vector<std::string_view> split_words(std::string_view s);

// The items of a comma-separated list (a Binary field, a relation field,
// apt's list values), blanks and line breaks around each trimmed, empty
// items (",a,,b,") skipped. The callback form allocates nothing.
template <class F>
void for_each_list_item(std::string_view list, F&& f) {
    size_t pos = 0;
    while (true) {
        size_t comma = list.find(',', pos);
        std::string_view item = trim(list.substr(pos, comma == std::string_view::npos ? comma : comma - pos));
        if (!item.empty()) f(item);
        if (comma == std::string_view::npos) return;
        pos = comma + 1;
    }
}
std::vector<std::string_view> split_list(std::string_view list);

// A byte as two lower-case hex digits, the high one first: the form of
// hashes in Release files and of escaped bytes in messages and dumps.
void append_hex(std::string& out, unsigned char byte);
std::string to_hex(std::string_view bytes);

}  // namespace aptus
