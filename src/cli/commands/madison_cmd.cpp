// apt-cache madison, in the layout of the archive's madison tool: the
// name and the version right-aligned in ten columns, then the index file
// as apt describes it ("file:/srv/archive unstable/main amd64 Packages"),
// for every version of the package and each of the package lists that
// has it (the dpkg status is no list: versions only installed give no
// line); then the source records that have the name as their Package or
// in their Binary field ("... unstable/main Sources"). A word that names
// neither gives apt's notice.
#include "cli/commands/madison_cmd.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "aptus/request/apt_package_refs.hpp"
#include "cli/read_session.hpp"
#include "cli/source_records.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

// C++'s setw(10): right-aligned, never cut.
std::string right10(std::string_view s) {
    std::string out = s.size() < 10 ? std::string(10 - s.size(), ' ') : std::string();
    return out.append(s);
}

// One line of the table: a version of a binary package (or a source
// package) in one index file.
struct Row {
    std::string name, version, index;
    bool source = false;
};

std::string line(const Row& r) { return right10(r.name) + " | " + right10(r.version) + " | " + r.index + "\n"; }

constexpr OptionSpec madison_table[] = {
    {0, "json", "Aptus::Madison::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};
constexpr int json_schema_version = 1;

bool names_binary(std::string_view binaries, std::string_view name) {
    for (std::string_view b : binary_names(binaries))
        if (b == name) return true;
    return false;
}

}  // namespace

std::span<const OptionSpec> madison_options() { return madison_table; }

int run_madison(Context& ctx) {
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    std::vector<Row> rows;
    std::vector<std::string> notices;
    for (const auto& word : ctx.args) {
        bool found = false;
        for (const request::AptPackageRef& ref : request::apt_packages_for_word(c, ctx.config, word)) {
            found = true;
            if (!ref.real) continue;
            std::string name = request::ref_full_name(c, ref);
            for (const auto& v : c.versions_of(*ref.real))
                for (const auto& vf : c.files_of(v)) {
                    const cache::IndexFile& f = c.index_files()[vf.index_file];
                    if (f.kind != cache::IndexKind::Packages) continue;
                    rows.push_back({name, std::string(c.str(v.version)), std::string(c.str(f.description))});
                }
        }
        // The source records, in the order apt reads them: the Sources
        // files in the order of the sources, each from the top.
        std::string bare = request::parse_package_word(word).name;
        std::vector<const cache::SourcePackage*> hits;
        for (const auto& sp : c.sources())
            if (c.str(sp.name) == bare || names_binary(c.str(sp.binaries), bare)) hits.push_back(&sp);
        std::stable_sort(hits.begin(), hits.end(), [](const auto* a, const auto* b) {
            return a->index_file != b->index_file ? a->index_file < b->index_file : a->offset < b->offset;
        });
        for (const auto* sp : hits)
            rows.push_back({std::string(c.str(sp->name)), std::string(c.str(sp->version)),
                            std::string(c.str(c.index_files()[sp->index_file].description)), true});
        if (!found && hits.empty()) notices.push_back("Unable to locate package " + word);
    }
    std::string out;
    if (ctx.config.find_bool("Aptus::Madison::JSON")) {
        nlohmann::ordered_json doc;
        doc["schema_version"] = json_schema_version;
        auto& list = doc["records"] = nlohmann::ordered_json::array();
        for (const Row& r : rows)
            list.push_back({{"package", r.name}, {"version", r.version}, {"index", r.index},
                            {"kind", r.source ? "source" : "binary"}});
        doc["not_found"] = nlohmann::ordered_json::array();
        for (const std::string& n : notices) doc["not_found"].push_back(n.substr(n.rfind(' ') + 1));
        out = doc.dump(2) + "\n";
        notices.clear();
    } else {
        for (const Row& r : rows) out += line(r);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (effective_quiet(ctx.config) == 0)
        for (auto& n : notices) ctx.diags.push_back({Level::Notice, std::move(n)});
    return 0;
}

}  // namespace aptus::cli
