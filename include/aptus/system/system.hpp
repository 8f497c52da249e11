// Where the modules meet: the configuration and the sources decide which
// list files the cache is built from, and the cache's release data feeds the
// policy. Front ends call these three functions instead of wiring the
// modules themselves.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/build.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/cache/inputs.hpp"
#include "aptus/config/config.hpp"
#include "aptus/policy/policy.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::system {

// The cache's inputs: the Release files and the Packages, Sources and
// Translation files of every enabled source that are present in
// Dir::State::lists (in any compression), the dpkg status, extended_states,
// and a fingerprint of the configuration that shapes the cache.
cache::CacheInputs cache_inputs(const config::Config& config, Diagnostics& diags);

// Dir::Cache::aptus, by default "aptus.bin" under Dir::Cache: aptus's own
// file beside apt's pkgcache.bin.
std::string cache_path(const config::Config& config);

// The cache, reused when nothing changed, else rebuilt (in memory where
// Dir::Cache is not writable).
cache::OpenResult open_cache(const config::Config& config, Diagnostics& diags);

// The policy facts of every index file of the cache, by index file id.
std::vector<policy::FileFacts> file_facts(const cache::Cache& cache);

// Preferences, and APT::Default-Release checked against the cache's
// releases (apt's error when no release matches).
policy::Policy make_policy(const config::Config& config, const cache::Cache& cache, Diagnostics& diags);

// The system as every command reads it: the cache opened (or rebuilt), the
// policy, and every package's candidate. Held by pointer: the candidates
// refer to the cache and the policy inside it.
struct OpenSystem {
    cache::OpenResult opened;
    policy::Policy policy;
    std::unique_ptr<Candidates> candidates;

    const cache::Cache& cache() const { return opened.cache; }
};
std::unique_ptr<OpenSystem> open_system(const config::Config& config, Diagnostics& diags);

}  // namespace aptus::system
