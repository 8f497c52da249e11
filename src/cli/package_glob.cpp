#include "cli/package_glob.hpp"

#include <fnmatch.h>

#include "aptus/base/error.hpp"

namespace aptus::cli {

PackageGlobs::PackageGlobs(std::vector<std::string> patterns) : patterns_(std::move(patterns)) {
    // apt reads an argument holding any of these as a search pattern
    // (?installed, ~i), not as a glob; aptus does not implement those yet.
    for (const auto& p : patterns_)
        if (p.find_first_of("?~[") != std::string::npos)
            throw Error("Unsupported pattern '" + p + "': aptus does not implement apt search patterns yet");
}

bool PackageGlobs::matches(std::string_view name) const {
    if (patterns_.empty()) return true;
    std::string n(name);  // fnmatch needs a terminated string
    for (const auto& p : patterns_)
        if (::fnmatch(p.c_str(), n.c_str(), FNM_CASEFOLD) == 0) return true;
    return false;
}

}  // namespace aptus::cli
