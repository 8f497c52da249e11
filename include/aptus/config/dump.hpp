// `config dump` output: one line per node in the format apt-config uses.
#pragma once

#include <string>
#include <string_view>

#include "aptus/config/config.hpp"

namespace aptus::config {

inline constexpr std::string_view default_dump_format = "%f \"%v\";%n";

// Format placeholders: %f full name, %t last name, %v value; upper case
// (%F %T %V) percent-encodes space, '"', '%', '=', control and non-ASCII bytes;
// %n newline, %N tab, %% a '%'; any other %x is copied as it is.
// With `include_empty` false, nodes with an empty value are left out. With
// a `subtree` (apt-config dump KEY), only that node and what is below it.
std::string dump(const Config& config, std::string_view format = default_dump_format, bool include_empty = true,
                 std::string_view subtree = {});

// Percent-encoding for the upper-case placeholders.
std::string quote_value(std::string_view value);

}  // namespace aptus::config
