// Package-name arguments as apt reads them when they name no package:
// shell globs (list, and apt-cache depends/rdepends), apt's search patterns
// (list), and for apt-cache also POSIX extended regular expressions, matched
// case-insensitively against the bare package name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/request/package_pattern.hpp"

namespace aptus::request {

class PackageGlobs {
public:
    // No words matches everything (apt list with no argument). A word with
    // any character but letters, digits and "*+-.:" is a search pattern to
    // apt list (?installed, ~i; "bas[h]" too, which is then no valid
    // pattern): it is parsed here, and a bad one throws aptus::Error with
    // apt's message.
    explicit PackageGlobs(std::vector<std::string> words);

    // The globs alone, on a name (false for a pattern-only list).
    bool matches(std::string_view name) const;
    // A glob on the package's name, or a pattern on the package.
    bool matches(const PatternContext& ctx, const cache::Package& p) const;
    bool empty() const { return patterns_.empty() && search_.empty(); }
    // A pattern asks for ?garbage: the caller must fill PatternContext::garbage.
    bool uses_garbage() const;

private:
    std::vector<std::string> patterns_;  // shell globs
    std::vector<PackagePattern> search_;
};

// apt-cache's fallbacks for a word that is no package name: the names
// (indices into cache.names()) the shell glob matches, else, when it
// matched none, those the regular expression finds anywhere in the name.
// Empty when the word has neither glob nor regular expression characters.
// Throws aptus::Error for a bad expression. The callers read apt search
// patterns (is_pattern_word) themselves first.
std::vector<uint32_t> match_package_names(const cache::Cache& cache, const std::string& pattern);

}  // namespace aptus::request
