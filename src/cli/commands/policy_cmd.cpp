// Without arguments, the package files and the pinned packages; with package
// names, each one's installed version, candidate and version table. Names
// that match nothing are skipped silently, as apt 2.6 does.
#include "cli/commands/policy_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "aptus/request/package_glob.hpp"
#include "aptus/request/package_pattern.hpp"
#include "cli/pager.hpp"
#include "cli/policy_format.hpp"
#include "cli/read_session.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec policy_table[] = {
    {'t', "target-release", "APT::Default-Release", ArgKind::Value, "prefer the versions of this release (archive, codename or version), as APT::Default-Release", "RELEASE"},
    {0, "default-release", "APT::Default-Release", ArgKind::Value, "", "RELEASE"},
    {0, "json", "Aptus::Policy::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// A package apt knows without versions, as apt names it: ":arch" only for
// a foreign architecture.
std::string virtual_name(const cache::Cache& cache, std::string_view word) {
    size_t colon = word.find(':');
    if (colon == std::string_view::npos) return std::string(word);
    std::string_view arch = word.substr(colon + 1);
    if (arch == cache.native_architecture() || arch == "native" || arch == "all" || arch == "any")
        return std::string(word.substr(0, colon));
    return std::string(word);
}

}  // namespace

std::span<const OptionSpec> policy_options() { return policy_table; }

int run_policy(Context& ctx) {
    // apt-cache shows warnings but not notices, so the notices of reading
    // preferences.d (a file name it skips) stay unsaid, as with apt.
    size_t diags_before = ctx.diags.size();
    auto drop_notices = [&] {
        auto first_new = ctx.diags.begin() + std::ptrdiff_t(diags_before);
        ctx.diags.erase(
            std::remove_if(first_new, ctx.diags.end(), [](const Diagnostic& d) { return d.level == Level::Notice; }),
            ctx.diags.end());
    };
    std::unique_ptr<ReadSession> session;
    try {
        session = open_read_session(ctx);
    } catch (...) {
        drop_notices();
        throw;
    }
    drop_notices();
    const cache::Cache& cache = session->cache();
    const system::Candidates& candidates = *session->candidates;
    // apt search patterns stand for the packages they select (?garbage: none).
    const std::vector<std::string> words = request::expand_pattern_words({cache, candidates, nullptr}, ctx.args);
    bool json = ctx.config.find_bool("Aptus::Policy::JSON");
    auto pager = Pager::start(ctx.config, &ctx.diags);

    if (json) {
        nlohmann::ordered_json doc;
        // Every command's envelope names it schema_version; "version" is
        // the old name, kept until the schema's next version.
        doc["schema_version"] = json_schema_version;
        doc["version"] = json_schema_version;
        if (ctx.args.empty()) {
            nlohmann::ordered_json files = json_file_list(cache, candidates);
            for (auto& [k, v] : files.items()) doc[k] = v;
        } else {
            doc["packages"] = nlohmann::ordered_json::array();
            for (const std::string& word : words) {
                bool known = false;
                const cache::Package* p = resolve_package(cache, word, known);
                if (!p && !known) continue;
                doc["packages"].push_back(json_package(cache, candidates, p, p ? pretty_name(cache, *p) : virtual_name(cache, word)));
            }
        }
        print(doc.dump(2) + "\n");
        return 0;
    }

    if (ctx.args.empty()) {
        print(format_file_list(cache, candidates));
        return 0;
    }
    std::string out;
    for (const std::string& word : words) {
        bool known = false;
        const cache::Package* p = resolve_package(cache, word, known);
        // apt 3.0 notes a name it has never heard of (in any architecture:
        // "name:arch" of a known name is passed over in silence, as apt 2.6).
        const bool unheard = !p && !known && !cache.find_name(std::string_view(word).substr(0, word.find(':')));
        // apt-cache's fallback for a word that names nothing: a glob, else a
        // regular expression over the names ("^cool.*"), each name's
        // preferred package.
        if (unheard) {
            std::vector<uint32_t> matched = request::match_package_names(cache, word);
            for (uint32_t n : matched) {
                bool known_n = false;
                std::string_view name = cache.str(cache.names()[n].name);
                if (const cache::Package* mp = resolve_package(cache, name, known_n))
                    out += format_package(cache, candidates, mp, pretty_name(cache, *mp));
            }
            if (!matched.empty()) continue;
            ctx.diags.push_back({Level::Notice, "Unable to locate package " + word});
        }
        if (!p && !known) continue;
        out += format_package(cache, candidates, p, p ? pretty_name(cache, *p) : virtual_name(cache, word));
    }
    print(out);
    return 0;
}

}  // namespace aptus::cli
