#include "aptus/request/package_pattern.hpp"

#include <fnmatch.h>
#include <regex.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "aptus/deb/architecture.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/request/package_pattern_syntax.hpp"

namespace aptus::request {

bool is_pattern_word(std::string_view word) { return !word.empty() && (word[0] == '?' || word[0] == '~'); }

namespace {

struct Regex {
    regex_t re;
    explicit Regex(const std::string& text) {
        // apt's: extended, case-insensitive, anywhere in the string.
        if (int rc = ::regcomp(&re, text.c_str(), REG_EXTENDED | REG_ICASE | REG_NOSUB); rc != 0) {
            char msg[300];
            ::regerror(rc, &re, msg, sizeof msg);
            throw Error("Regex compilation error - " + std::string(msg));
        }
    }
    ~Regex() { ::regfree(&re); }
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;
    bool operator()(std::string_view s) const {
        std::string z(s);
        return ::regexec(&re, z.c_str(), 0, nullptr, 0) == 0;
    }
};

}  // namespace

// ---------------------------------------------------------------------------
// The compiled tree.

enum class Op {
    True, False, And, Or, Not, AnyVersion, AllVersions,
    // package level
    Name, NameGlob, ExactName, Installed, Upgradable, Automatic, Essential, Obsolete, Garbage, Broken, ConfigFiles,
    Virtual, Architecture, ReverseDepends,
    // version level (any version, asked of a package)
    Section, Priority, SourcePackage, SourceVersion, Version, Origin, Archive, Codename, Depends,
};

struct PackagePattern::Node {
    Op op;
    std::string term;  // the long name, for render()
    std::vector<Node> children;
    std::string word;
    std::shared_ptr<const Regex> regex;
    cache::DepType dep = cache::DepType::Depends;
};

namespace {

using Node = PackagePattern::Node;

[[noreturn]] void fail(const PatternSyntax& at, std::string message) { throw PatternSyntaxError{at.start, at.end, std::move(message)}; }

// apt's argument count check for a known name; false when `term` is another name.
bool is(const PatternSyntax& n, std::string_view term, int min, int max) {
    if (n.text != term) return false;
    const int count = int(n.args.size());
    if (max != 0 && !n.has_args) fail(n, n.text + " expects an argument list");
    if (max == 0 && n.has_args) fail(n, n.text + " does not expect an argument list");
    if (min >= 0 && min == max && count != min)
        fail(n, n.text + " expects " + std::to_string(min) + " arguments, but received " + std::to_string(count) +
                    " arguments");
    if (min >= 0 && count < min)
        fail(n, n.text + " expects at least " + std::to_string(min) + " arguments, but received " +
                    std::to_string(count) + " arguments");
    if (max >= 0 && count > max)
        fail(n, n.text + " expects at most " + std::to_string(max) + " arguments, but received " +
                    std::to_string(count) + " arguments");
    return true;
}

const std::string& word_of(const PatternSyntax& n) {
    if (!n.is_word) fail(n, "Expected a word");
    return n.text;
}

struct DepName {
    std::string_view suffix;
    cache::DepType type;
};
constexpr DepName kDepNames[] = {
    // apt 2.6 knows only "?predepends" (its ~DPre-Depends: says
    // "?pre-depends", which it then does not recognise): both work here.
    {"depends", cache::DepType::Depends},       {"pre-depends", cache::DepType::PreDepends},
    {"predepends", cache::DepType::PreDepends},
    {"recommends", cache::DepType::Recommends}, {"suggests", cache::DepType::Suggests},
    {"enhances", cache::DepType::Enhances},     {"breaks", cache::DepType::Breaks},
    {"conflicts", cache::DepType::Conflicts},   {"replaces", cache::DepType::Replaces},
};

Node compile(const PatternSyntax& n) {
    if (n.is_word) fail(n, "Expected a pattern");
    Node out;
    out.term = n.text;
    auto leaf = [&](Op op) {
        out.op = op;
        return out;
    };
    auto with_word = [&](Op op) {
        out.op = op;
        out.word = word_of(n.args[0]);
        return out;
    };
    auto with_regex = [&](Op op) {
        with_word(op);
        out.regex = std::make_shared<const Regex>(out.word);
        return out;
    };
    auto with_child = [&](Op op) {
        out.op = op;
        out.children.push_back(compile(n.args[0]));
        return out;
    };
    if (is(n, "?architecture", 1, 1)) return with_word(Op::Architecture);
    if (is(n, "?archive", 1, 1)) return with_regex(Op::Archive);
    if (is(n, "?codename", 1, 1)) return with_regex(Op::Codename);
    if (is(n, "?all-versions", 1, 1)) return with_child(Op::AllVersions);
    if (is(n, "?any-version", 1, 1)) return with_child(Op::AnyVersion);
    if (is(n, "?automatic", 0, 0)) return leaf(Op::Automatic);
    if (is(n, "?broken", 0, 0)) return leaf(Op::Broken);
    if (is(n, "?config-files", 0, 0)) return leaf(Op::ConfigFiles);
    for (const DepName& d : kDepNames) {
        out.dep = d.type;
        if (is(n, "?" + std::string(d.suffix), 1, 1)) return with_child(Op::Depends);
        if (is(n, "?reverse-" + std::string(d.suffix), 1, 1)) return with_child(Op::ReverseDepends);
    }
    if (is(n, "?essential", 0, 0)) return leaf(Op::Essential);
    if (is(n, "?priority", 1, 1)) return with_word(Op::Priority);
    if (is(n, "?exact-name", 1, 1)) return with_word(Op::ExactName);
    if (is(n, "?false", 0, 0)) return leaf(Op::False);
    if (is(n, "?garbage", 0, 0)) return leaf(Op::Garbage);
    if (is(n, "?installed", 0, 0)) return leaf(Op::Installed);
    if (is(n, "?name", 1, 1)) return with_regex(Op::Name);
    if (is(n, "?not", 1, 1)) return with_child(Op::Not);
    if (is(n, "?obsolete", 0, 0)) return leaf(Op::Obsolete);
    if (is(n, "?origin", 1, 1)) return with_regex(Op::Origin);
    if (is(n, "?section", 1, 1)) return with_regex(Op::Section);
    if (is(n, "?source-package", 1, 1)) return with_regex(Op::SourcePackage);
    if (is(n, "?source-version", 1, 1)) return with_regex(Op::SourceVersion);
    if (is(n, "?true", 0, 0)) return leaf(Op::True);
    if (is(n, "?upgradable", 0, 0)) return leaf(Op::Upgradable);
    if (is(n, "?version", 1, 1)) return with_regex(Op::Version);
    if (is(n, "?virtual", 0, 0)) return leaf(Op::Virtual);
    if (is(n, "?x-name-fnmatch", 1, 1)) return with_word(Op::NameGlob);
    const bool narrow = n.text == "?narrow";
    if (is(n, "?and", 0, -1) || is(n, "?narrow", 0, -1) || is(n, "?or", 0, -1)) {
        out.op = n.text == "?or" ? Op::Or : Op::And;
        for (const PatternSyntax& a : n.args) out.children.push_back(compile(a));
        if (!narrow) return out;
        // ?narrow(A, B) is ?any-version(?and(A, B)).
        out.term = "?and";
        Node any;
        any.op = Op::AnyVersion;
        any.term = "?any-version";
        any.children.push_back(std::move(out));
        return any;
    }
    fail(n, "Unrecognized pattern '" + n.text + "'");
}

void render(const Node& n, std::string& out) {
    out += n.term;
    if (n.children.empty() && n.word.empty() && n.op != Op::And && n.op != Op::Or) return;
    out += '(';
    if (!n.word.empty()) out += n.word;
    for (size_t i = 0; i < n.children.size(); ++i) {
        if (i) out += ',';
        render(n.children[i], out);
    }
    out += ')';
}

bool any_node(const Node& n, Op op) {
    if (n.op == op) return true;
    return std::any_of(n.children.begin(), n.children.end(), [&](const Node& c) { return any_node(c, op); });
}

std::string_view priority_name(cache::Priority p) {
    switch (p) {
        case cache::Priority::Required: return "required";
        case cache::Priority::Important: return "important";
        case cache::Priority::Standard: return "standard";
        case cache::Priority::Optional: return "optional";
        case cache::Priority::Extra: return "extra";
        case cache::Priority::Unknown: break;
    }
    return "";
}

// apt's virtual package of a name no package record has: the native
// architecture's, without versions, not installed.
cache::Package virtual_package(const cache::Cache& c, uint32_t name, cache::StringId arch = cache::kNone) {
    cache::Package p{};
    p.name = name;
    p.architecture = arch == cache::kNone ? c.header().native_architecture : arch;
    p.first_version = 0;
    p.version_count = 0;
    p.current_version = cache::kNone;
    p.state = cache::InstallState::NotInstalled;
    return p;
}

class Matcher {
public:
    explicit Matcher(const PatternContext& ctx) : ctx_(ctx), c_(ctx.cache) {}

    bool package(const Node& n, const cache::Package& p) const {
        switch (n.op) {
            case Op::True: return true;
            case Op::False: return false;
            case Op::And:
                return std::all_of(n.children.begin(), n.children.end(), [&](const Node& k) { return package(k, p); });
            case Op::Or:
                return std::any_of(n.children.begin(), n.children.end(), [&](const Node& k) { return package(k, p); });
            case Op::Not: return !package(n.children[0], p);
            case Op::AnyVersion:
                for (const cache::Version& v : c_.versions_of(p))
                    if (version(n.children[0], v)) return true;
                return false;
            case Op::AllVersions:
                for (const cache::Version& v : c_.versions_of(p))
                    if (!version(n.children[0], v)) return false;
                return true;
            case Op::Name: return (*n.regex)(c_.name_of(p));
            case Op::ExactName: return c_.name_of(p) == n.word;
            case Op::NameGlob: {
                std::string name(c_.name_of(p));
                return ::fnmatch(n.word.c_str(), name.c_str(), FNM_CASEFOLD) == 0;
            }
            case Op::Installed: return c_.current_version(p) != nullptr;
            case Op::Upgradable: return upgradable(p);
            case Op::Automatic: return (p.flags & cache::kPackageAuto) != 0;
            case Op::Essential:
                // apt's package flag: Essential: yes in a version it read; apt
                // also forces it on its own package (pkgCacheGen::ForceEssential).
                if (c_.name_of(p) == "apt" && c_.str(p.architecture) == c_.native_architecture()) return true;
                for (const cache::Version& v : c_.versions_of(p))
                    if (v.flags & cache::kVersionEssential) return true;
                return false;
            case Op::Obsolete: return obsolete(p);
            case Op::Garbage:
                // index_of() is only meaningful for a record of the cache.
                return ctx_.garbage && c_.current_version(p) && std::binary_search(ctx_.garbage->begin(), ctx_.garbage->end(), c_.index_of(p));
            case Op::Broken: return broken(p);
            case Op::ConfigFiles: return p.state == cache::InstallState::ConfigFiles;
            case Op::Virtual: return p.version_count == 0;
            // The package's architecture, never a version's ("all" matches nothing), as apt.
            case Op::Architecture: return deb::arch_matches(n.word, c_.str(p.architecture));
            case Op::ReverseDepends:
                for (const cache::RevDep& r : c_.rdepends(p.name)) {
                    const cache::Dependency& d = c_.dependencies()[r.dependency];
                    const cache::Version& from = c_.versions()[r.version];
                    if (d.type != n.dep || !names_package(d, from, p)) continue;
                    if (version(n.children[0], from)) return true;
                }
                return false;
            default:
                for (const cache::Version& v : c_.versions_of(p))
                    if (version(n, v)) return true;
                return false;
        }
    }

    bool version(const Node& n, const cache::Version& v) const {
        switch (n.op) {
            case Op::And:
                return std::all_of(n.children.begin(), n.children.end(), [&](const Node& k) { return version(k, v); });
            case Op::Or:
                return std::any_of(n.children.begin(), n.children.end(), [&](const Node& k) { return version(k, v); });
            case Op::Not: return !version(n.children[0], v);
            case Op::AnyVersion:
            case Op::AllVersions: return version(n.children[0], v);
            // Since apt 2.5.4 a narrowed ?installed means this version.
            case Op::Installed: return c_.current_version(c_.package_of(v)) == &v;
            case Op::Section: return (*n.regex)(c_.str(v.section));
            case Op::Priority: return priority_name(v.priority) == n.word;
            case Op::SourcePackage: return (*n.regex)(c_.str(v.source_name));
            case Op::SourceVersion: return (*n.regex)(c_.str(v.source_version));
            case Op::Version: return (*n.regex)(c_.str(v.version));
            case Op::Origin:
            case Op::Archive:
            case Op::Codename:
                for (const cache::VersionFile& f : c_.files_of(v))
                    if (release_field_matches(n, c_.index_files()[f.index_file])) return true;
                return false;
            case Op::Depends:
                for (const cache::Dependency& d : c_.dependencies_of(v)) {
                    if (d.type != n.dep) continue;
                    auto arch = target_arch(d, v);
                    if (!arch) continue;
                    std::string_view name = c_.str(c_.names()[d.target].name);
                    if (const cache::Package* t = c_.find_package(name, c_.str(*arch))) {
                        if (package(n.children[0], *t)) return true;
                    } else if (package(n.children[0], virtual_package(c_, d.target, *arch))) {
                        return true;
                    }
                }
                return false;
            default: return package(n, c_.package_of(v));
        }
    }

private:
    bool upgradable(const cache::Package& p) const {
        const cache::Version* current = c_.current_version(p);
        const cache::Version* cand = ctx_.candidates.candidate(p);
        return current && cand && current != cand &&
               deb::compare_versions(c_.str(cand->version), c_.str(current->version)) > 0;
    }

    // Installed, and no version of it is in any repository any more.
    bool obsolete(const cache::Package& p) const {
        if (!c_.current_version(p)) return false;
        for (const cache::Version& v : c_.versions_of(p))
            for (const cache::VersionFile& f : c_.files_of(v))
                if (c_.index_files()[f.index_file].kind != cache::IndexKind::Status) return false;
        return true;
    }

    bool release_field_matches(const Node& n, const cache::IndexFile& file) const {
        // The dpkg status is the archive "now" to apt, with no origin or codename.
        if (file.kind == cache::IndexKind::Status) return n.op == Op::Archive && (*n.regex)("now");
        if (file.release == cache::kNone) return false;
        const cache::Release& r = c_.releases()[file.release];
        cache::StringId field = n.op == Op::Origin ? r.origin : n.op == Op::Archive ? r.suite : r.codename;
        return field != 0 && (*n.regex)(c_.str(field));
    }

    // The architecture of the package a dependency names: its ":arch", else
    // the depender's (the native one for Architecture: all). "name:any"
    // names apt's pseudo package "name:any", which aptus has no record of:
    // nullopt, it selects nothing.
    std::optional<cache::StringId> target_arch(const cache::Dependency& d, const cache::Version& from) const {
        std::string_view arch = c_.str(d.arch_qualifier);
        if (arch == "any") return std::nullopt;
        if (arch.empty() || arch == "native") return c_.package_of(from).architecture;
        return d.arch_qualifier;
    }

    bool names_package(const cache::Dependency& d, const cache::Version& from, const cache::Package& p) const {
        auto arch = target_arch(d, from);
        return d.target == p.name && arch && c_.str(*arch) == c_.str(p.architecture);
    }

    // Installed, and a Depends or Pre-Depends of the installed version that
    // nothing installed meets, or a Conflicts/Breaks something installed hits.
    bool broken(const cache::Package& p) const {
        const cache::Version* v = c_.current_version(p);
        if (!v) return false;
        auto deps = c_.dependencies_of(*v);
        for (size_t i = 0; i < deps.size();) {
            size_t group_end = i;
            while (group_end < deps.size() && (deps[group_end].flags & cache::kDepOrNext)) ++group_end;
            ++group_end;
            const cache::Dependency& first = deps[i];
            if (first.type == cache::DepType::Depends || first.type == cache::DepType::PreDepends) {
                bool met = false;
                for (size_t k = i; k < group_end && !met; ++k) met = installed_satisfier(deps[k], *v, false);
                if (!met) return true;
            } else if (first.type == cache::DepType::Conflicts || first.type == cache::DepType::Breaks) {
                if (installed_satisfier(first, *v, true)) return true;
            }
            i = group_end;
        }
        return false;
    }

    bool version_meets(const cache::Dependency& d, std::string_view version) const {
        if (d.op == cache::DepOp::None) return true;
        int cmp = deb::compare_versions(version, c_.str(d.version));
        switch (d.op) {
            case cache::DepOp::Less: return cmp < 0;
            case cache::DepOp::LessEq: return cmp <= 0;
            case cache::DepOp::Equal: return cmp == 0;
            case cache::DepOp::GreaterEq: return cmp >= 0;
            case cache::DepOp::Greater: return cmp > 0;
            case cache::DepOp::None: break;
        }
        return true;
    }

    // Is some installed version (or an installed provider) what `d` names?
    // Negative relations never hit the depender's own package.
    bool installed_satisfier(const cache::Dependency& d, const cache::Version& from, bool negative) const {
        const cache::Package& self = c_.package_of(from);
        std::string_view qual = c_.str(d.arch_qualifier);
        auto arch_ok = [&](const cache::Package& t, const cache::Version& tv) {
            if (qual == "any") return tv.multi_arch == cache::MultiArch::Allowed || t.architecture == self.architecture;
            if (!qual.empty() && qual != "native") return c_.str(t.architecture) == qual;
            return t.architecture == self.architecture || c_.str(tv.architecture) == "all" ||
                   tv.multi_arch == cache::MultiArch::Foreign;
        };
        for (const cache::Package& t : c_.packages_of(d.target)) {
            const cache::Version* tv = c_.current_version(t);
            if (!tv || (negative && &t == &self)) continue;
            if (arch_ok(t, *tv) && version_meets(d, c_.str(tv->version))) return true;
        }
        for (uint32_t pi : c_.providers(d.target)) {
            const cache::Provide& pr = c_.provides()[pi];
            const cache::Version& tv = c_.versions()[pr.version];
            const cache::Package& t = c_.package_of(tv);
            if (c_.current_version(t) != &tv || (negative && &t == &self)) continue;
            if (d.op != cache::DepOp::None && (pr.provided_version == 0 || !version_meets(d, c_.str(pr.provided_version))))
                continue;
            if (arch_ok(t, tv)) return true;
        }
        return false;
    }

    const PatternContext& ctx_;
    const cache::Cache& c_;
};

}  // namespace

PackagePattern PackagePattern::parse(std::string_view text) {
    try {
        PatternSyntax tree = parse_syntax(text);
        PackagePattern out;
        out.root_ = std::make_shared<const Node>(compile(tree));
        return out;
    } catch (const PatternSyntaxError& e) {
        throw Error(error_text(text, e));
    }
}

bool PackagePattern::matches(const PatternContext& ctx, const cache::Package& p) const {
    return Matcher(ctx).package(*root_, p);
}

bool PackagePattern::matches(const PatternContext& ctx, const cache::Version& v) const {
    return Matcher(ctx).version(*root_, v);
}

bool PackagePattern::uses_garbage() const { return any_node(*root_, Op::Garbage); }

std::string PackagePattern::render() const {
    std::string out;
    request::render(*root_, out);
    return out;
}

std::vector<PatternMatch> packages_matching(const PatternContext& ctx, const PackagePattern& pattern) {
    std::vector<PatternMatch> out;
    const auto names = ctx.cache.names();
    for (uint32_t n = 0; n < names.size(); ++n) {
        if (names[n].package_count == 0) {
            if (pattern.matches(ctx, virtual_package(ctx.cache, n))) out.push_back({nullptr, n});
            continue;
        }
        for (const cache::Package& p : ctx.cache.packages_of(n))
            if (pattern.matches(ctx, p)) out.push_back({&p, n});
    }
    return out;
}

std::vector<std::string> expand_pattern_words(const PatternContext& ctx, const std::vector<std::string>& words) {
    std::vector<std::string> out;
    const cache::Cache& c = ctx.cache;
    for (const std::string& w : words) {
        if (!is_pattern_word(w)) {
            out.push_back(w);
            continue;
        }
        for (const PatternMatch& m : packages_matching(ctx, PackagePattern::parse(w))) {
            std::string name(c.str(c.names()[m.name].name));
            if (m.package && c.str(m.package->architecture) != c.native_architecture())
                name += ":" + std::string(c.str(m.package->architecture));
            out.push_back(std::move(name));
        }
    }
    return out;
}

}  // namespace aptus::request
