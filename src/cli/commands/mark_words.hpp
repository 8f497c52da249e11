// The package words of apt-mark as apt's cache sets read them: a name
// ("pkg", "pkg:arch"), else a shell glob, else a regular expression; what
// matches many comes in apt's cache order; what matches nothing gets
// apt-mark's error lines.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"

namespace aptus::cli {

struct MarkTarget {
    std::string name;                       // as apt-mark prints it: "pkg", "pkg:i386" for a foreign one
    const cache::Package* package = nullptr;  // nullptr: a name no package of the native architecture has
};

struct MarkWords {
    std::vector<MarkTarget> targets;  // in word order, duplicates kept (apt-mark keeps them)
    std::vector<std::string> errors;  // apt's lines, without "E: "
};

MarkWords resolve_mark_words(const cache::Cache& cache, std::span<const std::string> words);

}  // namespace aptus::cli
