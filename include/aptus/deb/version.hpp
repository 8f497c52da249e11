// Debian version strings ([epoch:]upstream[-revision]), ordered exactly as
// dpkg orders them. Comparison works on the raw text and never allocates, so
// the cache and the solver can compare views into mapped index files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace aptus::deb {

// A version split into its parts; the views point into the parsed text.
struct Version {
    uint32_t epoch = 0;          // 0 when absent; dpkg caps it at INT_MAX
    std::string_view upstream;   // never empty
    std::string_view revision;   // "" when absent (dpkg rejects "1.0-")
};

// What parse_version() rejects. dpkg itself refuses only the first kind and
// merely warns about the second, so index files and the status database are
// read with Errors, and versions aptus is asked to create with Strict.
enum class VersionCheck {
    Errors,  // empty, embedded blanks, bad or too big epoch, empty upstream or revision
    Strict,  // also: upstream not starting with a digit, characters Policy forbids
};

// Splits and validates `text` (surrounding whitespace is ignored, as dpkg does).
// Throws aptus::Error "invalid version '<text>': <problem>"; callers add the
// file and line.
Version parse_version(std::string_view text, VersionCheck check = VersionCheck::Strict);

// The problem dpkg would warn about in a version it accepts ("" when there is
// none, or when the version is outright invalid), worded like parse_version's
// errors ("version '<text>' breaks Debian Policy: ..."), for the diagnostics sink.
std::string version_warning(std::string_view text);

// Three-way comparison in dpkg's order: -1, 0 or 1. No allocation, no
// overflow on digit runs of any length. Equal versions may differ in text
// ("0:1.0" and "1.0", "1.0-0" and "1.0", "1.01" and "1.1").
// Any text gets a consistent order. Only "<digits>:" at the start is an
// epoch; a ':' after anything else is an ordinary character. That differs
// from APT (which takes everything before the first ':') only on text dpkg
// refuses ("1.0-1:2", "x:1"), and from dpkg only on the signed epochs its
// strtol lets through ("+1:2", "-0:2"), which parse_version refuses.
int compare_versions(std::string_view a, std::string_view b) noexcept;
int compare_versions(const Version& a, const Version& b) noexcept;

}  // namespace aptus::deb
