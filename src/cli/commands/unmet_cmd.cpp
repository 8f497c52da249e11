// apt-cache unmet: for every version (or the candidates of the packages
// named), each or-group no version in the cache satisfies, under
// "Package NAME version V has an unmet dep:". Conflicts, Breaks and
// Replaces are never unmet; with --important (APT::Cache::Important) only
// Depends and Pre-Depends count. Whether an alternative is satisfiable is
// the solver universe's question (Universe::satisfiers: versions and
// provides, Multi-Arch rules); this file only groups and prints.
#include "cli/commands/unmet_cmd.hpp"

#include <algorithm>
#include <cstdio>

#include "aptus/system/system_universe.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/apt_package_refs.hpp"
#include "aptus/request/apt_build_order.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec unmet_table[] = {
    {'i', "important", "APT::Cache::Important", ArgKind::Flag, "only Depends and Pre-Depends"},
};

using cache::DepType;

// apt's DepType() names.
std::string_view type_name(DepType t) {
    switch (t) {
        case DepType::Depends: return "Depends";
        case DepType::PreDepends: return "PreDepends";
        case DepType::Recommends: return "Recommends";
        case DepType::Suggests: return "Suggests";
        case DepType::Enhances: return "Enhances";
        case DepType::Breaks: return "Breaks";
        case DepType::Conflicts: return "Conflicts";
        case DepType::Replaces: return "Replaces";
    }
    return "";
}

// apt's CompType(): "<" and ">" where the field says "<<" and ">>".
std::string_view comp_type(cache::DepOp op) {
    switch (op) {
        case cache::DepOp::Less: return "<";
        case cache::DepOp::LessEq: return "<=";
        case cache::DepOp::Equal: return "=";
        case cache::DepOp::GreaterEq: return ">=";
        case cache::DepOp::Greater: return ">";
        default: return "";
    }
}

class UnmetReport {
public:
    UnmetReport(const cache::Cache& c, const system::SystemUniverse& su, bool important)
        : c_(c), su_(su), important_(important) {}

    std::string of(const cache::Version& v) const {
        std::string out;
        auto from = su_.version_of(c_.index_of(v));
        if (!from) return out;
        const cache::Package& p = c_.package_of(v);
        // apt's order of the fields; an or-group stays together (one type).
        std::vector<const cache::Dependency*> deps;
        for (const auto& d : c_.dependencies_of(v)) deps.push_back(&d);
        std::stable_sort(deps.begin(), deps.end(), [](const auto* a, const auto* b) {
            return request::apt_field_rank(a->type) < request::apt_field_rank(b->type);
        });
        for (size_t i = 0; i < deps.size();) {
            size_t end = i;
            while (end + 1 < deps.size() && (deps[end]->flags & cache::kDepOrNext)) ++end;
            DepType type = deps[end]->type;
            size_t first = i;
            i = end + 1;
            if (important_ && type != DepType::Depends && type != DepType::PreDepends) continue;
            if (type == DepType::Conflicts || type == DepType::Breaks || type == DepType::Replaces) continue;
            bool ok = false;
            for (size_t k = first; k <= end && !ok; ++k) ok = satisfiable(*from, *deps[k]);
            if (ok) continue;
            if (out.empty())
                out = "Package " + request::full_name(c_, p) + " version " + std::string(c_.str(v.version)) + " has an unmet dep:\n";
            out += " " + std::string(type_name(type)) + ": ";
            for (size_t k = first; k <= end; ++k) {
                const cache::Dependency& d = *deps[k];
                out += request::dependency_target_name(c_, d, p);
                if (d.op != cache::DepOp::None)
                    out += " (" + std::string(comp_type(d.op)) + " " + std::string(c_.str(d.version)) + ")";
                if (k != end) out += " | ";
            }
            out += "\n";
        }
        return out;
    }

private:
    bool satisfiable(uint32_t from, const cache::Dependency& d) const {
        const solver::Universe& u = su_.universe;
        auto name = u.find_name(c_.str(c_.names()[d.target].name));
        if (!name) return false;
        solver::Target t;
        t.name = *name;
        if (d.arch_qualifier) t.arch = std::string(c_.str(d.arch_qualifier));
        t.op = deb::RelationOp(uint8_t(d.op));  // same values (format.hpp)
        if (d.version) t.version = std::string(c_.str(d.version));
        std::vector<uint32_t> found;
        u.satisfiers(from, t, found);
        return !found.empty();
    }

    const cache::Cache& c_;
    const system::SystemUniverse& su_;
    bool important_;
};

}  // namespace

std::span<const OptionSpec> unmet_options() { return unmet_table; }

int run_unmet(Context& ctx) {
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    system::SystemUniverse su = system::system_universe(c, *s->candidates);
    UnmetReport report(c, su, ctx.config.find_bool("APT::Cache::Important", false));

    std::vector<const cache::Version*> versions;
    std::vector<std::string> notices;
    if (ctx.args.empty()) {
        // Every version, packages in the order apt walks its hash table.
        std::vector<const cache::Package*> pkgs = request::packages_in_apt_order(c);
        for (const auto* p : pkgs)
            for (const auto& v : c.versions_of(*p)) versions.push_back(&v);
    } else {
        request::Selection sel;
        for (const auto& w : ctx.args) request::select_versions(c, *s->candidates, w, request::Select::Candidate, sel, notices);
        versions = sel.versions;
    }
    std::string out;
    for (const auto* v : versions) out += report.of(*v);
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (effective_quiet(ctx.config) == 0)
        for (auto& n : notices) ctx.diags.push_back({Level::Notice, std::move(n)});
    return 0;
}

}  // namespace aptus::cli
