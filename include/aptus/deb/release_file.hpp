// Release and InRelease files: the metadata of one repository (origin, suite,
// codename, flags) and the list of index files it vouches for with their sizes
// and hashes.
//
// For an InRelease file only the clearsigned text (RFC 4880 section 7) is
// read; nothing outside the signed part is trusted. Verifying the signature
// is not done here: this only extracts what the signature covers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::deb {

enum class ReleaseHash : uint8_t { Md5, Sha1, Sha256, Sha512 };

struct ReleaseEntry {
    std::string path;  // relative to the dists/<suite>/ directory, e.g. "main/binary-amd64/Packages.xz"
    uint64_t size = 0;
    std::string hash;  // lower-case hex, as written
};

struct ReleaseFile {
    std::string origin, label, suite, codename, version;
    std::string date, valid_until;  // as written (RFC 2822 dates); "" when absent
    std::string release_notes;      // a URL; named when the release's information changes
    // Signed-By: the keys (fingerprints, space or comma separated, '!' for
    // an exact subkey) that may sign the next Release of this repository,
    // as long as this one is valid (apt's rule); "" when absent.
    std::string signed_by;
    bool not_automatic = false;
    bool but_automatic_upgrades = false;
    bool acquire_by_hash = false;
    std::vector<std::string> architectures;
    std::vector<std::string> components;
    std::vector<ReleaseEntry> md5, sha1, sha256, sha512;

    const std::vector<ReleaseEntry>& entries(ReleaseHash h) const;
    // The entry for `path` in the list of `h`; nullptr when not listed.
    const ReleaseEntry* find(std::string_view path, ReleaseHash h) const;
    // The strongest hash listed for `path` (SHA512, SHA256, SHA1, MD5).
    std::optional<std::pair<ReleaseHash, const ReleaseEntry*>> strongest(std::string_view path) const;
};

// The signed text of a clearsigned message. Dash-escaped lines are unescaped;
// the text's lines end in '\n' (the line ending before the signature belongs to
// the armor, RFC 4880 7.1, but a Release file wants its last line ended).
// Throws aptus::Error naming `name` on anything malformed: text before the
// BEGIN line, a bad armor header, an unescaped dash line, a missing or
// unterminated signature block, a second message, text after the signature.
std::string clearsigned_text(std::string_view content, std::string_view name);

// Whether `content` starts as a clearsigned message does (its BEGIN line).
bool starts_clearsigned(std::string_view content);

// Parse the text of a Release file (already extracted from an InRelease).
ReleaseFile parse_release(std::string_view text, std::string_view name);

// Read a Release or InRelease file: clearsigned content is extracted first; a
// file named *InRelease must be clearsigned, a file holding any other PGP
// armor is refused.
ReleaseFile read_release_file(const std::string& path);

}  // namespace aptus::deb
