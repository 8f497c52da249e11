// Checks both source formats share: what apt accepts as a URI, and the rule
// that ties components to flat and non-flat suites. Private to sources/.
#pragma once

#include <string>
#include <string_view>

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

}  // namespace aptus::sources::detail
