// The two word readers of apt.conf statements (internal to the parser).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace aptus::config::detail {

// A word ending at unquoted white space: "..." and [...] may hold blanks,
// quotes are dropped and %XX hex escapes decoded. Consumes trailing blanks.
// nullopt at end of input or on an unterminated quote or bracket.
std::optional<std::string> read_quote_word(std::string_view& in);

// A value made only of quoted strings ("a" "b"), joined by single spaces; no
// escapes. nullopt (input untouched) if anything is unquoted.
std::optional<std::string> read_c_word(std::string_view& in);

}  // namespace aptus::config::detail
