#include "aptus/sources/index_targets.hpp"

#include <algorithm>

#include "aptus/base/strings.hpp"
#include "entry_rules.hpp"

namespace aptus::sources {
namespace {

std::string with_slash(std::string_view uri) {
    std::string s(uri);
    if (s.empty() || s.back() != '/') s += '/';
    return s;
}

// The URI without user:password, as apt shows a site to people.
std::string without_userinfo(std::string_view uri) {
    size_t scheme_end = uri.find("://");
    if (scheme_end == std::string_view::npos) return std::string(uri);
    size_t auth = scheme_end + 3;
    size_t slash = uri.find('/', auth);
    std::string_view authority = uri.substr(auth, slash == std::string_view::npos ? uri.npos : slash - auth);
    size_t at = authority.rfind('@');
    if (at == std::string_view::npos) return std::string(uri);
    return std::string(uri.substr(0, auth)) + std::string(uri.substr(auth + at + 1));
}

// The URI as apt writes it back after parsing: "file:///srv" becomes
// "file:/srv", "cdrom:[Debian 12]/" becomes "cdrom://Debian 12/" (brackets
// stay only around a host holding ':', an IPv6 address).
std::string normal_uri(std::string_view uri) {
    size_t colon = uri.find(':');
    if (colon == std::string_view::npos) return std::string(uri);
    std::string_view scheme = uri.substr(0, colon);
    std::string_view rest = uri.substr(colon + 1);
    if (rest.substr(0, 2) == "//") rest.remove_prefix(2);
    size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
    if (authority.empty()) return std::string(scheme) + ":" + std::string(path);
    std::string_view userinfo;
    if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
        userinfo = authority.substr(0, at + 1);
        authority.remove_prefix(at + 1);
    }
    std::string_view host = authority, port;
    if (!authority.empty() && authority.front() == '[') {
        size_t close = authority.find(']');
        if (close != std::string_view::npos) {
            host = authority.substr(1, close - 1);
            port = authority.substr(close + 1);
        }
    } else if (size_t c = authority.find(':'); c != std::string_view::npos) {
        host = authority.substr(0, c);
        port = authority.substr(c);
    }
    std::string out = std::string(scheme) + "://" + std::string(userinfo);
    if (host.find(':') != std::string_view::npos)
        out += "[" + std::string(host) + "]";
    else
        out += host;
    return out + std::string(port) + std::string(path);
}

// Where a repository's Release files and indices are, as apt's
// constructMetaIndexURI: "dists/SUITE/" under the URI, a flat "dir/" or
// "./" below it, and "/" the URI itself (no double slash).
std::string repo_base_uri(const std::string& repo_uri, const std::string& suite) {
    if (suite == "/") return repo_uri;
    if (!suite.empty() && suite.back() == '/') return repo_uri + suite;
    return repo_uri + "dists/" + suite + "/";
}

std::string site_of(std::string_view uri) {
    std::string s = without_userinfo(normal_uri(uri));
    if (!s.empty() && s.back() == '/') s.pop_back();
    return s;
}

std::string replace_vars(std::string s, const std::map<std::string, std::string>& vars) {
    for (const auto& [name, value] : vars) {
        std::string pat = "$(" + name + ")";
        for (size_t p = s.find(pat); p != std::string::npos; p = s.find(pat, p + value.size()))
            s.replace(p, pat.size(), value);
    }
    return s;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// One (URI, suite): apt's meta index. deb and deb-src entries of the same
// repository share it, and so do URIs that differ only in credentials or a
// trailing slash.
struct Group {
    std::string key;
    const SourceEntry* first = nullptr;
    std::vector<const SourceEntry*> deb, deb_src;
};

std::vector<Group> group_entries(const std::vector<SourceEntry>& entries) {
    std::vector<Group> groups;
    for (const SourceEntry& e : entries) {
        if (!e.enabled) continue;
        std::string key = meta_index_key(e);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.key == key; });
        if (it == groups.end()) {
            groups.push_back({key, &e, {}, {}});
            it = groups.end() - 1;
        }
        (e.type == SourceType::Deb ? it->deb : it->deb_src).push_back(&e);
    }
    return groups;
}

std::vector<std::string> compression_types(const config::Config& config) {
    std::vector<std::string> out = config.find_list("Acquire::CompressionTypes::Order");
    for (const auto& [name, value] : config.children("Acquire::CompressionTypes"))
        if (!iequals(name, "Order") && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    return out;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) {
        if (!out.empty()) out += ' ';
        out += s;
    }
    return out;
}

// "=" (or APT::Architectures) and "+=" first, then apt adds "all", then "-="
// may take any of them away again.
std::vector<std::string> architectures_for(const SourceEntry& e, const std::vector<std::string>& configured) {
    SourceEntry set_and_add;
    const SourceOption* remove = nullptr;
    for (const auto& o : e.options) {
        if (o.key != "arch") continue;
        if (o.op == SourceOption::Op::Remove)
            remove = &o;
        else
            set_and_add.options.push_back(o);
    }
    std::vector<std::string> archs = set_and_add.option_values("arch", configured).value_or(configured);
    if (std::find(archs.begin(), archs.end(), "all") == archs.end()) archs.push_back("all");
    if (remove)
        for (const auto& v : remove->values) archs.erase(std::remove(archs.begin(), archs.end(), v), archs.end());
    return archs;
}

class Builder {
public:
    Builder(const config::Config& config, Diagnostics& diags) : config_(config), diags_(diags) {
        lists_dir_ = config.find_dir("Dir::State::lists");
        auto types = compression_types(config);
        std::vector<std::string> plain = types;
        plain.push_back("uncompressed");
        compression_ = join(plain);
        // Kept compressed, apt prefers the formats that are fast to read.
        std::vector<std::string> keep;
        for (std::string_view fast : {"lz4", "zst", "gz"})
            if (std::find(types.begin(), types.end(), fast) != types.end()) keep.emplace_back(fast);
        for (const auto& t : types)
            if (std::find(keep.begin(), keep.end(), t) == keep.end()) keep.push_back(t);
        keep.push_back("uncompressed");
        keep_compressed_as_ = join(keep);
        for (const auto& a : config.find_list("APT::Architectures")) archs_.push_back(a);
        for (const auto& l : config.find_list("Acquire::Languages"))
            if (l != "none") langs_.push_back(l);
    }

    void group(const Group& g, std::vector<IndexTarget>& out) {
        seen_.clear();
        for (const SourceEntry* e : g.deb_src) entry(*g.first, *e, out);
        for (const SourceEntry* e : g.deb) entry(*g.first, *e, out);
    }

private:
    void entry(const SourceEntry& first, const SourceEntry& e, std::vector<IndexTarget>& out);
    void add(IndexTarget t, const std::string& target_name, const SourceEntry& e, std::vector<IndexTarget>& out);

    const config::Config& config_;
    Diagnostics& diags_;
    std::string lists_dir_, compression_, keep_compressed_as_;
    std::vector<std::string> archs_, langs_;
    std::map<std::string, std::string> seen_;  // MetaKey -> sources entry, within one group
};

void Builder::add(IndexTarget t, const std::string& target_name, const SourceEntry& e,
                  std::vector<IndexTarget>& out) {
    auto [it, inserted] = seen_.emplace(t.meta_key, e.location.apt_name());
    if (!inserted) {
        diags_.push_back({Level::Warning, "Target " + target_name + " (" + t.meta_key +
                                              ") is configured multiple times in " + it->second + " and " +
                                              e.location.apt_name()});
        return;
    }
    out.push_back(std::move(t));
}

void Builder::entry(const SourceEntry& first, const SourceEntry& e, std::vector<IndexTarget>& out) {
    const std::string type(type_name(e.type));
    const std::string repo_uri = with_slash(normal_uri(first.uri));
    const std::string site = site_of(first.uri);
    const bool flat = e.is_flat();
    const std::string base_uri = repo_base_uri(repo_uri, e.suite);
    // apt's $(RELEASE) of a flat repository at the URI itself ("/") is empty.
    const std::string release = e.suite == "/" ? "" : e.suite;

    const std::vector<std::string> archs = architectures_for(e, archs_);
    // Naming "all" in "=" or "+=" makes its Packages required, not optional.
    bool all_forced = false;
    for (const auto& o : e.options)
        if (o.key == "arch" && o.op != SourceOption::Op::Remove &&
            std::find(o.values.begin(), o.values.end(), "all") != o.values.end())
            all_forced = true;
    const std::string native = config_.find("APT::Architecture");
    // apt passes these one-line options on to every target (it does not for
    // the deb822 fields of the same meaning).
    std::vector<std::pair<std::string, std::string>> passed_on;
    if (!e.deb822) {
        for (std::string_view key : {"allow-insecure", "allow-weak", "allow-downgrade-to-insecure"})
            if (const SourceOption* o = e.option(key); o && !o->values.empty() && !detail::is_false_word(o->values[0]))
                passed_on.emplace_back(key == "allow-insecure" ? "Allow-Insecure"
                                       : key == "allow-weak"   ? "Allow-Weak"
                                                               : "Allow-Downgrade-To-Insecure",
                                       "true");
        if (const SourceOption* o = e.option("inrelease-path"); o && !o->values.empty())
            passed_on.emplace_back("Inrelease-Path", o->values[0]);
    }
    std::vector<std::string> langs = e.option_values("lang", langs_).value_or(langs_);
    langs.erase(std::remove(langs.begin(), langs.end(), "none"), langs.end());

    std::string by_hash_entry, pdiffs_entry;
    if (const SourceOption* o = e.option("by-hash"); o && !o->values.empty()) by_hash_entry = o->values[0];
    if (const SourceOption* o = e.option("pdiffs"); o && !o->values.empty()) pdiffs_entry = o->values[0];

    const std::string targets_key = "Acquire::IndexTargets::" + type;
    std::vector<std::string> default_targets;
    auto names = config_.children(targets_key);
    for (const auto& [name, value] : names)
        if (config_.find_bool(targets_key + "::" + name + "::DefaultEnabled", true)) default_targets.push_back(name);
    std::vector<std::string> wanted = e.option_values("target", default_targets).value_or(default_targets);

    std::vector<std::string> components = flat ? std::vector<std::string>{""} : e.components;
    for (const std::string& component : components) {
        for (const auto& [name, value] : names) {
            const std::string base = targets_key + "::" + name + "::";
            const std::string identifier = config_.find(base + "Identifier", name);
            // target= names targets by their key, not their Identifier: a
            // fallback sharing "Contents" as Identifier is not "Contents".
            // An option named as the Identifier ("Contents=no") switches
            // every target of that Identifier on or off, whatever target= says.
            bool on = std::find(wanted.begin(), wanted.end(), name) != wanted.end();
            if (const SourceOption* o = e.option(identifier); o && !o->values.empty())
                on = !detail::is_false_word(o->values[0]);
            if (!on) continue;
            const std::string meta_tpl = config_.find(base + (flat ? "flatMetaKey" : "MetaKey"));
            if (meta_tpl.empty()) continue;
            const std::string short_tpl = config_.find(base + "ShortDescription");
            const std::string desc_tpl = config_.find(base + (flat ? "flatDescription" : "Description"));
            const bool by_native = meta_tpl.find("$(NATIVE_ARCHITECTURE)") != std::string::npos;
            const bool by_arch = by_native || meta_tpl.find("$(ARCHITECTURE)") != std::string::npos;
            const bool by_lang = meta_tpl.find("$(LANGUAGE)") != std::string::npos;
            std::vector<std::string> arch_loop{""};
            if (by_arch) {
                arch_loop.clear();
                for (const auto& a : archs)
                    if (!by_native || a == native || a == "all") arch_loop.push_back(a);
            }
            std::vector<std::string> lang_loop = by_lang ? langs : std::vector<std::string>{""};
            for (const std::string& arch : arch_loop)
                for (const std::string& lang : lang_loop) {
                    std::map<std::string, std::string> vars{{"RELEASE", release}, {"SITE", site}};
                    if (!flat) vars["COMPONENT"] = component;
                    if (by_arch) vars["ARCHITECTURE"] = arch;
                    if (by_native) vars["NATIVE_ARCHITECTURE"] = arch;
                    if (by_lang) vars["LANGUAGE"] = lang;
                    IndexTarget t;
                    t.meta_key = replace_vars(meta_tpl, vars);
                    t.short_desc = replace_vars(short_tpl, vars);
                    t.description = site + " " + replace_vars(desc_tpl, vars);
                    t.uri = base_uri + t.meta_key;
                    t.filename = lists_dir_ + uri_to_list_filename(t.uri);
                    const bool is_all = by_arch && arch == "all";
                    t.optional = is_all ? !all_forced : config_.find_bool(base + "Optional", true);
                    t.keep_compressed =
                        config_.find_bool(base + "KeepCompressed", config_.find_bool("Acquire::GzipIndexes", false));
                    auto& o = t.options;
                    if (by_arch) o["Architecture"] = arch;
                    if (by_native) o["Native-Architecture"] = arch;
                    if (is_all && all_forced) o["Force-support-for-all"] = "yes";
                    for (const auto& [k, v] : passed_on) o[k] = v;
                    if (by_lang) o["Language"] = lang;
                    if (!flat) o["Component"] = component;
                    o["Base-URI"] = base_uri;
                    std::string by_hash = !by_hash_entry.empty()
                                              ? by_hash_entry
                                              : config_.find(base + "By-Hash", config_.find("Acquire::By-Hash", "yes"));
                    o["By-Hash"] = detail::is_false_word(by_hash) ? "no" : iequals(by_hash, "force") ? "force" : "yes";
                    bool pdiffs = !pdiffs_entry.empty()
                                      ? !detail::is_false_word(pdiffs_entry)
                                      : config_.find_bool(base + "PDiffs", config_.find_bool("Acquire::PDiffs", true));
                    o["PDiffs"] = yes_no(pdiffs);
                    o["CompressionTypes"] = config_.exists(base + "CompressionTypes")
                                                ? config_.find(base + "CompressionTypes")
                                                : compression_;
                    o["KeepCompressedAs"] = keep_compressed_as_;
                    o["Created-By"] = name;
                    o["DefaultEnabled"] = yes_no(config_.find_bool(base + "DefaultEnabled", true));
                    o["Fallback-Of"] = config_.find(base + "Fallback-Of");
                    o["Identifier"] = identifier;
                    o["Release"] = release;
                    o["Repo-URI"] = repo_uri;
                    o["Site"] = site;
                    o["Sourcesentry"] = e.location.apt_name();
                    o["Target-Of"] = type;
                    add(std::move(t), name, e, out);
                }
        }
    }
}

}  // namespace

std::vector<std::string> entry_architectures(const SourceEntry& entry, const config::Config& config) {
    return architectures_for(entry, config.find_list("APT::Architectures"));
}

const IndexTarget* target_of_list_file(const std::vector<IndexTarget>& targets, std::string_view path) {
    for (const auto& t : targets) {
        if (path == t.filename) return &t;
        if (path.starts_with(t.filename) && path.size() > t.filename.size() && path[t.filename.size()] == '.' &&
            path.find('/', t.filename.size()) == std::string_view::npos)
            return &t;
    }
    return nullptr;
}

std::string IndexTarget::option(const std::string& name) const {
    auto it = options.find(name);
    return it == options.end() ? std::string() : it->second;
}

std::vector<IndexTarget> index_targets(const std::vector<SourceEntry>& entries, const config::Config& config,
                                       Diagnostics& diags) {
    std::vector<IndexTarget> out;
    Builder builder(config, diags);
    for (const Group& g : group_entries(entries)) builder.group(g, out);
    return out;
}

std::vector<ReleaseFiles> release_files(const std::vector<SourceEntry>& entries, const config::Config& config) {
    std::vector<ReleaseFiles> out;
    const std::string lists = config.find_dir("Dir::State::lists");
    for (const Group& g : group_entries(entries)) {
        const SourceEntry& e = *g.first;
        ReleaseFiles r;
        r.repo_uri = with_slash(normal_uri(e.uri));
        r.suite = e.suite;
        r.base_uri = repo_base_uri(r.repo_uri, e.suite);
        r.inrelease_uri = r.base_uri + "InRelease";
        r.inrelease_fetch_uri = r.inrelease_uri;
        if (const SourceOption* o = e.option("inrelease-path"); o && !o->values.empty() && !o->values[0].empty()) {
            std::string_view path = o->values[0];
            while (path.starts_with('/')) path.remove_prefix(1);
            r.inrelease_fetch_uri = r.base_uri + std::string(path);
            r.release_fallback = false;
        }
        r.release_uri = r.base_uri + "Release";
        r.release_gpg_uri = r.base_uri + "Release.gpg";
        r.inrelease_file = lists + uri_to_list_filename(r.inrelease_uri);
        r.release_file = lists + uri_to_list_filename(r.release_uri);
        r.release_gpg_file = lists + uri_to_list_filename(r.release_gpg_uri);
        r.sources_entry = e.location.apt_name();
        if (const SourceOption* o = e.option("trusted"); o && !o->values.empty())
            r.trusted = !detail::is_false_word(o->values[0]);
        out.push_back(std::move(r));
    }
    return out;
}

std::string format_index_target(const IndexTarget& t,
                                const std::vector<std::pair<std::string, std::string>>& release_fields) {
    std::string out;
    out += "MetaKey: " + t.meta_key + "\n";
    out += "ShortDesc: " + t.short_desc + "\n";
    out += "Description: " + t.description + "\n";
    out += "URI: " + t.uri + "\n";
    out += "Filename: " + t.filename + "\n";
    out += "Optional: " + yes_no(t.optional) + "\n";
    out += "KeepCompressed: " + yes_no(t.keep_compressed) + "\n";
    for (const auto& [k, v] : release_fields) out += k + ": " + v + "\n";
    for (const auto& [k, v] : t.options) out += k + ": " + v + "\n";
    return out;
}

std::string meta_index_key(const SourceEntry& entry) {
    return with_slash(without_userinfo(normal_uri(entry.uri))) + '\n' + entry.suite;
}

std::string archive_site(std::string_view uri) { return site_of(uri); }

std::string uri_host(std::string_view uri) {
    size_t scheme = uri.find("://");
    if (scheme == std::string_view::npos) return "";
    std::string_view rest = uri.substr(scheme + 3);
    rest = rest.substr(0, rest.find('/'));
    size_t at = rest.rfind('@');
    if (at != std::string_view::npos) rest.remove_prefix(at + 1);
    if (!rest.empty() && rest.front() == '[') return std::string(rest.substr(1, rest.find(']') - 1));
    return std::string(rest.substr(0, rest.find(':')));
}

}  // namespace aptus::sources
