#include "aptus/system/system.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/system/phased_updates.hpp"
#include "aptus/system/volatile_sources.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"

namespace aptus::system {
namespace {

cache::IndexKind kind_of(const sources::IndexTarget& t) {
    std::string created_by = t.option("Created-By");
    if (created_by == "Packages") return cache::IndexKind::Packages;
    if (created_by == "Sources") return cache::IndexKind::Sources;
    return cache::IndexKind::Translation;
}

// apt reads every Translation file it has for a component, not only those of
// the languages configured now (LP: #1907850: a language dropped from
// Acquire::Languages keeps its descriptions until update removes the file):
// for each Translation index read, the other Translation-<lang> files stored
// beside it under the same name are read too, after the configured ones.
void add_translations_on_disk(cache::CacheInputs& in) {
    std::set<std::string> have;
    for (const cache::IndexInput& i : in.indices) have.insert(i.path);
    // Each lists directory is listed once (this runs when any command opens
    // the cache), its file names sorted.
    std::map<std::string, std::vector<std::string>> listed;
    auto files_in = [&](const std::string& dir) -> const std::vector<std::string>& {
        auto [it, fresh] = listed.try_emplace(dir);
        if (fresh) {
            std::error_code ec;
            for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
                if (entry.is_regular_file(ec)) it->second.push_back(entry.path().filename().string());
            std::sort(it->second.begin(), it->second.end());
        }
        return it->second;
    };
    const size_t configured = in.indices.size();
    for (size_t k = 0; k < configured; ++k) {
        const cache::IndexInput base = in.indices[k];
        if (base.kind != cache::IndexKind::Translation || base.language.empty()) continue;
        const std::string name = base_name(base.path);
        const size_t at = name.rfind("Translation-" + base.language);
        if (at == std::string::npos) continue;
        const std::string prefix = name.substr(0, at) + "Translation-";
        const std::string dir = parent_dir(base.path);
        const std::vector<std::string>& files = files_in(dir);
        for (auto file = std::lower_bound(files.begin(), files.end(), prefix);
             file != files.end() && file->starts_with(prefix); ++file) {
            std::string lang = file->substr(prefix.size());
            if (size_t dot = lang.find('.'); dot != std::string::npos) lang.resize(dot);  // a compressed one
            auto path = cache::find_list_file(dir, prefix + lang);
            if (lang.empty() || !path || have.count(*path)) continue;
            have.insert(*path);
            cache::IndexInput extra = base;
            extra.path = *path;
            extra.language = lang;
            extra.replaces_packages_description = false;  // not a configured language
            extra.description = base.description.substr(0, base.description.rfind("Translation-")) + "Translation-" + lang;
            in.indices.push_back(std::move(extra));
        }
    }
}

}  // namespace

cache::CacheInputs cache_inputs(const config::Config& config, Diagnostics& diags) {
    cache::CacheInputs in;
    std::vector<sources::SourceEntry> entries = sources::read_sources(config, diags);

    // One Release per (URI, suite), InRelease preferred as apt prefers it.
    std::map<std::string, uint32_t> release_of_base;
    std::map<std::string, bool> trusted_base;
    for (const sources::ReleaseFiles& r : sources::release_files(entries, config)) {
        // apt's rule (debReleaseIndex::IsTrusted): the entry's word, else a
        // signature stored beside the Release. update keeps an InRelease or a
        // Release.gpg only after it verified them.
        trusted_base[r.base_uri] =
            r.trusted.value_or(path_exists(r.inrelease_file) || path_exists(r.release_gpg_file));
        for (const std::string& name : {r.inrelease_file, r.release_file}) {
            if (!path_exists(name)) continue;
            release_of_base[r.base_uri] = uint32_t(in.releases.size());
            in.releases.push_back({name});
            break;
        }
    }

    // The languages configured before English: their descriptions are shown
    // instead of the Packages' own (which is English).
    std::set<std::string> before_english;
    for (const std::string& l : config.find_list("Acquire::Languages")) {
        if (l == "en") break;
        before_english.insert(l);
    }
    for (const sources::IndexTarget& t : sources::index_targets(entries, config, diags)) {
        std::string created_by = t.option("Created-By");
        if (created_by != "Packages" && created_by != "Sources" && created_by != "Translations") continue;
        auto found = cache::find_list_file(parent_dir(t.filename), base_name(t.filename));
        if (!found) continue;
        cache::IndexInput i;
        i.path = *found;
        i.kind = kind_of(t);
        auto rel = release_of_base.find(t.option("Base-URI"));
        i.release = rel == release_of_base.end() ? cache::kNone : rel->second;
        i.component = t.option("Component");
        i.architecture = i.kind == cache::IndexKind::Packages ? t.option("Architecture") : "";
        i.language = t.option("Language");
        i.replaces_packages_description = i.kind == cache::IndexKind::Translation && before_english.count(i.language);
        i.site = sources::uri_host(t.option("Repo-URI"));
        i.description = t.description;
        auto trust = trusted_base.find(t.option("Base-URI"));
        i.trusted = trust != trusted_base.end() && trust->second;
        in.indices.push_back(std::move(i));
    }
    add_translations_on_disk(in);

    // Files given for this run (--with-source, ./foo.deb) come first: a
    // version they share with a repository is theirs.
    VolatileInputs given = volatile_inputs(config, uint32_t(in.releases.size()));
    in.releases.insert(in.releases.end(), given.releases.begin(), given.releases.end());
    in.indices.insert(in.indices.begin(), given.indices.begin(), given.indices.end());

    in.status_path = config.find_file("Dir::State::status");
    std::string ext = config.find_file("Dir::State::extended_states");
    in.extended_states_path = ext;
    in.native_architecture = config.find("APT::Architecture");
    // What else changes the cache's content: the architectures and languages
    // decide which files are read (and are part of the inputs already); the
    // native architecture decides where "all" packages are filed.
    in.fingerprint = "native=" + in.native_architecture;
    // The order of the languages decides which description a version shows.
    in.fingerprint += " languages=";
    for (const std::string& l : config.find_list("Acquire::Languages")) in.fingerprint += l + ",";
    return in;
}

std::string cache_path(const config::Config& config) {
    if (config.exists("Dir::Cache::aptus")) return config.find_file("Dir::Cache::aptus");
    return config.find_dir("Dir::Cache") + "aptus.bin";
}

cache::OpenResult open_cache(const config::Config& config, Diagnostics& diags) {
    cache::CacheInputs inputs = cache_inputs(config, diags);
    if (std::any_of(inputs.indices.begin(), inputs.indices.end(),
                    [](const cache::IndexInput& i) { return i.from_command_line; })) {
        // A cache for this run only: the file stays the configured sources'.
        cache::BuildResult built = cache::build_cache(inputs);
        diags.insert(diags.end(), built.diagnostics.begin(), built.diagnostics.end());
        return {cache::Cache::from_image(std::move(built.image)), cache::CacheOrigin::InMemory,
                "files given on the command line", {}};
    }
    cache::OpenResult result = cache::open_or_build(inputs, cache_path(config));
    diags.insert(diags.end(), result.diagnostics.begin(), result.diagnostics.end());
    result.diagnostics.clear();
    return result;
}

std::vector<policy::FileFacts> file_facts(const cache::Cache& cache) {
    std::vector<policy::FileFacts> out;
    out.reserve(cache.index_files().size());
    for (const cache::IndexFile& f : cache.index_files()) {
        policy::FileFacts facts;
        facts.release.is_status = f.kind == cache::IndexKind::Status;
        if (facts.release.is_status) facts.release.archive = "now";  // as apt names it
        facts.release.component = cache.str(f.component);
        facts.release.architecture = cache.str(f.architecture);
        facts.release.site = cache.str(f.site);
        if (f.release != cache::kNone) {
            const cache::Release& r = cache.releases()[f.release];
            facts.release.archive = cache.str(r.suite);
            facts.release.codename = cache.str(r.codename);
            facts.release.version = cache.str(r.version);
            facts.release.origin = cache.str(r.origin);
            facts.release.label = cache.str(r.label);
            facts.not_automatic = r.flags & cache::kReleaseNotAutomatic;
            facts.but_automatic_upgrades = r.flags & cache::kReleaseButAutomaticUpgrades;
        }
        out.push_back(facts);
    }
    return out;
}

policy::Policy make_policy(const config::Config& config, const cache::Cache& cache, Diagnostics& diags) {
    std::string target = config.find("APT::Default-Release");
    policy::Policy policy(policy::read_preferences(config, diags), target);
    policy.set_phasing(phasing_from_config(config));
    if (!target.empty()) {
        bool known = false;
        for (const policy::FileFacts& f : file_facts(cache)) known = known || policy.is_target_release(f);
        if (!known)
            throw Error("The value '" + target +
                        "' is invalid for APT::Default-Release as such a release is not available in the sources");
    }
    return policy;
}

std::unique_ptr<OpenSystem> open_system(const config::Config& config, Diagnostics& diags) {
    cache::OpenResult opened = open_cache(config, diags);
    policy::Policy policy = make_policy(config, opened.cache, diags);
    auto open = std::unique_ptr<OpenSystem>(new OpenSystem{std::move(opened), std::move(policy), nullptr});
    // Made once the cache and the policy have their final address.
    open->candidates = std::make_unique<Candidates>(open->cache(), open->policy);
    return open;
}

}  // namespace aptus::system
