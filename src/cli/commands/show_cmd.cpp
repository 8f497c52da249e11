// `show` as apt 3.0's: the version's own stanza, fields in dpkg's order,
// hashes and file names dropped, sizes in human units, then the fields apt
// adds (Download-Size, APT-Manual-Installed, APT-Sources) and the long
// description from the Translation file when the Packages file lacks it.
#include "cli/commands/show_cmd.hpp"

#include <iconv.h>
#include <langinfo.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/description_md5.hpp"
#include "aptus/deb/tagfile.hpp"
#include "cli/color.hpp"
#include "cli/human_size.hpp"
#include "cli/output.hpp"
#include "aptus/request/package_pattern.hpp"
#include "cli/pager.hpp"
#include "cli/policy_format.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"
#include "cli/exit_status.hpp"
#include "cli/message.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec show_table[] = {
    {'a', "all-versions", "APT::Cache::AllVersions", ArgKind::Flag, "show every version, not only the candidate"},
    {0, "full", "APT::Cache::ShowFull", ArgKind::Flag, "show the whole long description"},
    {0, "color", "APT::Color", ArgKind::Flag, "colours (the default on a terminal; --no-color, NO_COLOR: none)"},
    {0, "colour", "APT::Color", ArgKind::Flag},
    {0, "json", "Aptus::Show::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};

constexpr int json_schema_version = 1;

// dpkg's field order for binary packages, as apt writes records.
constexpr std::string_view field_order[] = {
    "Package", "Package-Type", "Architecture", "Subarchitecture", "Version", "Revision", "Package-Revision",
    "Package_Revision", "Kernel-Version", "Built-Using", "Static-Built-Using", "Built-For-Profiles",
    "Auto-Built-Package", "Multi-Arch", "Status", "Priority", "Class", "Build-Essential", "Protected", "Important",
    "Essential", "Installer-Menu-Item", "Section", "Source", "Origin", "Maintainer", "Original-Maintainer", "Bugs",
    "Config-Version", "Conffiles", "Triggers-Awaited", "Triggers-Pending", "Installed-Size", "Provides",
    "Pre-Depends", "Depends", "Recommends", "Recommended", "Suggests", "Optional", "Conflicts", "Breaks", "Replaces",
    "Enhances", "Filename", "MSDOS-Filename", "Size", "MD5sum", "SHA1", "SHA256", "SHA512", "Homepage",
    "Description", "Tag", "Task",
};

// A replaced field: an empty value removes it.
struct Rewrite {
    std::string_view name;
    std::string value;
};

bool in_order(std::string_view name) {
    return std::any_of(std::begin(field_order), std::end(field_order),
                       [&](std::string_view o) { return iequals(o, name); });
}

const Rewrite* find_rewrite(const std::vector<Rewrite>& rw, std::string_view name) {
    for (const auto& r : rw)
        if (iequals(r.name, name)) return &r;
    return nullptr;
}

void put(std::string& out, std::string_view name, std::string_view value) {
    if (value.empty()) return;
    out.append(name).append(": ").append(value).push_back('\n');
}

// Descriptions are UTF-8; like apt, show them in the locale's character set,
// with '?' for what it cannot hold: as apt, one per byte after a
// character's first (so "ç" gives "?", "…" gives "??").
std::string to_locale_charset(std::string_view text) {
    const char* codeset = nl_langinfo(CODESET);
    if (std::strcmp(codeset, "UTF-8") == 0) return std::string(text);
    bool ascii = std::all_of(text.begin(), text.end(), [](char ch) { return (unsigned char)ch < 0x80; });
    if (ascii) return std::string(text);
    iconv_t cd = iconv_open(codeset, "UTF-8");
    if (cd == iconv_t(-1)) return std::string(text);
    std::string out;
    char* in = const_cast<char*>(text.data());
    size_t in_left = text.size();
    char buf[4096];
    while (in_left > 0) {
        char* o = buf;
        size_t o_left = sizeof buf;
        size_t rc = iconv(cd, &in, &in_left, &o, &o_left);
        out.append(buf, size_t(o - buf));
        if (rc != size_t(-1) || errno == E2BIG) continue;
        unsigned char lead = (unsigned char)*in;
        size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        len = std::min(len, in_left);
        in += len;
        in_left -= len;
        out.append(std::max<size_t>(len - 1, 1), '?');
    }
    iconv_close(cd);
    return out;
}

// How apt names an index file; the dpkg status file has no description, apt names it by its path.
std::string file_label(const cache::Cache& c, uint32_t index_file) {
    return std::string(aptus::cli::file_label(c, c.index_files()[index_file]));
}

std::string size_field(uint64_t bytes) { return bytes > 0 ? human_size(double(bytes)) + "B" : "unknown"; }

struct Record {
    std::vector<std::pair<std::string, std::string>> fields;  // as printed, in order
    std::string description;                                  // short line and raw continuation
};

Record make_record(const ReadSession& s, const cache::Version& v, bool full) {
    const cache::Cache& c = s.cache();
    const cache::Package& p = c.package_of(v);
    const cache::VersionFile* vf = request::record_file(c, v);
    if (!vf) throw Error("Can not find indexfile for Package " + std::string(c.name_of(p)) + " (" +
                         std::string(c.str(v.version)) + ")");
    std::string_view text = c.stanza(*vf);
    // The stanza as the cache build read it: a NUL ends a value (skip_malformed).
    deb::TagFileReader reader(text, std::string(c.str(c.index_files()[vf->index_file].path)), deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza st;
    reader.next(st);

    std::vector<Rewrite> rw;
    if (!full)
        for (std::string_view f : {"MD5sum", "SHA1", "SHA256", "SHA512", "Filename", "Multi-Arch", "Conffiles"})
            rw.push_back({f, ""});
    // Package says it (":arch" when foreign), even with --full.
    rw.push_back({"Architecture", ""});
    rw.push_back({"Description", ""});
    rw.push_back({"Description-md5", ""});
    rw.push_back({"Package", request::full_name(c, p)});
    rw.push_back({"Installed-Size", v.installed_size > 0 ? human_size(double(v.installed_size) * 1024) + "B" : "unknown"});
    rw.push_back({"Size", ""});
    rw.push_back({"Download-Size", size_field(c.size_of(v))});
    std::string manual;
    if (c.current_version(p) == &v) manual = (p.flags & cache::kPackageAuto) ? "no" : "yes";
    rw.push_back({"APT-Manual-Installed", manual});
    rw.push_back({"APT-Sources", file_label(c, vf->index_file)});
    // apt 3.0's --full additions: the pin, whether it is the candidate, and
    // the release as policy names it (a=unstable,n=sid,c=main,b=all).
    if (full) {
        rw.push_back({"APT-Pin", std::to_string(s.candidates->priority(c.index_of(v)))});
        rw.push_back({"APT-Candidate", s.candidates->candidate(p) == &v ? "yes" : ""});
        rw.push_back({"APT-Release", release_string(c, c.index_files()[vf->index_file])});
    }

    Record r;
    auto add = [&](std::string_view name, std::string_view value) {
        if (!value.empty()) r.fields.emplace_back(std::string(name), std::string(value));
    };
    for (std::string_view name : field_order) {
        if (const Rewrite* w = find_rewrite(rw, name)) {
            add(name, w->value);
            continue;
        }
        if (const deb::Field* f = st.find(name)) add(name, f->value);
    }
    for (const auto& f : st.fields) {
        if (in_order(f.name)) continue;
        const Rewrite* w = find_rewrite(rw, f.name);
        add(f.name, w ? std::string_view(w->value) : f.value);
    }
    for (const auto& w : rw) {
        if (st.find(w.name) || in_order(w.name)) continue;
        add(w.name, w.value);
    }
    r.description = to_locale_charset(c.long_description(v));
    return r;
}

// APT 3.0 colours `apt show`: field names in Show::Field (bold), the
// Package value in Show::Package (green); with colour off both are "".
struct ShowColors {
    std::string field, package, neutral;
    explicit ShowColors(const Colors& c) : field(c.get("Show::Field")), package(c.get("Show::Package")), neutral(c.neutral) {}
    std::string name(std::string_view n) const { return field.empty() ? std::string(n) : field + std::string(n) + neutral; }
    std::string value(std::string_view field_name, std::string_view v) const {
        return field_name == "Package" && !package.empty() ? package + std::string(v) + neutral : std::string(v);
    }
};

std::string record_text(const Record& r, const ShowColors& colors) {
    std::string out;
    for (const auto& [name, value] : r.fields) put(out, colors.name(name), colors.value(name, value));
    out += colors.name("Description") + ": ";
    out += r.description.empty() ? "<none>" : r.description;
    out += "\n\n";
    return out;
}

nlohmann::ordered_json record_json(const ReadSession& s, const cache::Version& v, const Record& r) {
    const cache::Cache& c = s.cache();
    const cache::Package& p = c.package_of(v);
    nlohmann::ordered_json j;
    j["package"] = std::string(c.name_of(p));
    j["architecture"] = std::string(c.str(v.architecture));
    j["version"] = std::string(c.str(v.version));
    j["installed"] = c.current_version(p) == &v;
    j["candidate"] = s.candidates->candidate(p) == &v;
    j["manual_installed"] = c.current_version(p) == &v ? nlohmann::ordered_json(!(p.flags & cache::kPackageAuto))
                                                          : nlohmann::ordered_json(nullptr);
    j["priority"] = s.candidates->priority(c.index_of(v));
    j["installed_size"] = uint64_t(v.installed_size) * 1024;
    j["download_size"] = c.size_of(v);
    nlohmann::ordered_json sources = nlohmann::ordered_json::array();
    for (const auto& f : c.files_of(v)) sources.push_back(file_label(c, f.index_file));
    j["sources"] = sources;
    nlohmann::ordered_json fields = nlohmann::ordered_json::object();
    for (const auto& [name, value] : r.fields) fields[name] = value;
    j["fields"] = fields;
    j["description"] = r.description;
    return j;
}

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// apt-cache show: the record as its index file has it, with the description
// apt would show in place of the Description fields ("Description-<lang>"
// when it comes from a translation) and its Description-md5.
bool istarts_with(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

std::string raw_record(const cache::Cache& c, const cache::Version& v, const std::vector<std::string>& languages) {
    const cache::VersionFile* vf = request::record_file(c, v);
    if (!vf) throw Error("Can not find indexfile for Package " + std::string(c.name_of(c.package_of(v))) + " (" +
                         std::string(c.str(v.version)) + ")");
    std::string_view text = c.stanza(*vf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    std::string_view given_md5;
    std::vector<std::string_view> fields;  // each with its continuation lines
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        if (text[at] == ' ' || text[at] == '\t') {
            if (!fields.empty()) fields.back() = text.substr(fields.back().data() - text.data(), end - size_t(fields.back().data() - text.data()));
        } else {
            fields.push_back(text.substr(at, end - at));
            if (istarts_with(fields.back(), "Description-md5:")) given_md5 = trim(fields.back().substr(16));
        }
        at = end + 1;
    }
    std::string out;
    bool described = false;
    for (std::string_view f : fields) {
        if (!istarts_with(f, "Description")) {
            out.append(f).append("\n");
            continue;
        }
        if (described) continue;
        described = true;
        std::string_view desc = c.long_description(v);
        std::string label = "Description";
        if (v.description_file != cache::kNone) {
            std::string_view lang = c.str(c.index_files()[v.description_file].language);
            if (!lang.empty()) label += "-" + std::string(lang);
        }
        // A record carrying its own translation (Description-en beside
        // Description): apt takes it as that language's description, which
        // it prefers to the untranslated one.
        if (label == "Description")
            for (const std::string& lang : languages) {
                const std::string name = "Description-" + lang + ":";
                auto own = std::find_if(fields.begin(), fields.end(),
                                        [&](std::string_view g) { return istarts_with(g, name); });
                if (lang == "md5" || own == fields.end()) continue;
                desc = trim(own->substr(name.size()));
                label = "Description-" + lang;
                break;
            }
        // A record with only a Description-md5 (its text in a Translation
        // file apt does not have) keeps just that line.
        if (!desc.empty()) out += label + ": " + std::string(desc) + "\n";
        if (!desc.empty() || !given_md5.empty())
            out += "Description-md5: " + (given_md5.empty() ? deb::description_md5(desc) : std::string(given_md5)) + "\n";
    }
    return out + "\n";
}

}  // namespace

std::span<const OptionSpec> show_options() { return show_table; }

int run_show(Context& ctx) {
    if (ctx.args.empty()) throw Error("No packages found");
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    // apt-cache's show prints the records themselves, every version.
    const bool raw = ctx.config.find("Binary") == "apt-cache";
    bool all = ctx.config.find_bool("APT::Cache::AllVersions", raw);
    bool full = ctx.config.find_bool("APT::Cache::ShowFull");
    bool json = ctx.config.find_bool("Aptus::Show::JSON");

    std::vector<std::string> notices;
    request::Selection shown, every;
    // A pattern apt cannot parse is an error of that word, said at each of
    // apt's two passes, and the others are still shown.
    bool pattern_failed = false;
    auto select = [&](const std::string& w, request::Select how, request::Selection& into) {
        try {
            request::select_versions(c, *s->candidates, w, how, into, notices);
        } catch (const Error& e) {
            if (!request::is_pattern_word(w)) throw;
            pattern_failed = true;
            std::fflush(stdout);
            print_message(MessageLevel::Error, e.what());
            if (effective_quiet(ctx.config) == 0) print_message(MessageLevel::Notice, "Unable to locate package " + w);
        }
    };
    for (const auto& w : ctx.args) select(w, all ? request::Select::All : request::Select::Candidate, shown);
    size_t additional = 0;
    if (!all) {
        for (const auto& w : ctx.args) select(w, request::Select::All, every);
        if (every.versions.size() > shown.versions.size()) additional = every.versions.size() - shown.versions.size();
    }
    // apt keeps the packages it could not show in one set, both passes together.
    std::vector<std::string> virtuals;
    auto add_virtual = [&](std::string name) {
        if (std::find(virtuals.begin(), virtuals.end(), name) == virtuals.end()) virtuals.push_back(std::move(name));
    };
    for (const request::Selection* sel : {&shown, &every})
        for (const auto& n : sel->virtual_order) add_virtual(n);

    std::vector<Record> records;
    for (const auto* v : shown.versions) records.push_back(make_record(*s, *v, full));

    // Decided before the pager takes stdout: colour follows the terminal, as apt's.
    ShowColors colors(json ? Colors::off() : Colors::for_stdout(ctx.config));
    auto pager = Pager::start(ctx.config, &ctx.diags);
    if (json && shown.versions.empty() && virtuals.empty()) {
        // Nothing found: the error below, and main's JSON of it, answer.
    } else if (json) {
        nlohmann::ordered_json doc;
        // Every command's envelope names it schema_version; "version" is
        // the old name, kept until the schema's next version.
        doc["schema_version"] = json_schema_version;
        doc["version"] = json_schema_version;
        doc["packages"] = nlohmann::ordered_json::array();
        for (size_t i = 0; i < records.size(); ++i) doc["packages"].push_back(record_json(*s, *shown.versions[i], records[i]));
        doc["virtual"] = virtuals;
        doc["additional_records"] = additional;
        print(doc.dump(2) + "\n");
    } else if (raw) {
        std::string out;
        const std::vector<std::string> languages = ctx.config.find_list("Acquire::Languages");
        for (const auto* v : shown.versions) out += raw_record(c, *v, languages);
        print(out);
    } else {
        std::string out;
        for (const auto& r : records) out += record_text(r, colors);
        for (const auto& n : virtuals)
            out += colors.name("Package") + ": " + colors.value("Package", n) + "\n" + colors.name("State") +
                   ": not a real package (virtual)\n";
        print(out);
    }

    if (additional == 1)
        notices.push_back("There is 1 additional record. Please use the '-a' switch to see it");
    else if (additional > 1)
        notices.push_back("There are " + std::to_string(additional) +
                          " additional records. Please use the '-a' switch to see them.");
    bool nothing = shown.versions.empty();
    if (nothing && !virtuals.empty()) notices.push_back("No packages found");
    if (effective_quiet(ctx.config) == 0)
        for (auto& n : notices) ctx.diags.push_back({Level::Notice, std::move(n)});
    if (nothing && virtuals.empty()) throw Error("No packages found");
    // As apt 3.0: the notices after the records go through the pager too.
    if (pager) {
        render(ctx.diags);
        ctx.diags.clear();
    }
    return pattern_failed ? kExitError : kExitSuccess;
}

}  // namespace aptus::cli
