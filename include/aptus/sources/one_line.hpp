// The one-line format of sources.list and sources.list.d/*.list:
//   deb [ key=value key+=v1,v2 key-=v ] uri suite [component...]   # comment
// '#' starts a comment anywhere outside the option brackets; a word may be
// "double quoted" to hold spaces. A suite ending in '/' is a flat repository
// and takes no components. Errors are aptus::Error "file:line: ...".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

// nullopt for blank and comment lines.
std::optional<SourceEntry> parse_one_line(std::string_view line, const std::string& file, unsigned line_no);
std::vector<SourceEntry> parse_one_line_file(std::string_view text, const std::string& file);

}  // namespace aptus::sources
