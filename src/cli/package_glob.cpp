#include "cli/package_glob.hpp"

#include <fnmatch.h>

#include "aptus/base/error.hpp"

namespace aptus::cli {

PackageGlobs::PackageGlobs(std::vector<std::string> patterns) : patterns_(std::move(patterns)) {
    for (const auto& p : patterns_)
        if (!p.empty() && (p[0] == '?' || p[0] == '~'))
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
