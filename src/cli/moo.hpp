// The pure part of `apt-get moo`: which day it is (SOURCE_DATE_EPOCH, as apt
// reads it, else now) and what the cow says on that day.
#pragma once

#include <ctime>
#include <optional>
#include <string_view>

namespace aptus::cli {

// A SOURCE_DATE_EPOCH value as seconds since the epoch (negative ones
// included, so a date before 1970 can be asked for); nullopt when it is not
// a whole decimal number.
std::optional<std::time_t> parse_source_date_epoch(std::string_view text);

// What apt's cow says on the UTC day of `when`: its holidays, else the
// everyday question.
std::string_view moo_message(std::time_t when);

}  // namespace aptus::cli
