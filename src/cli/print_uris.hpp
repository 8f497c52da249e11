// --print-uris (APT::Get::Print-URIs): apt's "'URI' name size hash" lines on
// stdout, printed even with -qq, in place of a fetch.
#pragma once

#include <string>
#include <vector>

#include "aptus/acquire/print_uris.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "cli/plan_format.hpp"

namespace aptus::cli {

bool print_uris_wanted(const config::Config& config);

void print_uri_lines(const std::vector<acquire::UriLine>& lines);

// install, upgrade and friends: the archives the plan would fetch into
// `directory` (one already there with the right size and hash is not
// fetched, so not listed), in the plan's order, each with its MD5Sum as
// apt-get install shows it.
void print_archive_uris(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Version*>& versions, const std::string& directory);

// The archives of a plan's installs, upgrades and reinstalls, against
// Dir::Cache::Archives. Returns the exit status (0).
int print_plan_uris(const config::Config& config, const cache::Cache& cache, const install::Plan& plan);

}  // namespace aptus::cli
