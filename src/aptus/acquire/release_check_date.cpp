// Release file dates: RFC 1123 / RFC 2822 as archives write them.
#include <cstdint>
#include <optional>
#include <string_view>

#include "aptus/acquire/release_check.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::acquire {

namespace {

std::optional<int> number(std::string_view s, size_t min_digits, size_t max_digits) {
    if (s.size() < min_digits || s.size() > max_digits) return std::nullopt;
    int v = 0;
    for (char c : s) {
        if (!is_digit(c)) return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

std::optional<int> month(std::string_view s) {
    static constexpr std::string_view names[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};
    for (int i = 0; i < 12; ++i)
        if (iequals(s, names[i])) return i + 1;
    return std::nullopt;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// civil-from-days inverse), so no time zone or locale is involved.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int64_t(doe) - 719468;
}

int days_in_month(int y, int m) {
    static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

}  // namespace

std::optional<int64_t> parse_release_date(std::string_view value) {
    auto words = split_words(value);
    size_t i = 0;
    // The weekday is optional and not checked against the date: archives
    // have been seen with wrong ones, and the numbers are what counts.
    if (i < words.size() && !words[i].empty() && !is_digit(words[i][0])) {
        std::string_view wd = words[i];
        if (wd.back() == ',') wd.remove_suffix(1);
        if (wd.size() != 3) return std::nullopt;
        ++i;
    }
    if (words.size() - i != 5) return std::nullopt;
    auto day = number(words[i], 1, 2);
    auto mon = month(words[i + 1]);
    auto year = number(words[i + 2], 4, 4);
    std::string_view hms = words[i + 3];
    std::string_view zone = words[i + 4];
    if (!day || !mon || !year || hms.size() != 8 || hms[2] != ':' || hms[5] != ':') return std::nullopt;
    auto hh = number(hms.substr(0, 2), 2, 2), mm = number(hms.substr(3, 2), 2, 2), ss = number(hms.substr(6, 2), 2, 2);
    if (!hh || !mm || !ss || *hh > 23 || *mm > 59 || *ss > 60) return std::nullopt;
    if (*day < 1 || *day > days_in_month(*year, *mon)) return std::nullopt;

    int64_t offset = 0;
    if (iequals(zone, "UTC") || iequals(zone, "GMT") || zone == "Z") {
        offset = 0;
    } else if (zone.size() == 5 && (zone[0] == '+' || zone[0] == '-')) {
        auto zh = number(zone.substr(1, 2), 2, 2), zm = number(zone.substr(3, 2), 2, 2);
        if (!zh || !zm || *zh > 23 || *zm > 59) return std::nullopt;
        offset = (*zh * 3600 + *zm * 60) * (zone[0] == '-' ? -1 : 1);
    } else {
        return std::nullopt;
    }
    int64_t t = days_from_civil(*year, unsigned(*mon), unsigned(*day)) * 86400 + *hh * 3600 + *mm * 60 + *ss;
    return t - offset;
}

}  // namespace aptus::acquire
