// Does a pin record apply? Patterns are compiled once per record, so
// matching every version of a cache against every pin stays cheap.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "aptus/policy/preferences.hpp"

namespace aptus::policy {

// A string as apt_preferences(5) allows it anywhere: "/regex/" (POSIX
// extended), a glob(7) when it has *, ? or [, else the exact string.
class Pattern {
public:
    Pattern() = default;
    explicit Pattern(std::string text);
    bool matches(std::string_view value) const;
    bool empty() const { return text_.empty(); }
    const std::string& text() const { return text_; }

private:
    struct Regex;
    std::string text_;
    bool glob_ = false;
    std::shared_ptr<Regex> regex_;
};

// The release data of one package file (one Packages index, or the status file).
struct PackageFileFacts {
    std::string_view archive;  // Suite
    std::string_view codename;
    std::string_view version;
    std::string_view component;
    std::string_view origin;
    std::string_view label;
    std::string_view architecture;
    std::string_view site;   // the host it comes from; "" for local files
    bool is_status = false;  // the dpkg status file, which no pin matches
};

struct PackageFacts {
    std::string_view name;
    std::string_view architecture;         // "all" counts as native
    std::string_view native_architecture;
    std::string_view source_name;
    std::string_view source_version;  // "" when the version is its own
};

class PinMatcher {
public:
    explicit PinMatcher(const PinRecord& record);

    const PinRecord& record() const { return record_; }
    bool matches_package(const PackageFacts& package) const;
    // Release and origin pins: the file's release data.
    bool matches_file(const PackageFileFacts& file) const;
    // Version pins: the version string; source-version pins: the source
    // package's version (the version itself when empty).
    bool matches_version(std::string_view version, std::string_view source_version = {}) const;

private:
    struct PackagePattern {
        bool source = false;  // "src:NAME"
        Pattern name;
        std::string arch;     // "" = native, "any", or an architecture
    };
    PinRecord record_;
    std::vector<PackagePattern> packages_;
    Pattern version_;
    Pattern archive_, codename_, release_version_, component_, origin_, label_, architecture_, archive_or_codename_;
    bool matches_all_ = false;  // "Pin: release *"
};

}  // namespace aptus::policy
