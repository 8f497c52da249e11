// `sources` prints what aptus reads from sources.list and sources.list.d;
// `indextargets` prints the targets those entries make, in the record format
// of apt-get indextargets so the two can be compared line by line.
#include "cli/commands/sources_cmd.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec sources_table[] = {
    {0, "json", "Aptus::Sources::JSON", ArgKind::Flag},
    {0, "targets", "Aptus::Sources::Targets", ArgKind::Flag},
};

constexpr OptionSpec indextargets_table[] = {
    {0, "release-info", "APT::Get::IndexTargets::ReleaseInfo", ArgKind::Flag},
};

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

std::string_view op_text(sources::SourceOption::Op op) {
    switch (op) {
        case sources::SourceOption::Op::Add: return "+=";
        case sources::SourceOption::Op::Remove: return "-=";
        default: return "=";
    }
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
    std::string out;
    for (const auto& s : v) {
        if (!out.empty()) out += sep;
        out += s;
    }
    return out;
}

// One line as it would be written in a .list file, with where it came from.
std::string text_line(const sources::SourceEntry& e) {
    std::string out = e.location.file + ":" + std::to_string(e.location.line) + ": ";
    if (!e.enabled) out += "(disabled) ";
    out += sources::type_name(e.type);
    if (!e.options.empty()) {
        out += " [";
        for (size_t i = 0; i < e.options.size(); ++i) {
            const auto& o = e.options[i];
            if (i) out += ' ';
            // An inline key has line breaks; show that one is there, not the key.
            std::string values = join(o.values, ",");
            if (values.find('\n') != std::string::npos) values = "<inline key>";
            out += o.key + std::string(op_text(o.op)) + values;
        }
        out += "]";
    }
    out += " " + e.uri + " " + e.suite;
    for (const auto& c : e.components) out += " " + c;
    return out + "\n";
}

nlohmann::ordered_json json_entry(const sources::SourceEntry& e, const config::Config& config) {
    nlohmann::ordered_json j;
    j["type"] = std::string(sources::type_name(e.type));
    j["uri"] = e.uri;
    j["suite"] = e.suite;
    j["components"] = e.components;
    j["architectures"] = e.type == sources::SourceType::Deb ? sources::entry_architectures(e, config)
                                                            : std::vector<std::string>{};
    const sources::SourceOption* sb = e.option("signed-by");
    j["signed_by"] = sb ? sb->values : std::vector<std::string>{};
    nlohmann::ordered_json opts = nlohmann::ordered_json::array();
    for (const auto& o : e.options)
        opts.push_back({{"key", o.key}, {"op", std::string(op_text(o.op))}, {"values", o.values}});
    j["options"] = opts;
    j["enabled"] = e.enabled;
    j["format"] = e.deb822 ? "deb822" : "one-line";
    j["file"] = e.location.file;
    j["line"] = e.location.line;
    if (e.deb822) j["stanza"] = e.location.stanza;
    return j;
}

void print_targets(const config::Config& config, Diagnostics& diags) {
    auto entries = sources::read_sources(config, diags);
    std::string out;
    for (const auto& t : sources::index_targets(entries, config, diags)) out += sources::format_index_target(t) + "\n";
    print(out);
}

}  // namespace

std::span<const OptionSpec> sources_options() { return sources_table; }
std::span<const OptionSpec> indextargets_options() { return indextargets_table; }

int run_sources(Context& ctx) {
    if (ctx.config.find_bool("Aptus::Sources::Targets")) {
        print_targets(ctx.config, ctx.diags);
        return 0;
    }
    auto entries = sources::read_sources(ctx.config, ctx.diags);
    if (ctx.config.find_bool("Aptus::Sources::JSON")) {
        nlohmann::ordered_json doc;
        doc["version"] = json_schema_version;
        doc["sources"] = nlohmann::ordered_json::array();
        for (const auto& e : entries) doc["sources"].push_back(json_entry(e, ctx.config));
        print(doc.dump(2) + "\n");
        return 0;
    }
    std::string out;
    for (const auto& e : entries) out += text_line(e);
    print(out);
    return 0;
}

int run_indextargets(Context& ctx) {
    print_targets(ctx.config, ctx.diags);
    return 0;
}

}  // namespace aptus::cli
