#include "cli/moo.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace aptus::cli {

std::optional<std::time_t> parse_source_date_epoch(std::string_view text) {
    if (text.empty()) return std::nullopt;
    std::string copy(text);
    const char* begin = copy.c_str();
    if (*begin != '-' && (*begin < '0' || *begin > '9')) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    long long seconds = std::strtoll(begin, &end, 10);
    if (errno != 0 || end == begin || *end != '\0') return std::nullopt;
    return std::time_t(seconds);
}

std::string_view moo_message(std::time_t when) {
    std::tm day{};
    if (::gmtime_r(&when, &day) == nullptr) return "Have you mooed today?";
    const int month = day.tm_mon + 1, mday = day.tm_mday;
    if (month == 12 && mday == 25) return "Happy package management day!";
    if (month == 2 && mday == 18) return "It's a Bird ... It's a Plane ... It's Super Cow!";
    if (month == 11 && mday == 7) return "Whoever needs milk, bows to the animal.";
    if (month == 8 && mday == 16) return "Three moos for Debian!";
    if (month == 4 && mday == 1) return "Have you smashed some milk today?";
    return "Have you mooed today?";
}

}  // namespace aptus::cli
