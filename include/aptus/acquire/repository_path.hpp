// Whether a path from an index (a Packages Filename, a Sources Directory)
// names a file under the repository's URI: relative, without a scheme and
// without a ".." step. Anything else would fetch from outside the repository
// (another host, a local file, a parent directory) what the signed index
// never vouched to be part of it.
#pragma once

#include <string>
#include <string_view>

namespace aptus::acquire {

bool is_repository_path(std::string_view path);

// The path as apt's http method sends it, %-quoted: everything but letters,
// digits and "-._/" (so "~" is "%7e", "+" is "%2b", a "%" in a name "%25").
std::string http_quoted_path(std::string_view path);

}  // namespace aptus::acquire
