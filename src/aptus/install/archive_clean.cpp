#include "aptus/install/archive_clean.hpp"

#include <algorithm>

namespace aptus::install {
namespace {

// "%3a" and friends back to bytes, as apt reads archive names.
std::string dequote(std::string_view s) {
    auto hexval = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += char(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

}  // namespace

std::optional<ArchiveName> parse_archive_name(std::string_view name) {
    size_t u1 = name.find('_');
    if (u1 == std::string_view::npos) return std::nullopt;
    size_t u2 = name.find('_', u1 + 1);
    if (u2 == std::string_view::npos) return std::nullopt;
    size_t dot = name.find('.', u2 + 1);
    if (dot == std::string_view::npos) return std::nullopt;
    return ArchiveName{dequote(name.substr(0, u1)), dequote(name.substr(u1 + 1, u2 - u1 - 1)),
                       dequote(name.substr(u2 + 1, dot - u2 - 1))};
}

ArchiveCleaner::ArchiveCleaner(const config::Config& config, const cache::Cache& cache)
    : cache_(cache),
      clean_installed_(config.find_bool("APT::Clean-Installed", true)),
      archs_(config.find_list("APT::Architectures")) {
    if (archs_.empty()) archs_.push_back(std::string(cache.native_architecture()));
}

bool ArchiveCleaner::keep(std::string_view file_name) const {
    std::optional<ArchiveName> n = parse_archive_name(file_name);
    if (!n) return true;
    if (n->architecture != "all" && std::find(archs_.begin(), archs_.end(), n->architecture) == archs_.end()) return true;
    const cache::Package* p = cache_.find_package(
        n->package, n->architecture == "all" ? cache_.native_architecture() : std::string_view(n->architecture));
    if (!p) return false;
    for (const auto& v : cache_.versions_of(*p)) {
        if (cache_.str(v.version) != n->version) continue;
        for (const auto& f : cache_.files_of(v))
            if (!clean_installed_ || cache_.index_files()[f.index_file].kind != cache::IndexKind::Status) return true;
    }
    return false;
}

}  // namespace aptus::install
