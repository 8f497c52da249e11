#include "aptus/acquire/repository_path.hpp"

#include <algorithm>
#include <cctype>

namespace aptus::acquire {

bool is_repository_path(std::string_view filename) {
    if (filename.empty() || filename.front() == '/') return false;
    // "scheme:...": letters, digits, '+', '-' and '.' before the first ':',
    // the first a letter ("hello_1:2.deb" in a flat repository is a name).
    size_t colon = filename.find(':');
    if (colon != std::string_view::npos && colon > 0 && filename.find('/') > colon &&
        std::isalpha(static_cast<unsigned char>(filename[0])) &&
        std::all_of(filename.begin(), filename.begin() + long(colon), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
        }))
        return false;
    size_t start = 0;
    while (start <= filename.size()) {
        size_t slash = std::min(filename.find('/', start), filename.size());
        if (filename.substr(start, slash - start) == "..") return false;
        start = slash + 1;
    }
    return filename.find('\0') == std::string_view::npos;
}

std::string http_quoted_path(std::string_view path) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : path) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '/') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace aptus::acquire
