// From one-line entries to deb822 stanzas: folding, option fields, text.
#include <algorithm>
#include <map>

#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile_writer.hpp"
#include "aptus/sources/modernize.hpp"
#include "modernize_detail.hpp"

namespace aptus::sources {
namespace {

struct FieldName {
    std::string_view key;
    std::string_view field;
};
// sources.list(5): the one-line option and the deb822 field it becomes.
constexpr FieldName field_names[] = {
    {"arch", "Architectures"},
    {"lang", "Languages"},
    {"target", "Targets"},
    {"signed-by", "Signed-By"},
    {"trusted", "Trusted"},
    {"check-valid-until", "Check-Valid-Until"},
    {"valid-until-min", "Valid-Until-Min"},
    {"valid-until-max", "Valid-Until-Max"},
    {"check-date", "Check-Date"},
    {"date-max-future", "Date-Max-Future"},
    {"by-hash", "By-Hash"},
    {"inrelease-path", "InRelease-Path"},
    {"pdiffs", "PDiffs"},
    {"allow-insecure", "Allow-Insecure"},
    {"allow-weak", "Allow-Weak"},
    {"allow-downgrade-to-insecure", "Allow-Downgrade-To-Insecure"},
    {"inrelease-path", "InRelease-Path"},
    {"snapshot", "Snapshot"},
};

std::string join(const std::vector<std::string>& words, std::string_view sep = " ") {
    std::string out;
    for (const auto& w : words) {
        if (!out.empty()) out += sep;
        out += w;
    }
    return out;
}

std::string with_slash(const std::string& uri) { return uri.empty() || uri.back() == '/' ? uri : uri + '/'; }

std::string options_key(const std::vector<SourceOption>& options) {
    std::string key;
    for (const auto& o : options) {
        key += o.key;
        key += char('0' + int(o.op));
        key += join(o.values, "\x1f");
        key += '\x1e';
    }
    return key;
}

void add_components(std::vector<std::string>& into, const std::vector<std::string>& from) {
    for (const auto& c : from)
        if (std::find(into.begin(), into.end(), c) == into.end()) into.push_back(c);
}

bool same_set(std::vector<std::string> a, std::vector<std::string> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

}  // namespace

std::string deb822_field_name(std::string_view key, SourceOption::Op op) {
    std::string name(key);
    for (const FieldName& f : field_names)
        if (iequals(key, f.key)) name = f.field;
    if (op == SourceOption::Op::Add) name += "-Add";
    if (op == SourceOption::Op::Remove) name += "-Remove";
    return name;
}

namespace detail {

std::vector<SourceOption> canonical_options(const std::vector<SourceOption>& options) {
    std::vector<std::string> keys;
    std::map<std::pair<std::string, int>, const SourceOption*> last;
    for (const auto& o : options) {
        if (std::find(keys.begin(), keys.end(), o.key) == keys.end()) keys.push_back(o.key);
        last[{o.key, int(o.op)}] = &o;
    }
    std::vector<SourceOption> out;
    for (const auto& k : keys)
        for (auto op : {SourceOption::Op::Set, SourceOption::Op::Add, SourceOption::Op::Remove})
            if (auto it = last.find({k, int(op)}); it != last.end()) out.push_back(*it->second);
    return out;
}

std::vector<StanzaDraft> fold_lines(const std::vector<ListLine>& lines) {
    struct Group {
        StanzaDraft base;
        std::vector<std::string> deb, deb_src;  // components per type
        bool deb_first = true;
    };
    std::vector<Group> groups;
    std::map<std::string, size_t> index;
    for (const ListLine& l : lines) {
        const SourceEntry& e = l.entry;
        std::vector<SourceOption> opts = canonical_options(e.options);
        std::string uri = with_slash(e.uri);
        std::string key = std::string(e.enabled ? "1" : "0") + '\n' + uri + '\n' + e.suite + '\n' + options_key(opts);
        auto [it, fresh] = index.try_emplace(key, groups.size());
        if (fresh) {
            Group g;
            g.base.enabled = e.enabled;
            g.base.uri = uri;
            g.base.suite = e.suite;
            g.base.options = std::move(opts);
            g.base.line = e.location.line;
            g.deb_first = e.type == SourceType::Deb;
            groups.push_back(std::move(g));
        }
        Group& g = groups[it->second];
        g.base.comments.insert(g.base.comments.end(), l.comments.begin(), l.comments.end());
        if (e.type == SourceType::Deb) {
            g.base.has_deb = true;
            add_components(g.deb, e.components);
        } else {
            g.base.has_deb_src = true;
            add_components(g.deb_src, e.components);
        }
    }

    std::vector<StanzaDraft> out;
    for (Group& g : groups) {
        if (!g.base.has_deb || !g.base.has_deb_src || same_set(g.deb, g.deb_src)) {
            g.base.components = g.deb_first ? g.deb : g.deb_src;
            if (g.base.components.empty()) g.base.components = g.deb_first ? g.deb_src : g.deb;
            out.push_back(std::move(g.base));
            continue;
        }
        // Different components: one stanza per type, else the stanza would
        // add deb-src indices for deb-only components (APT 3.0 does that).
        StanzaDraft first = g.base, second = g.base;
        first.has_deb = g.deb_first;
        first.has_deb_src = !g.deb_first;
        first.components = g.deb_first ? g.deb : g.deb_src;
        second.has_deb = !g.deb_first;
        second.has_deb_src = g.deb_first;
        second.components = g.deb_first ? g.deb_src : g.deb;
        second.comments.clear();
        out.push_back(std::move(first));
        out.push_back(std::move(second));
    }
    return out;
}

std::string stanza_text(const StanzaDraft& draft, const std::optional<std::string>& signed_by) {
    std::vector<std::pair<std::string, std::string>> fields;
    if (!draft.enabled) fields.emplace_back("Enabled", "no");
    std::vector<std::string> types;
    if (draft.has_deb) types.push_back("deb");
    if (draft.has_deb_src) types.push_back("deb-src");
    fields.emplace_back("Types", join(types));
    fields.emplace_back("URIs", draft.uri);
    fields.emplace_back("Suites", draft.suite);
    if (!draft.components.empty()) fields.emplace_back("Components", join(draft.components));
    auto is_own_signed_by = [](const SourceOption& o) { return o.key == "signed-by" && o.op == SourceOption::Op::Set; };
    auto own = std::find_if(draft.options.begin(), draft.options.end(), is_own_signed_by);
    // Comma-joined, exactly the one-line value: apt takes a deb822 Signed-By
    // verbatim and splits it at commas.
    if (own != draft.options.end())
        fields.emplace_back("Signed-By", join(own->values, ","));
    else  // empty when no keyring was found: apt writes the field for the admin to fill in
        fields.emplace_back("Signed-By", signed_by.value_or(""));
    for (const auto& o : draft.options)
        if (!is_own_signed_by(o)) fields.emplace_back(deb822_field_name(o.key, o.op), join(o.values));

    std::string out;
    for (const auto& c : draft.comments) out += c + '\n';
    std::vector<deb::FieldPair> pairs;
    for (const auto& [name, text] : fields) pairs.emplace_back(name, text);
    deb::TagFileWriter writer;
    writer.write_stanza(std::span<const deb::FieldPair>(pairs));
    std::string stanza = writer.take();
    // The writer ends each stanza with a blank line; the caller separates them.
    if (ends_with(stanza, "\n\n")) stanza.pop_back();
    // apt's empty field keeps its space ("Signed-By: "), which the writer
    // leaves out of an empty value.
    if (size_t at = stanza.find("\nSigned-By:\n"); at != std::string::npos) stanza.insert(at + 11, " ");
    return out + stanza;
}

}  // namespace detail
}  // namespace aptus::sources
