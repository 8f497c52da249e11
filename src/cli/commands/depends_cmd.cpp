// apt-cache depends/rdepends, same lines: "  Depends: foo", " |" before an
// alternative that has a next one, "<foo>" for a name no version has, and
// below each dependency the other packages (newest versions) that satisfy
// it through Provides, least important first as apt sorts them.
#include "cli/commands/depends_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <nlohmann/json.hpp>

#include "aptus/base/error.hpp"
#include "aptus/deb/version.hpp"
#include "cli/read_session.hpp"
#include "cli/version_select.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec depends_table[] = {
    {0, "recurse", "APT::Cache::RecurseDepends", ArgKind::Flag},
    {0, "installed", "APT::Cache::Installed", ArgKind::Flag},
    {0, "important", "APT::Cache::Important", ArgKind::Flag},
    // --no-recommends etc. turn a type off, as apt-cache's do.
    {0, "implicit", "APT::Cache::ShowImplicit", ArgKind::Flag},
    {0, "pre-depends", "APT::Cache::ShowPre-Depends", ArgKind::Flag},
    {0, "depends", "APT::Cache::ShowDepends", ArgKind::Flag},
    {0, "recommends", "APT::Cache::ShowRecommends", ArgKind::Flag},
    {0, "suggests", "APT::Cache::ShowSuggests", ArgKind::Flag},
    {0, "conflicts", "APT::Cache::ShowConflicts", ArgKind::Flag},
    {0, "breaks", "APT::Cache::ShowBreaks", ArgKind::Flag},
    {0, "replaces", "APT::Cache::ShowReplaces", ArgKind::Flag},
    {0, "enhances", "APT::Cache::ShowEnhances", ArgKind::Flag},
    {0, "json", "Aptus::Depends::JSON", ArgKind::Flag},
};

using cache::DepType;

// The order apt's parser reads the fields in, which is the order it lists them.
int type_rank(DepType t) {
    switch (t) {
        case DepType::PreDepends: return 0;
        case DepType::Depends: return 1;
        case DepType::Conflicts: return 2;
        case DepType::Breaks: return 3;
        case DepType::Recommends: return 4;
        case DepType::Suggests: return 5;
        case DepType::Replaces: return 6;
        case DepType::Enhances: return 7;
    }
    return 8;
}

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
    bool recurse, installed, important, show_type, show_version;
    bool shown[8];  // by type_rank
};

class Walker {
public:
    Walker(const ReadSession& s, const Options& o, bool reverse) : s_(s), c_(s.cache()), o_(o), reverse_(reverse) {
        shown_.assign(c_.packages().size(), false);
    }

    void run(const std::vector<const cache::Version*>& start, std::string& out) {
        for (const auto* v : start) queue_.push_back(v);
        while (!queue_.empty()) {
            const cache::Version* v = queue_.front();
            queue_.pop_front();
            const cache::Package& p = c_.package_of(*v);
            shown_[c_.index_of(p)] = true;
            current_ = &p;
            out += full_name(c_, p) + "\n";
            if (reverse_) {
                out += "Reverse Depends:\n";
                for (const Item& it : reverse_items(p)) line(it, out);
            } else {
                for (const Item& it : forward_items(*v)) line(it, out);
            }
        }
    }

private:
    const cache::Package* current_ = nullptr;  // the package whose lines are being printed

    struct Item {
        const cache::Dependency* dep;
        const cache::Package* other;  // target (depends) or depender (rdepends); null: no package record
        uint32_t target_name;
    };

    std::vector<Item> forward_items(const cache::Version& v) {
        std::vector<Item> items;
        for (const auto& d : c_.dependencies_of(v)) items.push_back({&d, qualified(d) ? nullptr : target_package(d.target), d.target});
        std::stable_sort(items.begin(), items.end(),
                         [](const Item& a, const Item& b) { return type_rank(a.dep->type) < type_rank(b.dep->type); });
        return items;
    }

    // apt prepends each new dependency to its target's list while reading
    // the files, so the newest-read come first.
    std::vector<Item> reverse_items(const cache::Package& p) {
        std::vector<Item> items;
        for (const auto& rd : c_.rdepends(p.name)) {
            const auto& d = c_.dependencies()[rd.dependency];
            const auto& v = c_.versions()[rd.version];
            items.push_back({&d, &c_.package_of(v), d.target});
        }
        std::reverse(items.begin(), items.end());
        return items;
    }

    // "perl:any" is a package of its own to apt, with no versions; the
    // real perl satisfies it (Multi-Arch: allowed) and so is listed below it.
    bool qualified(const cache::Dependency& d) const { return d.arch_qualifier != 0; }

    const cache::Package* target_package(uint32_t name) const {
        auto pkgs = c_.packages_of(name);
        for (const auto& p : pkgs)
            if (c_.str(p.architecture) == c_.native_architecture()) return &p;
        return pkgs.empty() ? nullptr : &pkgs.front();
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

    void line(const Item& it, std::string& out) {
        const cache::Dependency& d = *it.dep;
        if (!o_.shown[type_rank(d.type)]) return;
        const cache::Package* trg = it.other;
        bool has_versions = trg && trg->version_count > 0;
        if (!o_.installed || (trg && trg->current_version != cache::kNone)) {
            out += (d.flags & cache::kDepOrNext) ? " |" : "  ";
            if (o_.show_type) out.append(type_name(d.type)).append(": ");
            std::string name = trg ? full_name(c_, *trg) : std::string(c_.str(c_.names()[it.target_name].name));
            if (!reverse_ && qualified(d)) name += ":" + std::string(c_.str(d.arch_qualifier));
            out += has_versions ? name : "<" + name + ">";
            if (o_.show_version && d.op != cache::DepOp::None)
                out.append(" (").append(op_text(d.op)).append(" ").append(c_.str(d.version)).append(")");
            out += "\n";
            if (o_.recurse) {
                if (trg) enqueue(*trg);
                else add_virtual(name);
            }
        } else {
            return;  // apt lists the providers only under a line it printed
        }
        // Every version that satisfies the dependency; shown are the other
        // packages' newest versions among them.
        std::vector<const cache::Version*> targets;
        const cache::Package* real = target_package(d.target);
        const cache::Package* own = qualified(d) ? nullptr : real;
        if (real)
            for (const auto& v : c_.versions_of(*real))
                if ((!qualified(d) || v.multi_arch == cache::MultiArch::Allowed) &&
                    satisfies(c_.str(v.version), d.op, c_.str(d.version)))
                    targets.push_back(&v);
        for (uint32_t pi : c_.providers(d.target)) {
            const auto& pr = c_.provides()[pi];
            if (satisfies(c_.str(pr.provided_version), d.op, c_.str(d.version))) targets.push_back(&c_.versions()[pr.version]);
        }
        std::sort(targets.begin(), targets.end(), [&](const cache::Version* a, const cache::Version* b) {
            return prio_less(*a, *b);
        });
        for (const auto* v : targets) {
            const cache::Package& vp = c_.package_of(*v);
            // A package does not conflict with itself: apt leaves it out of
            // the providers under its own Conflicts and Breaks lines
            // (postfix Conflicts: mail-transport-agent), not under others.
            bool negative = d.type == cache::DepType::Conflicts || d.type == cache::DepType::Breaks;
            if (&c_.versions_of(vp).front() != v || &vp == own || (!reverse_ && negative && &vp == current_)) continue;
            out += "    " + full_name(c_, vp) + "\n";
            if (o_.recurse) enqueue(vp);
        }
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
        return c_.name_of(pa) < c_.name_of(pb);
    }

    void enqueue(const cache::Package& p) {
        uint32_t i = c_.index_of(p);
        if (shown_[i]) return;
        shown_[i] = true;
        if (const auto* v = s_.candidates->candidate(p)) queue_.push_back(v);
        else add_virtual(full_name(c_, p));
    }

public:
    // Names reached by --recurse that have no version to follow: apt
    // lists them with the command line's virtual names.
    std::vector<std::string> virtuals;

private:
    void add_virtual(std::string name) {
        if (std::find(virtuals.begin(), virtuals.end(), name) == virtuals.end()) virtuals.push_back(std::move(name));
    }

    const ReadSession& s_;
    const cache::Cache& c_;
    const Options& o_;
    bool reverse_;
    std::vector<bool> shown_;
    std::deque<const cache::Version*> queue_;
};

int run(Context& ctx, bool reverse) {
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    const auto& cfg = ctx.config;
    Options o{};
    o.recurse = cfg.find_bool("APT::Cache::RecurseDepends");
    o.installed = cfg.find_bool("APT::Cache::Installed");
    o.important = cfg.find_bool("APT::Cache::Important");
    o.show_type = cfg.find_bool("APT::Cache::ShowDependencyType", !reverse);
    o.show_version = cfg.find_bool("APT::Cache::ShowVersion");
    bool imp = !o.important;
    o.shown[type_rank(DepType::PreDepends)] = cfg.find_bool("APT::Cache::ShowPre-Depends", true);
    o.shown[type_rank(DepType::Depends)] = cfg.find_bool("APT::Cache::ShowDepends", true);
    o.shown[type_rank(DepType::Recommends)] = cfg.find_bool("APT::Cache::ShowRecommends", imp);
    o.shown[type_rank(DepType::Suggests)] = cfg.find_bool("APT::Cache::ShowSuggests", imp);
    o.shown[type_rank(DepType::Replaces)] = cfg.find_bool("APT::Cache::ShowReplaces", imp);
    o.shown[type_rank(DepType::Conflicts)] = cfg.find_bool("APT::Cache::ShowConflicts", imp);
    o.shown[type_rank(DepType::Breaks)] = cfg.find_bool("APT::Cache::ShowBreaks", imp);
    o.shown[type_rank(DepType::Enhances)] = cfg.find_bool("APT::Cache::ShowEnhances", imp);

    std::vector<std::string> notices;
    Selection sel;
    for (const auto& w : ctx.args) select_versions(c, *s->candidates, w, Select::Candidate, sel, notices);
    std::vector<std::string> virtuals;
    for (const auto* p : sel.virtuals) virtuals.push_back(full_name(c, *p));
    for (const auto& n : sel.virtual_names) virtuals.push_back(n);
    if (sel.versions.empty() && virtuals.empty()) throw Error("No packages found");

    std::string out;
    Walker walker(*s, o, reverse);
    walker.run(sel.versions, out);
    for (auto& n : walker.virtuals)
        if (std::find(virtuals.begin(), virtuals.end(), n) == virtuals.end()) virtuals.push_back(n);
    for (const auto& n : virtuals) out += "<" + n + ">\n";
    if (cfg.find_bool("Aptus::Depends::JSON")) {
        // The text lines as data: apt-cache's format is the contract here.
        nlohmann::ordered_json doc;
        doc["version"] = 1;
        nlohmann::ordered_json pkgs = nlohmann::ordered_json::array();
        size_t pos = 0;
        while (pos < out.size()) {
            size_t nl = out.find('\n', pos);
            std::string ln = out.substr(pos, nl - pos);
            pos = nl + 1;
            if (ln == "Reverse Depends:") continue;
            if (ln.empty() || ln[0] != ' ') {
                pkgs.push_back({{"package", ln}, {"dependencies", nlohmann::ordered_json::array()}});
                continue;
            }
            if (ln.rfind("    ", 0) == 0) {
                pkgs.back()["dependencies"].back()["providers"].push_back(ln.substr(4));
                continue;
            }
            nlohmann::ordered_json d;
            d["or_next"] = ln[1] == '|';
            std::string rest = ln.substr(2);
            size_t colon = rest.find(": ");
            d["type"] = colon == std::string::npos ? "" : rest.substr(0, colon);
            if (colon != std::string::npos) rest = rest.substr(colon + 2);
            d["virtual"] = !rest.empty() && rest[0] == '<';
            if (d["virtual"]) rest = rest.substr(1, rest.size() - 2);
            d["package"] = rest;
            d["providers"] = nlohmann::ordered_json::array();
            pkgs.back()["dependencies"].push_back(d);
        }
        doc["packages"] = pkgs;
        out = doc.dump(2) + "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace

std::span<const OptionSpec> depends_options() { return depends_table; }
int run_depends(Context& ctx) { return run(ctx, false); }
int run_rdepends(Context& ctx) { return run(ctx, true); }

}  // namespace aptus::cli
