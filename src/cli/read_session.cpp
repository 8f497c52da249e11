#include "cli/read_session.hpp"

#include "aptus/system/system.hpp"

namespace aptus::cli {

std::unique_ptr<ReadSession> open_read_session(Context& ctx) {
    cache::OpenResult opened = system::open_cache(ctx.config, ctx.diags);
    policy::Policy policy = system::make_policy(ctx.config, opened.cache, ctx.diags);
    auto session = std::unique_ptr<ReadSession>(new ReadSession{std::move(opened), std::move(policy), nullptr});
    // Candidates keep references to the cache and policy inside the session,
    // so they are made once both have their final address.
    session->candidates = std::make_unique<system::Candidates>(session->cache(), session->policy);
    return session;
}

}  // namespace aptus::cli
