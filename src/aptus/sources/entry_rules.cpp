#include "aptus/sources/entry_rules.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::sources::detail {

bool uri_has_scheme(std::string_view uri) {
    size_t colon = uri.find(':');
    if (colon == 0 || colon == std::string_view::npos) return false;
    // RFC 3986: a scheme is a letter followed by letters, digits, '+', '-', '.'.
    if (!is_alpha(uri[0])) return false;
    for (size_t i = 1; i < colon; ++i) {
        char c = uri[i];
        if (!is_alnum(c) && c != '+' && c != '-' && c != '.') return false;
    }
    return true;
}

std::string_view suite_component_problem(std::string_view suite, bool has_components) {
    bool flat = !suite.empty() && suite.back() == '/';
    if (flat && has_components) return "absolute Suite Component";
    if (!flat && !has_components) return "Component";
    return "";
}

void reject_nul_bytes(std::string_view text, const std::string& file) {
    size_t nul = text.find('\0');
    if (nul == std::string_view::npos) return;
    unsigned line = 1;
    for (size_t i = 0; i < nul; ++i) line += text[i] == '\n';
    throw file_error(file, line, "NUL byte in line");
}

}  // namespace aptus::sources::detail
