// Package-name arguments of list (and later other commands): shell globs,
// matched case-insensitively against the bare package name as apt does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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

}  // namespace aptus::cli
