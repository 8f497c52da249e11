// `search` looks at one version per package (the candidate, else the newest)
// and keeps it when every term matches its name or its description (the
// whole Description text, short line included). Names are matched first, so
// the long descriptions, which live in the Translation files, are read only
// for packages a name alone does not settle.
#include "cli/commands/search_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "aptus/base/compression.hpp"
#include "aptus/deb/tagfile.hpp"

#include "aptus/base/error.hpp"
#include "aptus/system/installed_system.hpp"
#include "cli/color.hpp"
#include "cli/package_line.hpp"
#include "cli/pager.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/search_terms.hpp"
#include "cli/stdout_buffer.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec search_table[] = {
    {'n', "names-only", "APT::Cache::NamesOnly", ArgKind::Flag, "search the names only, not the descriptions"},
    {'f', "full", "APT::Cache::ShowFull", ArgKind::Flag, "show the full records of the packages found"},
    {0, "color", "APT::Color", ArgKind::Flag, "colours (the default on a terminal; --no-color, NO_COLOR: none)"},
    {0, "colour", "APT::Color", ArgKind::Flag},
    {0, "json", "Aptus::Search::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};

// Names looked at between two Cache::drop_resident_pages() calls.
constexpr uint32_t kDropEvery = 4096;

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

// The description as apt --full prints it: every line indented by two.
std::string indented(std::string_view raw) {
    while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r')) raw.remove_suffix(1);
    std::string out = "  ";
    for (char c : raw) {
        out += c;
        if (c == '\n') out += ' ';
    }
    return out;
}

// apt searches the descriptions of every language it has Translation files
// for, not only the one it shows. The cache keeps one description per
// version, so when the lists hold more than one language the Translation
// files are read here, once, into their descriptions by package name.
class OtherTranslations {
public:
    // Only the languages configured now are searched (the cache also has
    // those of Translation files left from an earlier configuration).
    OtherTranslations(const cache::Cache& c, const config::Config& config) {
        const std::vector<std::string> configured = config.find_list("Acquire::Languages");
        std::set<std::string_view> languages;
        for (uint32_t i = 0; i < c.index_files().size(); ++i) {
            const cache::IndexFile& f = c.index_files()[i];
            if (f.kind != cache::IndexKind::Translation) continue;
            if (std::find(configured.begin(), configured.end(), c.str(f.language)) == configured.end()) continue;
            languages.insert(c.str(f.language));
            paths_.emplace_back(c.str(f.path));
        }
        if (languages.size() < 2) paths_.clear();
    }
    bool empty() const { return paths_.empty(); }

    // Every description the Translation files give the name.
    const std::vector<std::string>& of(std::string_view name) {
        if (!loaded_) load();
        auto it = by_name_.find(name);
        return it == by_name_.end() ? none_ : it->second;
    }

private:
    void load() {
        loaded_ = true;
        for (const std::string& path : paths_) {
            std::string text;
            try {
                text = read_decompressed(path);
            } catch (const std::exception&) {
                continue;  // a missing or broken file says nothing; the cache's description stays
            }
            deb::TagFileReader reader(text, path, deb::TagFileOptions{.skip_malformed = true});
            deb::Stanza st;
            while (reader.next(st))
                for (const deb::Field& f : st.fields)
                    if (f.name.starts_with("Description-") && f.name != "Description-md5")
                        by_name_[std::string(st.value_or_empty("Package"))].emplace_back(f.value);
        }
    }

    std::vector<std::string> paths_;
    bool loaded_ = false;
    std::map<std::string, std::vector<std::string>, std::less<>> by_name_;
    const std::vector<std::string> none_;
};

}  // namespace

std::span<const OptionSpec> search_options() { return search_table; }

int run_search(Context& ctx) {
    const config::Config& config = ctx.config;
    if (ctx.args.empty()) throw Error("You must give at least one search pattern");
    bool json = config.find_bool("Aptus::Search::JSON");
    bool names_only = config.find_bool("APT::Cache::NamesOnly");
    bool full = config.find_bool("APT::Cache::ShowFull");
    std::vector<request::SearchTerm> terms;
    for (const auto& a : ctx.args) terms.emplace_back(a);

    // apt-cache's own search: "name - summary" lines in the order of apt's
    // cache, no progress lines.
    const bool apt_cache = config.find("Binary") == "apt-cache";
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    // apt marks what autoremove would take; only installed packages take part, so this is cheap.
    const std::vector<uint32_t> removable = system::auto_removable_packages(cache, config);
    VersionView view{cache, *session->candidates, &removable};
    Colors colors = json ? Colors::off() : Colors::for_stdout(config);

    Progress progress(config, json || apt_cache);
    progress.start("Sorting");
    progress.start("Full Text Search");
    std::vector<const cache::Version*> found;
    OtherTranslations others(cache, config);
    const auto names = cache.names();
    for (uint32_t n = 0; n < names.size(); ++n) {
        // The pass reads most of the cache and of the Translation files once
        // (their descriptions); handed back now and then, the pages read do
        // not all count at once (`found` keeps pointers, which stay valid).
        if (n % kDropEvery == kDropEvery - 1) cache.drop_resident_pages();
        std::string_view name = cache.str(names[n].name);
        // apt keeps one entry per name: the first architecture that matches.
        for (const cache::Package& p : cache.packages_of(n)) {
            auto versions = cache.versions_of(p);
            if (versions.empty()) continue;
            const cache::Version* v = session->candidates->candidate(p);
            if (!v) v = &versions[0];
            // apt searches descriptions: a version without one is never found,
            // not even by its name.
            if (v->description_file == cache::kNone && cache.str(v->short_description).empty()) continue;
            // apt-cache: a package also matches by the names it provides
            // (apt-cache search bar finds what provides bar).
            auto provides_match = [&](const request::SearchTerm& t) {
                for (const cache::Provide& pr : cache.provides_of(*v))
                    if (t.matches(cache.str(names[pr.name].name))) return true;
                return false;
            };
            // Every term within one description: the shown one, else one of
            // another language (apt matches each description on its own).
            auto matches_with = [&](auto description) {
                return apt_cache ? std::all_of(terms.begin(), terms.end(),
                                               [&](const request::SearchTerm& t) {
                                                   return t.matches(name) || provides_match(t) ||
                                                          (!names_only && t.matches(description()));
                                               })
                                 : request::all_terms_match(terms, name, names_only, description);
            };
            bool matched = matches_with([&] { return cache.long_description(*v); });
            if (!matched && !names_only && !others.empty())
                for (const std::string& d : others.of(name))
                    if ((matched = matches_with([&]() -> std::string_view { return d; }))) break;
            if (matched) {
                found.push_back(v);
                break;
            }
        }
    }
    progress.done();

    auto pager = Pager::start(config, &ctx.diags);
    if (json) {
        nlohmann::ordered_json out;
        out["schema_version"] = json_schema_version;
        auto& list = out["packages"] = nlohmann::ordered_json::array();
        for (const auto* v : found) {
            auto j = view.json(*v);
            j["architecture"] = std::string(view.shown_architecture(cache.package_of(*v)));
            j["short_description"] = std::string(cache.str(v->short_description));
            if (full) j["description"] = std::string(cache.long_description(*v));
            list.push_back(std::move(j));
        }
        std::string s = out.dump(2) + "\n";
        std::fwrite(s.data(), 1, s.size(), stdout);
        return 0;
    }
    StdoutBuffer out;
    if (apt_cache && !full) {
        // apt-cache reads the records in file order (its locality sort), so
        // the matches come in the order of the index files.
        auto position = [&](const cache::Version* v) {
            const cache::VersionFile* vf = request::record_file(cache, *v);
            return vf ? std::pair{vf->index_file, vf->offset} : std::pair{UINT32_MAX, UINT32_MAX};
        };
        std::stable_sort(found.begin(), found.end(),
                         [&](const cache::Version* a, const cache::Version* b) { return position(a) < position(b); });
        for (const auto* v : found) {
            out += cache.name_of(cache.package_of(*v));
            out += " - ";
            out += cache.str(v->short_description);
            out += '\n';
        }
        return 0;
    }
    for (const auto* v : found) {
        out += view.line(*v, colors);
        out += '\n';
        if (full) {
            out += indented(cache.long_description(*v));
        } else {
            out += "  ";
            out += cache.str(v->short_description);
        }
        out += "\n\n";
    }
    return 0;
}

}  // namespace aptus::cli
