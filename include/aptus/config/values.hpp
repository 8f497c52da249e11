// apt's spellings of booleans and integers in configuration values.
#pragma once

#include <optional>
#include <string_view>

namespace aptus::config {

// true for "yes", "true", "with", "on", "enable" and non-zero integers; false
// for "no", "false", "without", "off", "disable" and 0 (any case); nullopt otherwise.
std::optional<bool> parse_bool(std::string_view text);

// A leading integer as strtol with base 0 reads it (leading blanks, sign,
// 0x/0 prefixes; trailing text ignored); a boolean spelling gives 1 or 0.
std::optional<long> parse_int(std::string_view text);

}  // namespace aptus::config
