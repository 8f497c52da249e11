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

namespace {

bool is_fingerprint(std::string_view word) {
    if (!word.empty() && word.back() == '!') word.remove_suffix(1);
    if (word.size() != 40 && word.size() != 64) return false;
    for (char c : word)
        if (!is_digit(c) && !((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    return true;
}

}  // namespace

void check_signed_by(const SourceEntry& entry) {
    if (!entry.enabled) return;
    for (const SourceOption& o : entry.options) {
        if (o.key != "signed-by") continue;
        for (const std::string& value : o.values) {
            if (value.find("-----BEGIN PGP PUBLIC KEY BLOCK-----") != std::string::npos) continue;
            std::string_view rest = value;
            while (!rest.empty()) {
                size_t comma = rest.find(',');
                std::string_view word = trim(rest.substr(0, comma));
                rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
                if (word.empty() || word.front() == '/' || is_fingerprint(word)) continue;
                std::string uri = entry.uri;
                if (uri.empty() || uri.back() != '/') uri += '/';
                throw file_error(entry.location.file, entry.location.line,
                                 "Invalid value set for option Signed-By regarding source " + uri + " " + entry.suite +
                                     " (not a fingerprint): '" + std::string(word) +
                                     "' is neither an absolute path to a keyring nor a fingerprint");
            }
        }
    }
}

bool is_false_word(std::string_view v) {
    for (std::string_view w : {"no", "false", "without", "off", "disable", "0"})
        if (iequals(v, w)) return true;
    return false;
}

}  // namespace aptus::sources::detail
