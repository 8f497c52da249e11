// apt-cache pkgnames: the names that have a package with versions, in the
// order apt walks its name hash table; with a prefix only the names that
// start with it. --all-names (APT::Cache::AllNames) lists every name apt
// knows: those only dependencies, provides or Source fields mention too.
// A name counts when apt's first record of it has versions: its native
// record, else its first other one.
#include "cli/commands/pkgnames_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unordered_set>

#include "aptus/base/error.hpp"
#include "aptus/system/system.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/apt_records.hpp"

namespace aptus::cli {
namespace {

bool has_versions(const cache::Cache& c, uint32_t name) {
    std::string_view native = c.native_architecture();
    if (const cache::Package* p = request::package_for_arch(c, name, native)) return p->version_count > 0;
    if (request::apt_has_record(c, name, native)) return false;
    for (const auto& p : c.packages_of(name))
        if (p.version_count > 0) return true;
    return false;
}

}  // namespace

int run_pkgnames(Context& ctx) {
    // Aptus::Cache::NoBuild (the shell's completion): the cache file as it
    // is, or nothing; a TAB must not wait for a build.
    std::optional<cache::Cache> as_is;
    std::optional<cache::OpenResult> opened;
    if (ctx.config.find_bool("Aptus::Cache::NoBuild")) {
        try {
            as_is.emplace(cache::Cache::open(system::cache_path(ctx.config)));
        } catch (const Error&) {
            return 0;
        }
    } else {
        opened.emplace(system::open_cache(ctx.config, ctx.diags));
    }
    const cache::Cache& c = as_is ? *as_is : opened->cache;
    bool all = ctx.config.find_bool("APT::Cache::AllNames", false);
    std::string_view prefix = ctx.args.empty() ? std::string_view() : std::string_view(ctx.args[0]);

    std::vector<std::string_view> names;
    for (uint32_t i = 0; i < c.names().size(); ++i)
        if (all || has_versions(c, i)) names.push_back(c.str(c.names()[i].name));
    if (all) {
        // apt makes a name of each Source field too.
        std::unordered_set<std::string_view> seen(names.begin(), names.end());
        for (const auto& v : c.versions()) {
            std::string_view src = c.str(v.source_name);
            if (!src.empty() && seen.insert(src).second) names.push_back(src);
        }
    }
    std::erase_if(names, [&](std::string_view n) { return !n.starts_with(prefix); });
    std::vector<request::AptHashKey> keys;
    keys.reserve(names.size());
    for (auto n : names) keys.push_back(request::apt_hash_key(n));
    std::sort(keys.begin(), keys.end());
    std::string out;
    for (const auto& k : keys) {
        out += k.name;
        out += '\n';
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace aptus::cli
