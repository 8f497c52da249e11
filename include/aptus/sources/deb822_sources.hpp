// The deb822 format of sources.list.d/*.sources: stanzas with Types, URIs,
// Suites, Components and option fields (Architectures, Signed-By, ...; see
// sources.list(5)). Each stanza expands into one SourceEntry per
// (type, URI, suite), in that nesting order, as apt does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

// Entries with "Enabled: no" come back with enabled=false. Errors are
// aptus::Error "file:line: ..." naming the stanza's line.
std::vector<SourceEntry> parse_deb822_sources(std::string_view text, const std::string& file);

// The one-line option key a deb822 field sets ("Architectures-Add" -> arch,
// Op::Add); empty key for fields that are not options.
struct Deb822OptionField {
    std::string key;
    SourceOption::Op op = SourceOption::Op::Set;
};
Deb822OptionField deb822_option_field(std::string_view field_name);

}  // namespace aptus::sources
