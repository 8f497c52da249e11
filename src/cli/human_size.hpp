// Sizes as apt prints them ("7369 kB", "10.2 MB", "9216 B"): SI units, at
// most four digits before switching unit, one decimal below 100 of a unit.
#pragma once

#include <cstdint>
#include <string>

namespace aptus::cli {

// The number and unit prefix ("7369 k", "9216 "); callers append "B".
// Digit grouping follows the locale (LC_NUMERIC), as apt's does.
std::string human_size(double bytes);

}  // namespace aptus::cli
