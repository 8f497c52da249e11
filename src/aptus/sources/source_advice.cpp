#include "aptus/sources/source_advice.hpp"

#include <set>
#include <string_view>

#include "aptus/sources/index_targets.hpp"

namespace aptus::sources {
namespace {

// apt reads one entry per meta index: the first of each (URI, suite).
std::vector<const SourceEntry*> meta_indices(const std::vector<SourceEntry>& entries) {
    std::vector<const SourceEntry*> out;
    std::set<std::string> seen;
    for (const SourceEntry& e : entries)
        if (e.enabled && seen.insert(meta_index_key(e)).second) out.push_back(&e);
    return out;
}

bool has_userinfo(std::string_view uri) {
    size_t scheme = uri.find("://");
    if (scheme == std::string_view::npos) return false;
    std::string_view authority = uri.substr(scheme + 3);
    authority = authority.substr(0, authority.find('/'));
    return authority.find('@') != std::string_view::npos;
}

// The methods known to send what a URI's user:password says; apt cannot
// tell for other "+http"-style methods and stays quiet about them.
bool sends_credentials(std::string_view uri) {
    std::string_view scheme = uri.substr(0, uri.find(':'));
    for (std::string_view m : {"http", "https", "tor+http", "tor+https", "ftp"})
        if (scheme == m) return true;
    return false;
}

}  // namespace

std::vector<SourceAdvice> source_advice(const std::vector<SourceEntry>& entries, const config::Config& config,
                                        std::string_view program) {
    std::vector<SourceAdvice> out;
    const bool all = config.find_bool("APT::Get::Update::SourceListWarnings", true);
    const std::vector<const SourceEntry*> metas = meta_indices(entries);
    if (config.find_bool("APT::Get::Update::SourceListWarnings::APTAuth", all))
        for (const SourceEntry* e : metas)
            if (has_userinfo(e->uri) && sends_credentials(e->uri))
                out.push_back({SourceAdvice::Notice,
                               "Usage of apt_auth.conf(5) should be preferred over embedding login information "
                               "directly in the sources.list(5) entry for '" + archive_site(e->uri) + "'"});
    if (!config.find_bool("APT::Get::Update::SourceListWarnings::SignedBy", all)) return out;
    bool modernize = false;
    for (const SourceEntry* e : metas) {
        const std::string site = archive_site(e->uri);
        if (!e->deb822)
            out.push_back({SourceAdvice::Audit,
                           "The sources.list(5) entry for '" + site + "' should be upgraded to deb822 .sources"});
        if (e->option("signed-by")) continue;
        const std::string missing = "Missing Signed-By in the sources.list(5) entry for '" + site + "'";
        // A .sources entry can say Signed-By today: a notice. A one-line
        // entry is better moved to .sources first, which modernize does.
        out.push_back({e->deb822 ? SourceAdvice::Notice : SourceAdvice::Audit, missing});
        if (!e->deb822) modernize = true;
    }
    if (modernize) {
        out.push_back({SourceAdvice::Audit, "Consider migrating all sources.list(5) entries to the deb822 .sources format"});
        out.push_back({SourceAdvice::Audit,
                       "The deb822 .sources format supports both embedded as well as external OpenPGP keys"});
        out.push_back({SourceAdvice::Audit, "See apt-secure(8) for best practices in configuring repository signing."});
        out.push_back({SourceAdvice::Audit,
                       "Some sources can be modernized. Run '" + std::string(program) + " modernize-sources' to do so."});
    }
    return out;
}

}  // namespace aptus::sources
