// Package-name arguments as apt reads them when they name no package:
// shell globs (list, and apt-cache depends/rdepends), and for apt-cache
// also POSIX extended regular expressions, matched case-insensitively
// against the bare package name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"

namespace aptus::cli {

class PackageGlobs {
public:
    // No patterns matches everything (apt list with no argument). Throws
    // aptus::Error for what apt reads as a search pattern (any '?', '~' or
    // '[', e.g. ?installed, ~i), which aptus does not implement yet, rather
    // than treating it as a glob.
    explicit PackageGlobs(std::vector<std::string> patterns);

    bool matches(std::string_view name) const;
    bool empty() const { return patterns_.empty(); }

private:
    std::vector<std::string> patterns_;
};

// apt-cache's fallbacks for a word that is no package name: the names
// (indices into cache.names()) the shell glob matches, else, when it
// matched none, those the regular expression finds anywhere in the name.
// Empty when the word has neither glob nor regular expression characters.
// Throws aptus::Error for an apt search pattern (a word starting with '?'
// or '~'), which aptus does not implement yet, and for a bad expression.
std::vector<uint32_t> match_package_names(const cache::Cache& cache, const std::string& pattern);

}  // namespace aptus::cli
