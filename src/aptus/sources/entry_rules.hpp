// Checks both source formats share: what apt accepts as a URI, and the rule
// that ties components to flat and non-flat suites. Private to sources/.
#pragma once

#include <string>
#include <string_view>

#include "aptus/sources/source_entry.hpp"

namespace aptus::sources::detail {

// apt takes only URIs with a scheme ("http://...", "file:/...", "cdrom:[..]/");
// a path like "/srv/repo" or "mirror/debian" is rejected.
bool uri_has_scheme(std::string_view uri);

// "" when the pair is fine, else apt's reason ("Component",
// "absolute Suite Component").
std::string_view suite_component_problem(std::string_view suite, bool has_components);

// A one-line file must hold no NUL byte, as a deb822 file may not: apt's
// reader would end the line there, and modernize could not write the entry
// as deb822. Throws aptus::Error naming the file and line.
void reject_nul_bytes(std::string_view text, const std::string& file);

// apt's rule for Signed-By, checked when the sources are read: every value
// (one-line values split at commas, deb822 ones at blanks and commas) is an
// absolute keyring path or a fingerprint (40 or 64 hex digits, '!' allowed
// at the end), or the value is an inline key block. A relative path such as
// "keys/foo.gpg" is refused, as apt refuses it. Throws aptus::Error naming
// the entry's file and line. A deb822 stanza with "Enabled: no" is not
// checked (apt does not read it).
void check_signed_by(const SourceEntry& entry);

// apt's words for "no" in an option value: no, false, without, off,
// disable, 0 (any case).
bool is_false_word(std::string_view value);

}  // namespace aptus::sources::detail
