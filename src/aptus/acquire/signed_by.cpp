// Signed-By: which keys a source's signatures are checked against.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "aptus/acquire/verify.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::acquire {

namespace {

constexpr std::string_view kKeyBlock = "-----BEGIN PGP PUBLIC KEY BLOCK-----";

std::vector<std::string_view> split_commas(std::string_view s) {
    std::vector<std::string_view> out;
    for (size_t start = 0;;) {
        size_t comma = s.find(',', start);
        out.push_back(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// apt's rule for the files of a parts directory: letters, digits, '_', '-', ':'
// and '.' only, so editor backups and package-manager leftovers
// (foo.gpg~, foo.gpg.dpkg-old) are never trusted by accident.
bool trusted_part_name(std::string_view name) {
    if (!(ends_with(name, ".gpg") || ends_with(name, ".asc"))) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        // apt's run-parts rule (GetListOfFilesInDir), which takes ':' too.
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
               c == '.' || c == ':';
    });
}

std::vector<std::string> trusted_parts(const config::Config& config) {
    std::string dir = config.find_dir("Dir::Etc::TrustedParts");
    std::vector<std::string> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (!trusted_part_name(name)) continue;
        std::string path = dir + name;
        struct stat st {};
        // Empty files are how packages "remove" a key they once shipped.
        if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) continue;
        out.push_back(std::move(path));
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

// A fingerprint as Signed-By may write it: 40 (v4) or 64 (v6) hex digits,
// optionally ending in '!'. Empty optional for anything else.
std::optional<KeyFingerprint> parse_fingerprint(std::string_view word) {
    KeyFingerprint fp;
    if (!word.empty() && word.back() == '!') {
        fp.exact = true;
        word.remove_suffix(1);
    }
    if (word.size() != 40 && word.size() != 64) return std::nullopt;
    for (char c : word) {
        if (!is_hex(c)) return std::nullopt;
        fp.hex.push_back(c >= 'a' && c <= 'f' ? char(c - 'a' + 'A') : c);
    }
    return fp;
}

}  // namespace

TrustAnchors trust_anchors(const sources::SourceEntry& entry, const config::Config& config) {
    TrustAnchors anchors;
    auto values = entry.option_values("signed-by", {});
    bool any_value = false;
    if (values) {
        for (const std::string& value : *values) {
            if (value.find(kKeyBlock) != std::string::npos) {
                anchors.inline_keys.push_back(value);
                any_value = true;
                continue;
            }
            // One-line entries split at commas already; a deb822 field splits
            // at spaces, and apt takes commas there too.
            for (std::string_view word : split_commas(value)) {
                word = trim(word);
                if (word.empty()) continue;
                any_value = true;
                if (word.front() == '/') {
                    anchors.keyrings.emplace_back(word);
                } else if (auto fp = parse_fingerprint(word)) {
                    anchors.fingerprints.push_back(std::move(*fp));
                } else {
                    throw file_error(entry.location.file, entry.location.line,
                                     "Invalid value set for option signed-by regarding source " + entry.uri + " " +
                                         entry.suite + " (" + std::string(word) +
                                         "): not an absolute keyring path, a fingerprint or a key block");
                }
            }
        }
    }
    // An empty Signed-By (modernize-sources writes one when it found no key)
    // means the same as none.
    if (!any_value || (anchors.keyrings.empty() && anchors.inline_keys.empty())) {
        // Fingerprints alone select keys from the system's keyrings.
        anchors.keyrings = trusted_parts(config);
        std::string legacy = config.find_file("Dir::Etc::Trusted");
        if (!legacy.empty() && path_exists(legacy) && !is_directory(legacy)) anchors.legacy_keyring = legacy;
    }
    return anchors;
}

}  // namespace aptus::acquire
