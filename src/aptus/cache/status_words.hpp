// The dpkg status database's "Status: want flag state" line.
#pragma once

#include <string_view>

#include "aptus/cache/format.hpp"

namespace aptus::cache::detail {

// False (and the outputs untouched) when the three words are not dpkg's.
bool parse_status_words(std::string_view text, Selection& want, StatusFlag& flag, InstallState& state);

}  // namespace aptus::cache::detail
