#include "cli/commands/mark_words.hpp"

#include <algorithm>

#include "cli/apt_hash_order.hpp"
#include "cli/package_glob.hpp"

namespace aptus::cli {
namespace {

std::string display_name(const cache::Cache& c, const cache::Package& p) {
    std::string name(c.name_of(p));
    std::string_view arch = c.str(p.architecture);
    if (arch != c.native_architecture()) name += ":" + std::string(arch);
    return name;
}

// apt's preferred package of a name: the native architecture's, else the
// first that has versions, else the first.
MarkTarget preferred(const cache::Cache& c, uint32_t name_index) {
    auto packages = c.packages_of(name_index);
    std::string name(c.str(c.names()[name_index].name));
    for (const auto& p : packages)
        if (c.str(p.architecture) == c.native_architecture()) return {display_name(c, p), &p};
    for (const auto& p : packages)
        if (p.version_count > 0) return {display_name(c, p), &p};
    if (!packages.empty()) return {display_name(c, packages.front()), &packages.front()};
    return {name, nullptr};
}

// "pkg" or "pkg:arch" ("all" and "any" stand for the preferred package);
// false when the cache knows no such name.
bool by_name(const cache::Cache& c, const std::string& word, std::vector<MarkTarget>& out) {
    size_t colon = word.rfind(':');
    std::string name = colon == std::string::npos ? word : word.substr(0, colon);
    std::string arch = colon == std::string::npos ? "" : word.substr(colon + 1);
    auto index = c.find_name(name);
    if (!index) return false;
    if (arch.empty() || arch == "all" || arch == "any" || arch == "native") {
        out.push_back(preferred(c, *index));
        return true;
    }
    const cache::Package* p = c.find_package(name, arch);
    if (p == nullptr) return false;
    out.push_back({display_name(c, *p), p});
    return true;
}

}  // namespace

MarkWords resolve_mark_words(const cache::Cache& cache, std::span<const std::string> words) {
    MarkWords out;
    for (const std::string& word : words) {
        if (by_name(cache, word, out.targets)) continue;
        std::vector<uint32_t> names = match_package_names(cache, word);
        if (!names.empty()) {
            std::sort(names.begin(), names.end(), [&](uint32_t a, uint32_t b) {
                return apt_hash_key(cache.str(cache.names()[a].name)) < apt_hash_key(cache.str(cache.names()[b].name));
            });
            for (uint32_t n : names) out.targets.push_back(preferred(cache, n));
            continue;
        }
        out.errors.push_back("Unable to locate package " + word);
        if (word.find_first_of(".?*[]!") != std::string::npos)
            out.errors.push_back("Couldn't find any package by glob '" + word + "'");
        if (word.find_first_of(".?+*|[^$") != std::string::npos)
            out.errors.push_back("Couldn't find any package by regex '" + word + "'");
    }
    return out;
}

}  // namespace aptus::cli
