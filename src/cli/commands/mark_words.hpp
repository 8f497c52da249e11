// The package words of apt-mark as apt's cache sets read them: a name
// ("pkg", "pkg:arch"), an apt search pattern (a word starting with '?' or
// '~'), else a shell glob, else a regular expression; what matches many
// comes in apt's cache order; what matches nothing gets apt-mark's error
// lines.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::cli {

struct MarkTarget {
    std::string name;                       // as apt-mark prints it: "pkg", "pkg:i386" for a foreign one
    const cache::Package* package = nullptr;  // nullptr: a name no package of the native architecture has
};

struct MarkWords {
    std::vector<MarkTarget> targets;  // in word order, duplicates kept (apt-mark keeps them)
    std::vector<std::string> errors;  // apt's lines, without "E: "
    // The errors about the words themselves (a bad pattern or regular
    // expression): apt-mark's show commands print these, and no others.
    std::vector<std::string> syntax_errors;
};

// `candidates` and `config` serve the patterns (?upgradable, ?garbage).
MarkWords resolve_mark_words(const cache::Cache& cache, const system::Candidates& candidates,
                             const config::Config& config, std::span<const std::string> words);

}  // namespace aptus::cli
