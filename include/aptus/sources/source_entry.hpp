// One source entry: a (type, URI, suite) with its components and options, as
// read from a one-line sources.list line or expanded from a deb822 stanza.
// Plain values: the rest of aptus (index targets, update, modernize) takes
// these and never looks at the files again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::sources {

enum class SourceType : uint8_t { Deb, DebSrc };

// "deb" or "deb-src".
std::string_view type_name(SourceType type);
// The type for "deb" or "deb-src" (exact, as apt); nullopt otherwise.
std::optional<SourceType> parse_type(std::string_view word);

// An option as written. Keys are the one-line names apt documents in
// sources.list(5): arch, lang, target, signed-by, trusted, check-valid-until,
// valid-until-min, valid-until-max, date-max-future, by-hash, pdiffs,
// allow-insecure, allow-weak, allow-downgrade-to-insecure, snapshot, ...
// deb822 fields map onto the same keys (Architectures -> arch,
// Architectures-Add -> arch with Op::Add, Signed-By -> signed-by, ...).
struct SourceOption {
    enum class Op : uint8_t { Set, Add, Remove };  // "=", "+=", "-="
    std::string key;
    Op op = Op::Set;
    // Comma- (one-line) or space-separated (deb822) values, split. An inline
    // armored key block for signed-by is one value.
    std::vector<std::string> values;
};

// Where an entry came from, for messages and `aptus sources`.
struct SourceLocation {
    std::string file;
    unsigned line = 0;  // the line, or the first line of the deb822 stanza
    // deb822 only: the stanza's 1-based number in its file. apt names deb822
    // entries "file:N" by stanza number (Sourcesentry in `apt-get indextargets`).
    unsigned stanza = 0;
    // "file:line" for a one-line entry, "file:stanza" for deb822, as apt prints it.
    std::string apt_name() const;
};

struct SourceEntry {
    SourceType type = SourceType::Deb;
    std::string uri;                      // as written in the file
    std::string suite;                    // a flat repository's suite ends in '/'
    std::vector<std::string> components;  // empty for a flat repository
    std::vector<SourceOption> options;    // in the order written
    bool enabled = true;                  // false: deb822 "Enabled: no"
    bool deb822 = false;                  // which format it came from
    SourceLocation location;

    bool is_flat() const { return !suite.empty() && suite.back() == '/'; }
    // The last option with this key, or nullptr.
    const SourceOption* option(std::string_view key) const;
    // The option applied as apt applies it: the last "=" replaces `base`,
    // then the last "+=" appends and the last "-=" removes (apt keeps one of
    // each). nullopt when the key is not set at all.
    std::optional<std::vector<std::string>> option_values(std::string_view key,
                                                          const std::vector<std::string>& base) const;
};

}  // namespace aptus::sources
