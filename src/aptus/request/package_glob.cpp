#include "aptus/request/package_glob.hpp"

#include <fnmatch.h>
#include <regex.h>

#include "aptus/base/error.hpp"

namespace aptus::request {

PackageGlobs::PackageGlobs(std::vector<std::string> words) {
    // apt list reads an argument as a glob only when it holds nothing but
    // these (so "fo?" and "bas[h]" are search patterns to it, and invalid).
    static constexpr std::string_view glob_chars =
        "*+-.:0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (auto& w : words) {
        if (w.find_first_not_of(glob_chars) != std::string::npos)
            search_.push_back(PackagePattern::parse(w));
        else
            patterns_.push_back(std::move(w));
    }
}

bool PackageGlobs::uses_garbage() const {
    for (const auto& s : search_)
        if (s.uses_garbage()) return true;
    return false;
}

bool PackageGlobs::matches(const PatternContext& ctx, const cache::Package& p) const {
    if (empty()) return true;
    for (const auto& s : search_)
        if (s.matches(ctx, p)) return true;
    return !patterns_.empty() && matches(ctx.cache.name_of(p));
}

bool PackageGlobs::matches(std::string_view name) const {
    if (patterns_.empty()) return search_.empty();
    std::string n(name);  // fnmatch needs a terminated string
    for (const auto& p : patterns_)
        if (::fnmatch(p.c_str(), n.c_str(), FNM_CASEFOLD) == 0) return true;
    return false;
}

namespace {

// Names of packages, dependency targets or provides: each is a package
// group to apt.
template <typename Match>
std::vector<uint32_t> names_where(const cache::Cache& cache, Match match) {
    std::vector<uint32_t> out;
    std::string n;
    const auto names = cache.names();
    for (uint32_t i = 0; i < names.size(); ++i) {
        n.assign(cache.str(names[i].name));
        if (match(n.c_str())) out.push_back(i);
    }
    return out;
}

}  // namespace

std::vector<uint32_t> match_package_names(const cache::Cache& cache, const std::string& pattern) {
    std::vector<uint32_t> out;
    if (pattern.find_first_of("*?[") != std::string::npos)
        out = names_where(cache, [&](const char* n) { return ::fnmatch(pattern.c_str(), n, FNM_CASEFOLD) == 0; });
    if (!out.empty() || pattern.find_first_of(".?+*|[^$") == std::string::npos) return out;
    regex_t re;
    if (int rc = ::regcomp(&re, pattern.c_str(), REG_EXTENDED | REG_ICASE | REG_NOSUB); rc != 0) {
        char msg[256];
        ::regerror(rc, &re, msg, sizeof msg);
        throw Error("Regex compilation error - " + std::string(msg));
    }
    out = names_where(cache, [&](const char* n) { return ::regexec(&re, n, 0, nullptr, 0) == 0; });
    ::regfree(&re);
    return out;
}

}  // namespace aptus::request
