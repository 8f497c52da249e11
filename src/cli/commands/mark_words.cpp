#include "cli/commands/mark_words.hpp"

#include <algorithm>

#include "aptus/base/error.hpp"
#include "aptus/system/installed_system.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/package_glob.hpp"
#include "aptus/request/package_pattern.hpp"

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

// In apt's cache order, as apt-mark lists what a glob or pattern selects.
void sort_by_apt_hash(const cache::Cache& c, std::vector<uint32_t>& names) {
    std::sort(names.begin(), names.end(), [&](uint32_t a, uint32_t b) {
        return request::apt_hash_key(c.str(c.names()[a].name)) < request::apt_hash_key(c.str(c.names()[b].name));
    });
}

}  // namespace

MarkWords resolve_mark_words(const cache::Cache& cache, const system::Candidates& candidates,
                             const config::Config& config, std::span<const std::string> words) {
    MarkWords out;
    auto syntax_error = [&](std::string message) {
        out.errors.push_back(message);
        out.syntax_errors.push_back(std::move(message));
    };
    for (const std::string& word : words) {
        if (by_name(cache, word, out.targets)) continue;
        if (request::is_pattern_word(word)) {
            // A pattern that selects nothing is no error of its own; one
            // that does not parse is then read as a glob and a regex, as apt does.
            try {
                request::PackagePattern pattern = request::PackagePattern::parse(word);
                std::vector<uint32_t> garbage;
                if (pattern.uses_garbage()) garbage = system::auto_removable_packages(cache, config);
                std::vector<request::PatternMatch> matches = request::packages_matching({cache, candidates, &garbage}, pattern);
                auto key = [&](const request::PatternMatch& m) { return request::apt_hash_key(cache.str(cache.names()[m.name].name)); };
                std::stable_sort(matches.begin(), matches.end(),
                                 [&](const request::PatternMatch& a, const request::PatternMatch& b) { return key(a) < key(b); });
                for (const request::PatternMatch& m : matches)
                    out.targets.push_back(m.package ? MarkTarget{display_name(cache, *m.package), m.package}
                                                    : preferred(cache, m.name));
                continue;
            } catch (const Error& e) {
                syntax_error(e.what());
            }
        }
        std::vector<uint32_t> names;
        std::string regex_error;
        try {
            names = request::match_package_names(cache, word);
        } catch (const Error& e) {
            regex_error = e.what();
        }
        if (!names.empty()) {
            sort_by_apt_hash(cache, names);
            for (uint32_t n : names) out.targets.push_back(preferred(cache, n));
            continue;
        }
        out.errors.push_back("Unable to locate package " + word);
        if (word.find_first_of(".?*[]!") != std::string::npos)
            out.errors.push_back("Couldn't find any package by glob '" + word + "'");
        if (!regex_error.empty()) syntax_error(regex_error);
        if (word.find_first_of(".?+*|[^$") != std::string::npos)
            out.errors.push_back("Couldn't find any package by regex '" + word + "'");
    }
    return out;
}

}  // namespace aptus::cli
