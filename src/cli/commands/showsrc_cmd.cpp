// `showsrc` as apt 3.0's: every matching record exactly as the Sources file
// holds it, each followed by a blank line, with no colour (apt prints these
// records verbatim). A name nothing new matches gets apt's warning; none at
// all also the notice "No packages found"; neither changes the exit code.
#include "cli/commands/showsrc_cmd.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/system/system.hpp"
#include "cli/pager.hpp"
#include "cli/source_records.hpp"
#include "cli/stdout_buffer.hpp"
#include "cli/version_select.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec showsrc_table[] = {
    {0, "only-source", "APT::Cache::Only-Source", ArgKind::Flag},
    {0, "json", "Aptus::ShowSrc::JSON", ArgKind::Flag},
};

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

// A field's value as lines of text: continuation lines unfolded, and the
// empty first line of list fields (Files, Checksums-*, Package-List) dropped.
std::string field_value(std::string_view raw) {
    std::string text = deb::field_text(raw);
    if (!text.empty() && text.front() == '\n') text.erase(0, 1);
    return text;
}

// Files and Checksums-* merged into one entry per file, in the order the
// files first appear.
nlohmann::ordered_json files_json(const deb::Stanza& st) {
    static constexpr std::pair<std::string_view, std::string_view> hash_fields[] = {
        {"Files", "md5sum"},
        {"Checksums-Sha1", "sha1"},
        {"Checksums-Sha256", "sha256"},
        {"Checksums-Sha512", "sha512"},
    };
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const auto& [field, key] : hash_fields) {
        const deb::Field* f = st.find(field);
        if (!f) continue;
        std::string text = field_value(f->value);
        for (size_t pos = 0; pos < text.size();) {
            size_t nl = std::min(text.find('\n', pos), text.size());
            std::vector<std::string_view> w = split_words(std::string_view(text).substr(pos, nl - pos));
            pos = nl + 1;
            if (w.size() != 3) continue;
            std::string name(w[2]);
            nlohmann::ordered_json* entry = nullptr;
            for (auto& e : files)
                if (e["name"] == name) entry = &e;
            if (!entry) {
                nlohmann::ordered_json e;
                e["name"] = name;
                e["size"] = std::strtoull(std::string(w[1]).c_str(), nullptr, 10);
                files.push_back(std::move(e));
                entry = &files.back();
            }
            (*entry)[std::string(key)] = std::string(w[0]);
        }
    }
    return files;
}

nlohmann::ordered_json record_json(const cache::Cache& c, const SourceQuery& q, const SourceHit& h) {
    const cache::SourcePackage& s = *h.record;
    const cache::IndexFile& index = c.index_files()[s.index_file];
    std::string_view text = c.stanza(s);
    deb::TagFileReader reader(text, std::string(c.str(index.path)));
    deb::Stanza st;
    reader.next(st);

    nlohmann::ordered_json j;
    j["package"] = std::string(c.str(s.name));
    j["version"] = std::string(c.str(s.version));
    nlohmann::ordered_json binaries = nlohmann::ordered_json::array();
    for (std::string_view b : binary_names(c.str(s.binaries))) binaries.push_back(std::string(b));
    j["binaries"] = std::move(binaries);
    j["section"] = std::string(c.str(s.section));
    j["maintainer"] = std::string(c.str(s.maintainer));
    j["directory"] = std::string(c.str(s.directory));
    j["requested"] = q.argument;
    j["matched_by"] = h.by_binary ? "binary" : "source";
    j["index"] = std::string(c.str(index.description));
    j["path"] = std::string(c.str(index.path));
    j["files"] = files_json(st);
    nlohmann::ordered_json fields = nlohmann::ordered_json::object();
    for (const deb::Field& f : st.fields) fields[std::string(f.name)] = field_value(f.value);
    j["fields"] = std::move(fields);
    return j;
}

}  // namespace

std::span<const OptionSpec> showsrc_options() { return showsrc_table; }

int run_showsrc(Context& ctx) {
    bool json = ctx.config.find_bool("Aptus::ShowSrc::JSON");
    // Only the cache: showsrc needs neither the preferences nor candidates.
    cache::OpenResult opened = system::open_cache(ctx.config, ctx.diags);
    const cache::Cache& c = opened.cache;
    bool have_sources = false;
    for (const cache::IndexFile& f : c.index_files()) have_sources |= f.kind == cache::IndexKind::Sources;
    if (!have_sources) throw Error("You must put some 'deb-src' URIs in your sources.list");

    std::vector<SourceQuery> queries =
        find_source_records(c, ctx.args, ctx.config.find_bool("APT::Cache::Only-Source"));

    auto pager = Pager::start(ctx.config);
    bool found = false;
    if (json) {
        nlohmann::ordered_json doc;
        doc["version"] = json_schema_version;
        doc["sources"] = nlohmann::ordered_json::array();
        doc["not_found"] = nlohmann::ordered_json::array();
        for (const SourceQuery& q : queries) {
            for (const SourceHit& h : q.hits) doc["sources"].push_back(record_json(c, q, h));
            if (q.matched == 0) doc["not_found"].push_back(q.argument);
        }
        std::string out = doc.dump(2) + "\n";
        std::fwrite(out.data(), 1, out.size(), stdout);
    } else {
        StdoutBuffer out;
        for (const SourceQuery& q : queries) {
            for (const SourceHit& h : q.hits) {
                std::string_view text = c.stanza(*h.record);
                out += text;
                // The last record of a file may lack its line ending; apt's reader supplies it.
                if (text.empty() || text.back() != '\n') out += '\n';
                out += '\n';
            }
        }
    }
    for (const SourceQuery& q : queries) {
        if (q.hits.empty())
            ctx.diags.push_back({Level::Warning, "Unable to locate package " + q.argument});
        else
            found = true;
    }
    if (!found && effective_quiet(ctx.config) == 0) ctx.diags.push_back({Level::Notice, "No packages found"});
    return 0;
}

}  // namespace aptus::cli
