#include "aptus/config/values.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "aptus/base/strings.hpp"

namespace aptus::config {

std::optional<bool> parse_bool(std::string_view text) {
    std::string s(text);
    char* end = nullptr;
    long n = std::strtol(s.c_str(), &end, 0);
    if (end != s.c_str() && *end == '\0') return n != 0;
    for (const char* t : {"yes", "true", "with", "on", "enable"})
        if (iequals(text, t)) return true;
    for (const char* f : {"no", "false", "without", "off", "disable"})
        if (iequals(text, f)) return false;
    return std::nullopt;
}

std::optional<long> parse_int(std::string_view text) {
    std::string s(text);
    char* end = nullptr;
    errno = 0;
    long n = std::strtol(s.c_str(), &end, 0);
    if (end != s.c_str() && errno == 0) return n;
    if (auto b = parse_bool(trim(text))) return *b ? 1 : 0;
    return std::nullopt;
}

}  // namespace aptus::config
