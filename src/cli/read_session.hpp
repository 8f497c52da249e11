// What every read command (policy, show, list, search, showsrc, depends,
// rdepends) starts from: the cache opened or rebuilt, the policy, and every
// package's candidate. Built once per run; the commands only read it.
#pragma once

#include <memory>

#include "aptus/cache/build.hpp"
#include "aptus/policy/policy.hpp"
#include "aptus/system/candidates.hpp"
#include "cli/command.hpp"

namespace aptus::cli {

struct ReadSession {
    cache::OpenResult opened;
    policy::Policy policy;
    std::unique_ptr<system::Candidates> candidates;

    const cache::Cache& cache() const { return opened.cache; }
};

// Opens the cache for the configuration of `ctx`; notices go to ctx.diags.
std::unique_ptr<ReadSession> open_read_session(Context& ctx);

}  // namespace aptus::cli
