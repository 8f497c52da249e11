// `showsrc` as apt 3.0's: every matching record exactly as the Sources file
// holds it, each followed by a blank line, with no colour (apt prints these
// records verbatim). A name nothing new matches gets apt's warning; none at
// all also the notice "No packages found"; neither changes the exit code.
#include "cli/commands/showsrc_cmd.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/system/system.hpp"
#include "cli/pager.hpp"
#include "cli/source_records.hpp"
#include "cli/stdout_buffer.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec showsrc_table[] = {
    {0, "only-source", "APT::Cache::Only-Source", ArgKind::Flag, "take the names as source package names only"},
    {0, "json", "Aptus::ShowSrc::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
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

nlohmann::ordered_json record_json(const SourcesText& file, const SourceQuery& q, const SourceHit& h) {
    deb::TagFileReader reader(h.text, file.path, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza st;
    reader.next(st);

    nlohmann::ordered_json j;
    j["package"] = std::string(st.value_or_empty("Package"));
    j["version"] = std::string(st.value_or_empty("Version"));
    nlohmann::ordered_json binaries = nlohmann::ordered_json::array();
    for (std::string_view b : binary_names(st.value_or_empty("Binary"))) binaries.push_back(std::string(b));
    j["binaries"] = std::move(binaries);
    j["section"] = std::string(st.value_or_empty("Section"));
    j["maintainer"] = std::string(st.value_or_empty("Maintainer"));
    j["directory"] = std::string(st.value_or_empty("Directory"));
    j["requested"] = q.argument;
    j["matched_by"] = h.by_binary ? "binary" : "source";
    j["index"] = file.description;
    j["path"] = file.path;
    j["files"] = files_json(st);
    nlohmann::ordered_json fields = nlohmann::ordered_json::object();
    for (const deb::Field& f : st.fields) fields[std::string(f.name)] = field_value(f.value);
    j["fields"] = std::move(fields);
    return j;
}

// The records showsrc may print, from the package cache's index of the
// Sources files (sorted by source name) rather than a pass over all of
// them: those whose Package is an argument's name, and those whose Binary
// value mentions one (an exact reading of the field follows in
// select_source_records). In reading order: the files in the order of the
// sources, each from top to bottom, as apt reads them.
class IndexedSources {
public:
    IndexedSources(const cache::Cache& c, std::span<const std::string> arguments, bool only_source) {
        std::vector<uint32_t> file_of(c.index_files().size(), UINT32_MAX);
        for (uint32_t i = 0; i < c.index_files().size(); ++i) {
            const cache::IndexFile& f = c.index_files()[i];
            if (f.kind != cache::IndexKind::Sources) continue;
            file_of[i] = uint32_t(files_.size());
            files_.push_back({std::string(c.str(f.path)), std::string(c.str(f.description)), {}});
        }
        std::vector<const cache::SourcePackage*> found;
        std::vector<std::string_view> binary_names;
        for (const std::string& a : arguments) {
            const bool src = starts_with(a, "src:");
            std::string_view name = src ? std::string_view(a).substr(4) : std::string_view(a);
            for (const cache::SourcePackage& sp : c.find_sources(name)) found.push_back(&sp);
            if (!src && !only_source && !name.empty()) binary_names.push_back(name);
        }
        if (!binary_names.empty())
            for (const cache::SourcePackage& sp : c.sources()) {
                std::string_view binaries = c.str(sp.binaries);
                for (std::string_view n : binary_names)
                    if (binaries.find(n) != std::string_view::npos) {
                        found.push_back(&sp);
                        break;
                    }
            }
        std::sort(found.begin(), found.end(), [&](const cache::SourcePackage* x, const cache::SourcePackage* y) {
            return std::pair(file_of[x->index_file], x->offset) < std::pair(file_of[y->index_file], y->offset);
        });
        found.erase(std::unique(found.begin(), found.end()), found.end());
        for (const cache::SourcePackage* sp : found)
            records_.push_back({file_of[sp->index_file], c.stanza(*sp), c.str(sp->name), c.str(sp->binaries)});
    }
    std::span<const SourcesText> files() const { return files_; }
    std::span<const SourceRecord> records() const { return records_; }

private:
    std::vector<SourcesText> files_;
    std::vector<SourceRecord> records_;
};

}  // namespace

std::span<const OptionSpec> showsrc_options() { return showsrc_table; }

int run_showsrc(Context& ctx) {
    bool json = ctx.config.find_bool("Aptus::ShowSrc::JSON");
    const bool only_source = ctx.config.find_bool("APT::Cache::Only-Source");
    cache::OpenResult opened = system::open_cache(ctx.config, ctx.diags);
    IndexedSources sources(opened.cache, ctx.args, only_source);
    if (sources.files().empty()) throw Error("You must put some 'deb-src' URIs in your sources.list");
    std::vector<SourceQuery> queries = select_source_records(sources.records(), ctx.args, only_source);

    auto pager = Pager::start(ctx.config, &ctx.diags);
    bool found = false;
    if (json) {
        nlohmann::ordered_json doc;
        // Every command's envelope names it schema_version; "version" is
        // the old name, kept until the schema's next version.
        doc["schema_version"] = json_schema_version;
        doc["version"] = json_schema_version;
        doc["sources"] = nlohmann::ordered_json::array();
        doc["not_found"] = nlohmann::ordered_json::array();
        for (const SourceQuery& q : queries) {
            for (const SourceHit& h : q.hits) doc["sources"].push_back(record_json(sources.files()[h.file], q, h));
            if (q.matched == 0) doc["not_found"].push_back(q.argument);
        }
        std::string out = doc.dump(2) + "\n";
        std::fwrite(out.data(), 1, out.size(), stdout);
    } else {
        StdoutBuffer out;
        for (const SourceQuery& q : queries) {
            for (const SourceHit& h : q.hits) {
                out += h.text;
                // The last record of a file may lack its line ending; apt's reader supplies it.
                if (h.text.empty() || h.text.back() != '\n') out += '\n';
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
