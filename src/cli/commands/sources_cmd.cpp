// `sources` prints what aptus reads from sources.list and sources.list.d;
// `indextargets` prints the targets those entries make, in the record format
// of apt-get indextargets so the two can be compared line by line.
#include "cli/commands/sources_cmd.hpp"

#include <cctype>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unistd.h>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/cache/inputs.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/release_file.hpp"

#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec sources_table[] = {
    {0, "json", "Aptus::Sources::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
    {0, "targets", "Aptus::Sources::Targets", ArgKind::Flag, "show each source's index targets"},
};

constexpr OptionSpec indextargets_table[] = {
    {0, "release-info", "APT::Get::IndexTargets::ReleaseInfo", ArgKind::Flag, "add the Release file's fields to each target (the default)"},
    {0, "format", "APT::Get::IndexTargets::Format", ArgKind::Value, "the form of each line: $(KEY) stands for a field of the target", "FORMAT"},
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

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// apt's filter: every argument ("Created-By: Packages") must be one whole
// line of the printed record, compared without regard to case.
bool matches_filters(const std::string& record, const std::vector<std::string>& filters) {
    std::string haystack = lower("\n" + record + "\n");
    for (const auto& f : filters)
        if (haystack.find(lower("\n" + f + "\n")) == std::string::npos) return false;
    return true;
}

// The $(VARIABLE) name of a printed field: "Base-URI" is $(BASE_URI).
std::string variable_name(std::string_view field) {
    std::string v;
    for (char c : field) v += c == '-' ? '_' : char(std::toupper(static_cast<unsigned char>(c)));
    return v;
}

void substitute(std::string& text, const std::string& name, const std::string& value) {
    const std::string var = "$(" + name + ")";
    for (size_t at = text.find(var); at != std::string::npos; at = text.find(var, at + value.size()))
        text.replace(at, var.size(), value);
}

// One --format line: the target's own fields, then (with release info) what
// its Release file says, as apt-get indextargets --format.
std::string formatted(std::string format, const sources::IndexTarget& t,
                      const std::map<std::string, std::string>& release_info) {
    substitute(format, "METAKEY", t.meta_key);
    substitute(format, "SHORTDESC", t.short_desc);
    substitute(format, "DESCRIPTION", t.description);
    substitute(format, "URI", t.uri);
    substitute(format, "FILENAME", t.filename);
    substitute(format, "OPTIONAL", t.optional ? "yes" : "no");
    substitute(format, "KEEPCOMPRESSED", t.keep_compressed ? "yes" : "no");
    for (const auto& [k, v] : t.options) substitute(format, variable_name(k), v);
    for (const auto& [k, v] : release_info) substitute(format, k, v);
    return format;
}

using ReleaseInfo = std::map<std::string, std::string>;

// What apt adds to the targets of one repository from its (In)Release file
// in the lists dir; no value when the repository has none yet (apt then
// skips its targets).
std::optional<ReleaseInfo> release_info(const sources::ReleaseFiles& r) {
    const bool signed_release =
        ::access(r.inrelease_file.c_str(), R_OK) == 0 || ::access(r.release_gpg_file.c_str(), R_OK) == 0;
    for (const std::string* file : {&r.inrelease_file, &r.release_file}) {
        if (::access(file->c_str(), R_OK) != 0) continue;
        try {
            deb::ReleaseFile rf = deb::read_release_file(*file);
            return ReleaseInfo{{"CODENAME", rf.codename}, {"SUITE", rf.suite},
                               {"VERSION", rf.version},   {"ORIGIN", rf.origin},
                               {"LABEL", rf.label},       {"TRUSTED", signed_release ? "yes" : "no"}};
        } catch (const Error&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

// The release info of the repository a target belongs to, each Release
// file read once however many targets it has.
class ReleaseInfos {
public:
    explicit ReleaseInfos(std::vector<sources::ReleaseFiles> releases)
        : releases_(std::move(releases)), read_(releases_.size()) {}

    const ReleaseInfo* of(const sources::IndexTarget& t) {
        for (size_t i = 0; i < releases_.size(); ++i) {
            if (releases_[i].repo_uri != t.option("Repo-URI") || releases_[i].suite != t.option("Release")) continue;
            if (!read_[i]) read_[i] = release_info(releases_[i]);
            return *read_[i] ? &**read_[i] : nullptr;
        }
        return nullptr;
    }

private:
    std::vector<sources::ReleaseFiles> releases_;
    std::vector<std::optional<std::optional<ReleaseInfo>>> read_;  // outer: read yet; inner: found
};

// The entry's Signed-By as apt gives it to its targets: an inline key
// block as a deb822 field value (later lines indented by one space, an
// empty line as " ."), else the keyrings or fingerprints joined by commas.
std::string signed_by_value(const sources::SourceEntry& e) {
    const sources::SourceOption* sb = e.option("signed-by");
    if (!sb) return "";
    std::string out;
    for (const std::string& value : sb->values) {
        if (!out.empty()) out += ",";
        const std::string_view v = trim(value);
        size_t pos = 0;
        for (bool first = true; pos <= v.size(); first = false) {
            size_t end = v.find('\n', pos);
            if (end == std::string::npos) end = v.size();
            std::string_view line = trim(v.substr(pos, end - pos));
            if (!first) out += line.empty() ? "\n ." : "\n " + std::string(line);
            else out += line;
            pos = end + 1;
        }
    }
    return out;
}

// The release info as record lines, in apt's order, empty values left out.
std::vector<std::pair<std::string, std::string>> release_fields(const ReleaseInfo& info) {
    static const std::pair<const char*, const char*> names[] = {
        {"CODENAME", "Codename"}, {"LABEL", "Label"}, {"ORIGIN", "Origin"}, {"SIGNED_BY", "Signed-By"},
        {"SUITE", "Suite"},       {"TRUSTED", "Trusted"}, {"VERSION", "Version"}};
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, name] : names) {
        auto it = info.find(key);
        if (it != info.end() && !it->second.empty()) out.emplace_back(name, it->second);
    }
    return out;
}

void print_targets(const config::Config& config, Diagnostics& diags, const std::vector<std::string>& filters = {}) {
    auto entries = sources::read_sources(config, diags);
    const std::string format = config.find("APT::Get::IndexTargets::Format");
    const bool with_release = config.find_bool("APT::Get::IndexTargets::ReleaseInfo", true);
    ReleaseInfos infos(sources::release_files(entries, config));
    std::map<std::string, const sources::SourceEntry*> entry_at;  // by apt's "file:line"
    for (const sources::SourceEntry& e : entries) entry_at.emplace(e.location.apt_name(), &e);
    std::string out;
    for (const auto& t : sources::index_targets(entries, config, diags)) {
        ReleaseInfo info;
        if (with_release) {
            const ReleaseInfo* read = infos.of(t);
            // apt lists, with release info, only the targets whose index is
            // stored (in any of the forms it keeps).
            if (!read || !cache::find_list_file(parent_dir(t.filename), base_name(t.filename))) continue;
            info = *read;
            auto e = entry_at.find(t.option("Sourcesentry"));
            if (e != entry_at.end()) info["SIGNED_BY"] = signed_by_value(*e->second);
        }
        std::string record = sources::format_index_target(t, release_fields(info));
        if (!filters.empty() && !matches_filters(record, filters)) continue;
        out += format.empty() ? record + "\n" : formatted(format, t, info) + "\n";
    }
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
        // Every command's envelope names it schema_version; "version" is
        // the old name, kept until the schema's next version.
        doc["schema_version"] = json_schema_version;
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
    print_targets(ctx.config, ctx.diags, ctx.args);
    return 0;
}

}  // namespace aptus::cli
