#include "aptus/sources/index_targets.hpp"

#include <cstdio>

namespace aptus::sources {
namespace {

// apt's list of bytes that may not appear as themselves in a lists file name.
constexpr std::string_view unsafe = "\\|{}[]<>\"^~_=!@#$%^&*";

void append_quoted(std::string& out, std::string_view s) {
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f || unsafe.find(c) != std::string_view::npos) {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
}

}  // namespace

std::string uri_to_list_filename(std::string_view uri) {
    std::string_view rest = uri;
    size_t colon = rest.find(':');
    if (colon != std::string_view::npos) rest.remove_prefix(colon + 1);
    if (rest.substr(0, 2) == "//") rest.remove_prefix(2);
    // The authority runs to the first '/'; "cdrom:/x" has none.
    size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
    size_t at = authority.rfind('@');
    if (at != std::string_view::npos) authority.remove_prefix(at + 1);
    std::string host;
    if (!authority.empty() && authority.front() == '[') {
        size_t close = authority.find(']');
        if (close != std::string_view::npos) {
            host = std::string(authority.substr(1, close - 1));
            host += authority.substr(close + 1);  // ":port"
        } else {
            host = std::string(authority);
        }
    } else {
        host = std::string(authority);
    }
    std::string out;
    append_quoted(out, host);
    append_quoted(out, path);
    for (char& c : out)
        if (c == '/') c = '_';
    return out;
}

}  // namespace aptus::sources
