#include "cli/mark_auto.hpp"

#include <algorithm>

namespace aptus::cli {

void apply_mark_auto(const config::Config& config, const system::SystemUniverse& su, const cache::Cache& cache,
                     request::CommandRequest& request, Plan& plan) {
    if (!config.find_bool("APT::Get::Mark-Auto")) return;
    const std::vector<uint32_t>& named = request.request.install;
    auto is_named = [&](const cache::Package* p) {
        auto u = su.package_of(cache.index_of(*p));
        return u && std::find(named.begin(), named.end(), *u) != named.end();
    };
    for (Change& ch : plan.changes)
        if (ch.kind != ChangeKind::Remove && is_named(ch.package)) ch.automatic = true;
    std::erase_if(request.now_manual, is_named);
}

}  // namespace aptus::cli
