#include "aptus/sources/deb822_sources.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/sources/entry_rules.hpp"

namespace aptus::sources {
namespace {

// Values are separated by blanks, newlines or commas (apt accepts
// "Architectures: amd64,i386" as well as "amd64 i386").
std::vector<std::string> split_values(std::string_view text) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if (is_space(c) || c == ',') {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

// The fields apt reads as options, under their one-line names.
struct OptionName {
    std::string_view field;
    std::string_view key;
    bool add_remove;  // has -Add and -Remove forms
};
constexpr OptionName option_names[] = {
    {"Architectures", "arch", true},
    {"Languages", "lang", true},
    {"Targets", "target", true},
    {"Signed-By", "signed-by", false},
    {"Trusted", "trusted", false},
    {"Check-Valid-Until", "check-valid-until", false},
    {"Valid-Until-Min", "valid-until-min", false},
    {"Valid-Until-Max", "valid-until-max", false},
    {"Check-Date", "check-date", false},
    {"Date-Max-Future", "date-max-future", false},
    {"By-Hash", "by-hash", false},
    {"InRelease-Path", "inrelease-path", false},
    {"PDiffs", "pdiffs", false},
    {"Allow-Insecure", "allow-insecure", false},
    {"Allow-Weak", "allow-weak", false},
    {"Allow-Downgrade-To-Insecure", "allow-downgrade-to-insecure", false},
    {"Snapshot", "snapshot", false},
};

class StanzaReader {
public:
    StanzaReader(const deb::Stanza& stanza, const std::string& file, unsigned number)
        : st_(stanza), file_(file), number_(number) {}
    void expand(std::vector<SourceEntry>& out) const;

private:
    [[noreturn]] void malformed(std::string_view why) const {
        // apt's words (the stanza's number and the file).
        throw Error("Malformed entry " + std::to_string(number_) + " in sources file " + file_ + " (" +
                    std::string(why) + ")");
    }
    std::vector<std::string> list(std::string_view name) const {
        const deb::Field* f = st_.find(name);
        return f ? split_values(deb::field_text(f->value)) : std::vector<std::string>{};
    }
    std::vector<SourceOption> options() const;
    void check_and_expand(bool enabled, std::vector<SourceEntry>& out) const;

    const deb::Stanza& st_;
    const std::string& file_;
    unsigned number_;
};

std::vector<SourceOption> StanzaReader::options() const {
    std::vector<SourceOption> out;
    for (const deb::Field& f : st_.fields) {
        Deb822OptionField which = deb822_option_field(f.name);
        if (which.key.empty()) continue;
        SourceOption opt{which.key, which.op, {}};
        std::string text = deb::field_text(f.value);
        // An inline key is one value: the armored block, line breaks kept.
        if (which.key == "signed-by" && text.find("-----BEGIN") != std::string::npos)
            opt.values.push_back(text);
        else
            opt.values = split_values(text);
        out.push_back(std::move(opt));
    }
    return out;
}

void StanzaReader::expand(std::vector<SourceEntry>& out) const {
    bool enabled = true;
    if (auto v = st_.get("Enabled")) enabled = !detail::is_false_word(trim(*v));
    if (!enabled) {
        // apt never checks a disabled stanza; keep what can be kept of it.
        try {
            check_and_expand(false, out);
        } catch (const Error&) {
        }
        return;
    }
    check_and_expand(true, out);
}

void StanzaReader::check_and_expand(bool enabled, std::vector<SourceEntry>& out) const {
    std::vector<SourceType> types;
    for (const std::string& t : list("Types")) {
        auto type = parse_type(t);
        if (!type)
            throw file_error(file_, st_.line,
                             "Type '" + t + "' is not known in stanza " + std::to_string(number_));
        types.push_back(*type);
    }
    if (types.empty()) malformed("type");
    std::vector<std::string> uris = list("URIs");
    if (uris.empty()) malformed("URI");
    for (const std::string& u : uris)
        if (!detail::uri_has_scheme(u)) malformed("URI parse");
    std::vector<std::string> suites = list("Suites");
    if (suites.empty()) malformed("Suite");
    std::vector<std::string> components = list("Components");
    for (const std::string& s : suites) {
        std::string_view problem = detail::suite_component_problem(s, !components.empty());
        if (!problem.empty()) malformed(problem);
    }
    std::vector<SourceOption> opts = options();

    for (SourceType type : types)
        for (const std::string& uri : uris)
            for (const std::string& suite : suites) {
                SourceEntry e;
                e.type = type;
                e.uri = uri;
                e.suite = suite;
                e.components = components;
                e.options = opts;
                e.enabled = enabled;
                e.deb822 = true;
                e.location = {file_, st_.line, number_};
                out.push_back(std::move(e));
            }
}

}  // namespace

Deb822OptionField deb822_option_field(std::string_view field_name) {
    for (const OptionName& n : option_names) {
        if (iequals(field_name, n.field)) return {std::string(n.key), SourceOption::Op::Set};
        if (!n.add_remove || field_name.size() <= n.field.size() ||
            !iequals(field_name.substr(0, n.field.size()), n.field))
            continue;
        std::string_view suffix = field_name.substr(n.field.size());
        if (iequals(suffix, "-Add")) return {std::string(n.key), SourceOption::Op::Add};
        if (iequals(suffix, "-Remove")) return {std::string(n.key), SourceOption::Op::Remove};
    }
    return {};
}

std::vector<SourceEntry> parse_deb822_sources(std::string_view text, const std::string& file) {
    std::vector<SourceEntry> out;
    deb::TagFileReader reader(text, file, {.allow_comments = true});
    deb::Stanza stanza;
    unsigned number = 0;
    while (reader.next(stanza)) StanzaReader(stanza, file, ++number).expand(out);
    return out;
}

}  // namespace aptus::sources
