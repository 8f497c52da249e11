// apt-get autoclean's rule: an archive in Dir::Cache::Archives stays while a
// configured repository still offers its package version (decided from the
// file name, as apt does: name_version_arch.deb with %xx quoting).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"

namespace aptus::install {

// The package, version and architecture an archive's file name gives,
// %xx-unquoted; nullopt for a name not of that shape.
struct ArchiveName {
    std::string package, version, architecture;
};
std::optional<ArchiveName> parse_archive_name(std::string_view file_name);

class ArchiveCleaner {
public:
    // APT::Architectures (else the cache's native one) and
    // APT::Clean-Installed (a version only the dpkg status knows counts as
    // no longer offered) from `config`.
    ArchiveCleaner(const config::Config& config, const cache::Cache& cache);
    // Whether autoclean keeps the file: a name of another shape, an
    // architecture not configured (none of our business), or a version a
    // repository still offers.
    bool keep(std::string_view file_name) const;

private:
    const cache::Cache& cache_;
    bool clean_installed_;
    std::vector<std::string> archs_;
};

}  // namespace aptus::install
