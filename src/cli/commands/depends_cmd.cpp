// apt-cache depends/rdepends, same lines: "  Depends: foo", " |" before an
// alternative that has a next one, "<foo>" for a name no version has, and
// below each dependency the other packages (newest versions) that satisfy
// it through Provides, least important first as apt sorts them. The walk
// builds a Report (blocks of entries); text and --json are two renderings
// of it.
#include "cli/commands/depends_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "aptus/base/error.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/request/apt_records.hpp"
#include "aptus/request/package_glob.hpp"
#include "aptus/request/apt_build_order.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec depends_table[] = {
    {0, "recurse", "APT::Cache::RecurseDepends", ArgKind::Flag, "follow the dependencies of each package found, recursively"},
    {0, "installed", "APT::Cache::Installed", ArgKind::Flag, "only dependencies that are installed"},
    {'i', "important", "APT::Cache::Important", ArgKind::Flag, "only Depends and Pre-Depends"},
    // --no-recommends etc. turn a type off, as apt-cache's do.
    {0, "implicit", "APT::Cache::ShowImplicit", ArgKind::Flag, "show the dependencies aptus implies (multi-arch)"},
    {0, "pre-depends", "APT::Cache::ShowPre-Depends", ArgKind::Flag, "show Pre-Depends (the default; --no-pre-depends: hide)"},
    {0, "depends", "APT::Cache::ShowDepends", ArgKind::Flag, "show Depends (the default; --no-depends: hide)"},
    {0, "recommends", "APT::Cache::ShowRecommends", ArgKind::Flag, "show Recommends (the default; --no-recommends: hide)"},
    {0, "suggests", "APT::Cache::ShowSuggests", ArgKind::Flag, "show Suggests (the default; --no-suggests: hide)"},
    {0, "conflicts", "APT::Cache::ShowConflicts", ArgKind::Flag, "show Conflicts (the default; --no-conflicts: hide)"},
    {0, "breaks", "APT::Cache::ShowBreaks", ArgKind::Flag, "show Breaks (the default; --no-breaks: hide)"},
    {0, "replaces", "APT::Cache::ShowReplaces", ArgKind::Flag, "show Replaces (the default; --no-replaces: hide)"},
    {0, "enhances", "APT::Cache::ShowEnhances", ArgKind::Flag, "show Enhances (the default; --no-enhances: hide)"},
    {0, "json", "Aptus::Depends::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};

using cache::DepType;

std::string_view type_name(DepType t) {
    switch (t) {
        case DepType::PreDepends: return "PreDepends";
        case DepType::Depends: return "Depends";
        case DepType::Conflicts: return "Conflicts";
        case DepType::Breaks: return "Breaks";
        case DepType::Recommends: return "Recommends";
        case DepType::Suggests: return "Suggests";
        case DepType::Replaces: return "Replaces";
        case DepType::Enhances: return "Enhances";
    }
    return "";
}

std::string_view op_text(cache::DepOp op) {
    switch (op) {
        case cache::DepOp::Less: return "<<";
        case cache::DepOp::LessEq: return "<=";
        case cache::DepOp::Equal: return "=";
        case cache::DepOp::GreaterEq: return ">=";
        case cache::DepOp::Greater: return ">>";
        default: return "";
    }
}

bool satisfies(std::string_view have, cache::DepOp op, std::string_view want) {
    if (op == cache::DepOp::None) return true;
    if (have.empty()) return false;
    int c = deb::compare_versions(have, want);
    switch (op) {
        case cache::DepOp::Less: return c < 0;
        case cache::DepOp::LessEq: return c <= 0;
        case cache::DepOp::Equal: return c == 0;
        case cache::DepOp::GreaterEq: return c >= 0;
        case cache::DepOp::Greater: return c > 0;
        default: return true;
    }
}

struct Options {
    bool recurse, installed, important, implicit, show_type, show_version;
    bool only_first_or;  // APT::Cache::ShowOnlyFirstOr: an or-group as its first member
    bool shown[8];  // by request::apt_field_rank
};

// One dependency line and the provider lines under it.
struct Entry {
    bool or_next;
    DepType type;
    std::string name;   // the target (depends) or the depending package (rdepends)
    bool has_versions;  // false: apt prints the name in <>
    cache::DepOp op;
    std::string_view version;  // "" when op is None
    std::vector<std::string> providers;
    bool not_equal = false;  // apt's implicit "Breaks: lib:i386 (!= 1.0)", which has no DepOp
};

// A package whose dependencies (or reverse dependencies) are listed.
struct Block {
    std::string package;
    std::vector<Entry> entries;
};

// A name with no version to list: apt prints these last as "<name>".
struct Virtual {
    std::string name;  // as printed
    uint32_t name_index;
    cache::StringId qualifier;  // "perl:any" is a package of its own to apt
};

struct Report {
    bool reverse;
    std::vector<Block> blocks;
    std::vector<Virtual> virtuals;  // the command line's and those --recurse reached
};

void add_unique(std::vector<Virtual>& vs, Virtual v) {
    for (const auto& x : vs)
        if (x.name == v.name) return;
    vs.push_back(std::move(v));
}

// The cache's string for an architecture name, as a qualifier for
// request::AptBuildOrder::package_rank: a package's architecture or a dependency's
// ":arch". An architecture no record and no dependency names gets
// kNoArchitecture, never 0 (0 is the plain name: "foo:i386" of a cache of
// Architecture: all packages is not "foo").
constexpr cache::StringId kNoArchitecture = UINT32_MAX;
cache::StringId architecture_id(const cache::Cache& c, std::string_view arch) {
    for (const auto& p : c.packages())
        if (c.str(p.architecture) == arch) return p.architecture;
    for (const auto& d : c.dependencies())
        if (d.arch_qualifier != 0 && c.str(d.arch_qualifier) == arch) return d.arch_qualifier;
    return kNoArchitecture;
}

// A name from the command line with no versions ("mail-agent",
// "maf-data:i386") as a Virtual entry.
Virtual virtual_word(const cache::Cache& c, const std::string& word) {
    size_t colon = word.find(':');
    if (colon == std::string::npos) return {word, c.find_name(word).value_or(0), 0};
    return {word, c.find_name(word.substr(0, colon)).value_or(0), architecture_id(c, word.substr(colon + 1))};
}

// A package record as a Virtual entry.
Virtual virtual_of(const cache::Cache& c, const cache::Package& p) {
    std::string_view arch = c.str(p.architecture);
    bool plain = arch == c.native_architecture() || arch == "all";
    return {request::full_name(c, p), p.name, plain ? 0 : p.architecture};
}

class Walker {
public:
    Walker(const ReadSession& s, const Options& o, bool reverse, std::vector<std::string> archs)
        : s_(s), c_(s.cache()), o_(o), reverse_(reverse), archs_(std::move(archs)) {
        shown_.assign(c_.packages().size(), false);
        if (reverse_) order_.emplace(c_);
    }

    void run(const std::vector<const cache::Version*>& start, Report& report) {
        for (const auto* v : start) queue_.push_back(v);
        while (!queue_.empty()) {
            const cache::Version* v = queue_.front();
            queue_.pop_front();
            const cache::Package& p = c_.package_of(*v);
            shown_[c_.index_of(p)] = true;
            current_ = &p;
            report.blocks.push_back({request::full_name(c_, p), {}});
            Block& b = report.blocks.back();
            std::string_view arch = request::apt_architecture(c_, p);
            if (reverse_) {
                for (const auto& rd : order_->reverse_dependencies(p))
                    line(c_.dependencies()[rd.dependency], &c_.package_of(c_.versions()[rd.version]), b, arch);
                if (o_.implicit) implicit_reverse(p, b);
            } else {
                const auto deps = forward_dependencies(*v);
                for (const auto* d : deps) {
                    if (qualified(*d) || !request::is_negative(d->type)) {
                        line(*d, qualified(*d) ? nullptr : request::package_for_arch(c_, d->target, arch), b, arch);
                        continue;
                    }
                    if (request::apt_has_record(c_, d->target, arch)) line(*d, request::package_for_arch(c_, d->target, arch), b, arch);
                }
                // apt files an unqualified Conflicts/Breaks/Replaces against
                // the name's records of every architecture, those of the other
                // architectures (implicit) after all of the version's own.
                for (const auto* d : deps) {
                    if (!o_.implicit || qualified(*d) || !request::is_negative(d->type)) continue;
                    for (const auto& a : archs_)
                        if (a != arch && request::apt_has_record(c_, d->target, a))
                            line(*d, request::package_for_arch(c_, d->target, a), b, a);
                }
                if (o_.implicit) implicit_forward(*v, b);
            }
        }
        for (auto& n : virtuals_) add_unique(report.virtuals, std::move(n));
        // apt keeps them in a set ordered by its package records, which are
        // in the order it created them.
        if (report.virtuals.size() > 1) {
            if (!order_) order_.emplace(c_);
            std::stable_sort(report.virtuals.begin(), report.virtuals.end(), [&](const Virtual& a, const Virtual& b) {
                return order_->package_rank(a.name_index, a.qualifier) < order_->package_rank(b.name_index, b.qualifier);
            });
        }
    }

private:
    std::vector<const cache::Dependency*> forward_dependencies(const cache::Version& v) const {
        std::vector<const cache::Dependency*> deps;
        for (const auto& d : c_.dependencies_of(v)) deps.push_back(&d);
        std::stable_sort(deps.begin(), deps.end(), [](const auto* a, const auto* b) {
            return request::apt_field_rank(a->type) < request::apt_field_rank(b->type);
        });
        return deps;
    }

    // "perl:any" is a package of its own to apt, with no versions; the
    // real perl satisfies it (Multi-Arch: allowed) and so is listed below it.
    static bool qualified(const cache::Dependency& d) { return d.arch_qualifier != 0; }

    // The qualifier apt's record of a dependency's target has for ordering
    // the trailing virtual names: the explicit one, else the foreign
    // architecture the name stands for.
    cache::StringId virtual_qualifier(const cache::Dependency& d, std::string_view arch) const {
        if (qualified(d) || arch == c_.native_architecture()) return d.arch_qualifier;
        return arch_id(arch);
    }
    // Memoized: the lookup may scan every dependency of the cache.
    cache::StringId arch_id(std::string_view arch) const {
        auto it = arch_ids_.find(arch);
        if (it == arch_ids_.end()) it = arch_ids_.emplace(std::string(arch), architecture_id(c_, arch)).first;
        return it->second;
    }

    // apt turns "Conflicts: foo:any" (and Breaks, Replaces) into a
    // multi-arch implicit dependency, which depends hides without --implicit.
    bool implicit(const cache::Dependency& d) const {
        bool negative = d.type == DepType::Conflicts || d.type == DepType::Breaks || d.type == DepType::Replaces;
        return negative && qualified(d) && c_.str(d.arch_qualifier) == "any";
    }

    // What apt adds between the architectures of a package when the cache
    // is built: a Multi-Arch: same version replaces and breaks every other
    // version of its siblings, any other version conflicts with them.
    // Architecture: all versions have no siblings.
    struct Sibling {
        DepType type;
        const cache::Package* package;
        bool not_equal;
    };
    std::vector<Sibling> implicit_of(const cache::Version& v) const {
        std::vector<Sibling> out;
        const cache::Package& p = c_.package_of(v);
        if (c_.str(v.architecture) == "all") return out;
        std::string_view arch = request::apt_architecture(c_, p);
        for (const auto& a : archs_) {
            if (a == arch) continue;
            const cache::Package* sib = request::package_for_arch(c_, p.name, a);
            if (!sib) continue;
            if (v.multi_arch == cache::MultiArch::Same) {
                out.push_back({DepType::Replaces, sib, false});
                out.push_back({DepType::Breaks, sib, true});
            } else {
                out.push_back({DepType::Conflicts, sib, false});
            }
        }
        return out;
    }

    void implicit_forward(const cache::Version& v, Block& b) {
        for (const auto& sib : implicit_of(v)) {
            if (!o_.shown[request::apt_field_rank(sib.type)]) continue;
            if (o_.installed && sib.package->current_version == cache::kNone) continue;
            Entry e{};
            e.type = sib.type;
            e.name = request::full_name(c_, *sib.package);
            e.has_versions = sib.package->version_count > 0;
            // Conflicts go with every version, so they carry none.
            e.op = sib.type == DepType::Replaces ? cache::DepOp::Less : cache::DepOp::None;
            e.not_equal = sib.not_equal;
            if (e.op != cache::DepOp::None || e.not_equal) e.version = c_.str(v.version);
            if (o_.recurse) enqueue(*sib.package);
            b.entries.push_back(std::move(e));
        }
    }

    // The reverse side of implicit dependencies: the siblings' implicit
    // lines and the other architectures' unqualified Conflicts, Breaks and
    // Replaces on this name. Appended after apt's ordered list: their
    // place in apt's list is not rebuilt (the test compares these as sets).
    void implicit_reverse(const cache::Package& p, Block& b) {
        std::string_view arch = request::apt_architecture(c_, p);
        for (const auto& rd : c_.rdepends(p.name)) {
            const auto& d = c_.dependencies()[rd.dependency];
            const cache::Package& from = c_.package_of(c_.versions()[rd.version]);
            if (qualified(d) || !request::is_negative(d.type) || request::apt_architecture(c_, from) == arch) continue;
            line(d, &from, b, arch);
        }
        for (const auto& sp : c_.packages_of(p.name)) {
            if (&sp == &p) continue;
            for (const auto& v : c_.versions_of(sp))
                for (const auto& sib : implicit_of(v)) {
                    if (sib.package != &p || !o_.shown[request::apt_field_rank(sib.type)]) continue;
                    if (o_.installed && sp.current_version == cache::kNone) continue;
                    Entry e{};
                    e.type = sib.type;
                    e.name = request::full_name(c_, sp);
                    e.has_versions = true;
                    e.op = sib.type == DepType::Replaces ? cache::DepOp::Less : cache::DepOp::None;
                    e.not_equal = sib.not_equal;
                    if (e.op != cache::DepOp::None || e.not_equal) e.version = c_.str(v.version);
                    if (o_.recurse) enqueue(sp);
                    b.entries.push_back(std::move(e));
                }
        }
    }

    bool essential(const cache::Package& p) const {
        for (const auto& v : c_.versions_of(p))
            if (v.flags & cache::kVersionEssential) return true;
        return false;
    }
    bool important(const cache::Package& p) const {
        for (const auto& v : c_.versions_of(p))
            if (v.flags & (cache::kVersionImportant | cache::kVersionProtected)) return true;
        return false;
    }

    // Does version `v` of the real package satisfy a dependency on it with
    // this qualifier? ":any" takes Multi-Arch: allowed versions, an explicit
    // architecture the versions of that architecture.
    // `arch`: the architecture the unqualified name stands for (the
    // depending package's); a version of another architecture counts only
    // when it is Multi-Arch: foreign.
    bool qualifier_accepts(const cache::Dependency& d, const cache::Version& v, std::string_view arch) const {
        std::string_view own = request::apt_architecture(c_, c_.package_of(v));
        if (!qualified(d)) return own == arch || v.multi_arch == cache::MultiArch::Foreign;
        std::string_view q = c_.str(d.arch_qualifier);
        if (q == "any") return v.multi_arch == cache::MultiArch::Allowed;
        return q == own || (q == "native" && own == c_.native_architecture());
    }

    // `other`: the target (depends) or the depending package (rdepends);
    // null when no package record has the name.
    // `arch`: the architecture of the package the unqualified name stands
    // for (forward: the record the dependency is filed against; reverse:
    // the listed package's).
    void line(const cache::Dependency& d, const cache::Package* other, Block& b, std::string_view arch) {
        if (o_.only_first_or && !reverse_) {
            bool rest_of_group = skipping_or_;
            skipping_or_ = d.flags & cache::kDepOrNext;
            if (rest_of_group) return;
        }
        if (!o_.shown[request::apt_field_rank(d.type)]) return;
        if (!reverse_ && !o_.implicit && implicit(d)) return;
        if (!reverse_ && qualified(d)) other = nullptr;  // apt's "name:arch" package has no versions
        // apt lists the providers only under a line it printed.
        if (o_.installed && !(other && other->current_version != cache::kNone)) return;
        Entry e{};
        e.or_next = (d.flags & cache::kDepOrNext) && !(o_.only_first_or && !reverse_);
        e.type = d.type;
        e.name = other ? request::full_name(c_, *other) : std::string(c_.str(c_.names()[d.target].name));
        if (!reverse_ && qualified(d)) e.name += ":" + std::string(c_.str(d.arch_qualifier));
        else if (!other && arch != c_.native_architecture()) e.name += ":" + std::string(arch);
        e.has_versions = other && other->version_count > 0;
        e.op = d.op;
        if (d.op != cache::DepOp::None) e.version = c_.str(d.version);
        if (o_.recurse) {
            if (other) enqueue(*other);
            else add_unique(virtuals_, {e.name, d.target, reverse_ ? 0 : virtual_qualifier(d, arch)});
        }
        // Every version that satisfies the dependency; shown are the other
        // packages' newest versions among them.
        std::vector<const cache::Version*> targets;
        const cache::Package* own = qualified(d) ? nullptr : request::package_for_arch(c_, d.target, arch);
        for (const auto& real : c_.packages_of(d.target))
            for (const auto& v : c_.versions_of(real))
                if (qualifier_accepts(d, v, arch) && satisfies(c_.str(v.version), d.op, c_.str(d.version)))
                    targets.push_back(&v);
        for (uint32_t pi : c_.providers(d.target)) {
            const auto& pr = c_.provides()[pi];
            const cache::Version& pv = c_.versions()[pr.version];
            // A Provides counts for its own architecture, or for every one
            // when the provider is Multi-Arch: foreign.
            if (!qualified(d) && request::apt_architecture(c_, c_.package_of(pv)) != arch &&
                pv.multi_arch != cache::MultiArch::Foreign)
                continue;
            if (satisfies(c_.str(pr.provided_version), d.op, c_.str(d.version))) targets.push_back(&pv);
        }
        std::sort(targets.begin(), targets.end(),
                  [&](const cache::Version* a, const cache::Version* b) { return prio_less(*a, *b); });
        // A package does not conflict with itself: apt leaves the declaring
        // package out of the providers under its Conflicts and Breaks lines
        // (postfix Conflicts: mail-transport-agent), in rdepends too.
        bool negative = d.type == DepType::Conflicts || d.type == DepType::Breaks;
        const cache::Package* declaring = reverse_ ? other : current_;
        for (const auto* v : targets) {
            const cache::Package& vp = c_.package_of(*v);
            // Nor with its own other architectures (mta-a:i386 is not listed
            // under mta-a's Conflicts: <mail-agent>).
            if (&c_.versions_of(vp).front() != v || &vp == own || (negative && declaring && vp.name == declaring->name))
                continue;
            e.providers.push_back(request::full_name(c_, vp));
            if (o_.recurse) enqueue(vp);
        }
        b.entries.push_back(std::move(e));
    }

    // apt's order for alternatives: non-essential before essential,
    // unimportant before important, lower priority before higher, then name.
    bool prio_less(const cache::Version& a, const cache::Version& b) const {
        const auto& pa = c_.package_of(a);
        const auto& pb = c_.package_of(b);
        bool ea = essential(pa), eb = essential(pb);
        if (ea != eb) return eb;
        bool ia = important(pa), ib = important(pb);
        if (ia != ib) return ib;
        if (a.priority != b.priority) return int(a.priority) > int(b.priority);
        if (pa.name != pb.name) return c_.name_of(pa) < c_.name_of(pb);
        // The same name in two architectures: apt lists the one it read
        // last (the foreign one) first.
        return c_.index_of(pa) > c_.index_of(pb);
    }

    // apt walks the packages --recurse reaches breadth first, each once,
    // at its candidate; one without a candidate is listed as virtual.
    void enqueue(const cache::Package& p) {
        uint32_t i = c_.index_of(p);
        if (shown_[i]) return;
        shown_[i] = true;
        if (const auto* v = s_.candidates->candidate(p)) queue_.push_back(v);
        else add_unique(virtuals_, virtual_of(c_, p));
    }

    const ReadSession& s_;
    const cache::Cache& c_;
    const Options& o_;
    bool reverse_;
    std::vector<std::string> archs_;  // native first, then APT::Architectures
    std::optional<request::AptBuildOrder> order_;  // rdepends only: it costs a pass over the cache
    const cache::Package* current_ = nullptr;  // the package whose lines are being listed
    std::vector<bool> shown_;
    std::deque<const cache::Version*> queue_;
    bool skipping_or_ = false;  // only_first_or: inside an or-group whose first member was listed
    std::vector<Virtual> virtuals_;
    mutable std::map<std::string, cache::StringId, std::less<>> arch_ids_;
};

std::string render_text(const Report& r, const Options& o) {
    std::string out;
    for (const Block& b : r.blocks) {
        out += b.package + "\n";
        if (r.reverse) out += "Reverse Depends:\n";
        for (const Entry& e : b.entries) {
            out += e.or_next ? " |" : "  ";
            if (o.show_type) out.append(type_name(e.type)).append(": ");
            out += e.has_versions ? e.name : "<" + e.name + ">";
            if (o.show_version && (e.op != cache::DepOp::None || e.not_equal))
                out.append(" (").append(e.not_equal ? "!=" : op_text(e.op)).append(" ").append(e.version).append(")");
            out += "\n";
            for (const auto& p : e.providers) out += "    " + p + "\n";
        }
    }
    for (const auto& v : r.virtuals) out += "<" + v.name + ">\n";
    return out;
}

// The same report as data; docs/json/depends.md is the contract.
std::string render_json(const Report& r) {
    using json = nlohmann::ordered_json;
    json pkgs = json::array();
    for (const Block& b : r.blocks) {
        json deps = json::array();
        for (const Entry& e : b.entries) {
            json d;
            d["type"] = type_name(e.type);
            d["package"] = e.name;
            d["virtual"] = !e.has_versions;
            d["or_next"] = e.or_next;
            d["constraint"] = e.op == cache::DepOp::None && !e.not_equal
                                  ? json(nullptr)
                                  : json{{"op", e.not_equal ? "!=" : op_text(e.op)}, {"version", e.version}};
            d["providers"] = e.providers;
            deps.push_back(std::move(d));
        }
        pkgs.push_back({{"package", b.package}, {"virtual", false}, {"dependencies", std::move(deps)}});
    }
    for (const auto& v : r.virtuals)
        pkgs.push_back({{"package", v.name}, {"virtual", true}, {"dependencies", json::array()}});
    json doc;
    doc["schema_version"] = 1;
    doc["command"] = r.reverse ? "rdepends" : "depends";
    doc["packages"] = std::move(pkgs);
    return doc.dump(2) + "\n";
}

// On the command line "perl:any" names perl of any architecture, which
// with one architecture is the native package (not apt's "perl:any"
// record that dependencies point at).
std::string any_as_native(std::string_view word) {
    size_t end = std::min(word.find('='), word.find('/'));
    std::string_view name = word.substr(0, end);
    if (name.size() > 4 && name.substr(name.size() - 4) == ":any")
        return std::string(name.substr(0, name.size() - 4)) + std::string(word.substr(name.size()));
    return std::string(word);
}

// The words a glob or regular expression stands for: per matched name the
// package apt prefers (the native one, else the first architecture apt has
// a record for) or the one of the word's architecture, in the order apt
// created the package records, each with the word's "=version" or
// "/release".
std::vector<std::string> glob_words(const cache::Cache& c, const request::AptBuildOrder& order,
                                    const std::vector<std::string>& archs, const request::PackageWord& pw,
                                    const std::vector<uint32_t>& names) {
    bool any_arch = pw.arch.empty() || pw.arch == "any" || pw.arch == "all" || pw.arch == "native";
    struct Match {
        uint32_t rank;
        std::string word;
    };
    std::vector<Match> found;
    for (uint32_t n : names) {
        std::string_view arch;
        if (!any_arch) {
            if (request::apt_has_record(c, n, pw.arch)) arch = pw.arch;
        } else {
            for (const auto& a : archs)
                if (request::apt_has_record(c, n, a)) {
                    arch = a;
                    break;
                }
        }
        if (arch.empty()) continue;
        bool native = arch == c.native_architecture();
        cache::StringId q = native ? 0 : architecture_id(c, arch);
        std::string word(c.str(c.names()[n].name));
        if (!native) word += ":" + std::string(arch);
        if (!pw.version.empty()) word += "=" + pw.version;
        else if (!pw.release.empty()) word += "/" + pw.release;
        found.push_back({order.package_rank(n, q), std::move(word)});
    }
    std::stable_sort(found.begin(), found.end(), [](const Match& a, const Match& b) { return a.rank < b.rank; });
    std::vector<std::string> out;
    for (auto& m : found) out.push_back(std::move(m.word));
    return out;
}

int run(Context& ctx, bool reverse) {
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    const auto& cfg = ctx.config;
    Options o{};
    o.recurse = cfg.find_bool("APT::Cache::RecurseDepends");
    o.installed = cfg.find_bool("APT::Cache::Installed");
    o.important = cfg.find_bool("APT::Cache::Important");
    o.implicit = cfg.find_bool("APT::Cache::ShowImplicit");
    o.show_type = cfg.find_bool("APT::Cache::ShowDependencyType", !reverse);
    o.show_version = cfg.find_bool("APT::Cache::ShowVersion");
    o.only_first_or = cfg.find_bool("APT::Cache::ShowOnlyFirstOr");
    bool imp = !o.important;
    o.shown[request::apt_field_rank(DepType::PreDepends)] = cfg.find_bool("APT::Cache::ShowPre-Depends", true);
    o.shown[request::apt_field_rank(DepType::Depends)] = cfg.find_bool("APT::Cache::ShowDepends", true);
    o.shown[request::apt_field_rank(DepType::Recommends)] = cfg.find_bool("APT::Cache::ShowRecommends", imp);
    o.shown[request::apt_field_rank(DepType::Suggests)] = cfg.find_bool("APT::Cache::ShowSuggests", imp);
    o.shown[request::apt_field_rank(DepType::Replaces)] = cfg.find_bool("APT::Cache::ShowReplaces", imp);
    o.shown[request::apt_field_rank(DepType::Conflicts)] = cfg.find_bool("APT::Cache::ShowConflicts", imp);
    o.shown[request::apt_field_rank(DepType::Breaks)] = cfg.find_bool("APT::Cache::ShowBreaks", imp);
    o.shown[request::apt_field_rank(DepType::Enhances)] = cfg.find_bool("APT::Cache::ShowEnhances", imp);

    // apt's architectures, native first: the order apt files a negative
    // dependency against each of them.
    std::vector<std::string> archs{std::string(c.native_architecture())};
    for (const auto& a : cfg.find_list("APT::Architectures"))
        if (std::find(archs.begin(), archs.end(), a) == archs.end()) archs.push_back(a);

    std::vector<std::string> notices;
    request::Selection sel;
    std::optional<request::AptBuildOrder> order;  // only for globs
    for (const auto& w : ctx.args) {
        request::PackageWord pw = request::parse_package_word(w);
        if (!c.find_name(pw.name) && !request::is_pattern_word(w)) {  // a pattern: request::select_versions reads it
            auto matched = request::match_package_names(c, pw.name);
            if (!matched.empty()) {
                if (!order) order.emplace(c);
                for (const auto& word : glob_words(c, *order, archs, pw, matched))
                    request::select_versions(c, *s->candidates, word, request::Select::Candidate, sel, notices);
                continue;
            }
        }
        request::select_versions(c, *s->candidates, any_as_native(w), request::Select::Candidate, sel, notices);
    }
    Report report{reverse, {}, {}};
    for (const auto* p : sel.virtuals) add_unique(report.virtuals, virtual_of(c, *p));
    for (const auto& n : sel.virtual_names) add_unique(report.virtuals, virtual_word(c, n));
    if (sel.versions.empty() && report.virtuals.empty()) throw Error("No packages found");

    Walker walker(*s, o, reverse, std::move(archs));
    walker.run(sel.versions, report);
    std::string out = cfg.find_bool("Aptus::Depends::JSON") ? render_json(report) : render_text(report, o);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace

std::span<const OptionSpec> depends_options() { return depends_table; }
int run_depends(Context& ctx) { return run(ctx, false); }
int run_rdepends(Context& ctx) { return run(ctx, true); }

}  // namespace aptus::cli
