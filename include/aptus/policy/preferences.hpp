// apt_preferences(5): the pin records of Dir::Etc::preferences and the files
// of Dir::Etc::preferencesparts, as plain values. Matching them against
// packages and package files is pin_match.hpp's job; computing priorities
// and candidates from them is the policy's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"

namespace aptus::policy {

// The conditions of "Pin: release ...". An empty string means "not
// constrained". Each value may be a glob or a /regex/.
struct ReleaseConditions {
    std::string archive;              // a=  (the Release file's Suite)
    std::string codename;             // n=
    std::string version;              // v=
    std::string component;            // c=
    std::string origin;               // o=
    std::string label;                // l=
    std::string architecture;         // b=
    std::string archive_or_codename;  // a bare word: "Pin: release trixie"
};

struct PinRecord {
    // Version: "Pin: version V"; SourceVersion: "Pin: source-version V",
    // the version of the source package the version was built from.
    enum class Kind { Version, SourceVersion, Release, Origin };

    // As written: names, globs, /regexes/, "src:NAME", each optionally with
    // ":any" or ":ARCH".
    std::vector<std::string> packages;
    // "Package: *" — a general record, which pins package files rather than
    // versions. Only Release and Origin pins can be general.
    bool general = false;
    Kind kind = Kind::Release;
    std::string version;  // Kind::Version, Kind::SourceVersion: the version pattern
    std::string site;     // Kind::Origin: the host name ("" = local files)
    ReleaseConditions release;
    int priority = 0;
    // "Pin-Priority: never" (general records only): -32768, which a number
    // never gives (apt caps those at -32767).
    bool never = false;
    std::string file;
    unsigned line = 0;
};

// Parse one preferences file. Records apt ignores (no Pin line, an unknown
// pin type, a version pin on "Package: *") are skipped with apt's warning;
// a record with a /regex/ that does not compile is skipped with a warning
// naming the file and line (apt warns "Invalid regular expression" and the
// record never matches);
// a record without Package, or without a non-zero Pin-Priority, is an error
// naming the file and line.
std::vector<PinRecord> parse_preferences(std::string_view text, const std::string& file, Diagnostics& diags);

// Dir::Etc::preferences, then the files of Dir::Etc::preferencesparts with
// apt's name rules (no extension or ".pref"), in order.
std::vector<PinRecord> read_preferences(const config::Config& config, Diagnostics& diags);

}  // namespace aptus::policy
