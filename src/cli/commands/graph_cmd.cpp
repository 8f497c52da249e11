// apt-cache xvcg / dotty, by apt's walk: starting from the packages named
// ("NAME^": shown without following its dependencies), each shown package's
// newest version adds an edge per critical dependency (Pre-Depends,
// Depends, Conflicts, Breaks) and its target to the walk; a Conflicts or
// Breaks on something no version satisfies is drawn but not followed, and
// with APT::Cache::GivenOnly no target is followed. Then one node per
// package reached, shaped by what it is: versions or none, provided or not.
#include "cli/commands/graph_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "aptus/deb/relation.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/apt_package_refs.hpp"
#include "aptus/request/apt_records.hpp"
#include "aptus/request/apt_build_order.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

enum class Show : uint8_t { None, ToShow, ToShowNR, DoneNR, Done };

struct Node {
    request::AptPackageRef ref;
    std::string name;  // FullName(true)
    Show show = Show::None;
    bool force_nr = false;
    int shape = 0;  // 0 missing, 1 only provided, 2 normal, 3 normal and provided
};

struct Edge {
    std::string from, to;
    cache::DepType type;
};

class Graph {
public:
    Graph(const cache::Cache& c, bool given_only) : c_(c), given_only_(given_only) {}

    size_t node(const request::AptPackageRef& ref) {
        std::string name = request::ref_full_name(c_, ref);
        auto [it, fresh] = index_.try_emplace(name, nodes_.size());
        if (fresh) {
            Node n{ref, name};
            bool provided = !c_.providers(ref.name).empty();
            bool versions = ref.real && ref.real->version_count > 0;
            n.shape = versions ? (provided ? 3 : 2) : (provided ? 1 : 0);
            nodes_.push_back(std::move(n));
        }
        return it->second;
    }
    void start(size_t n, bool no_recurse) {
        nodes_[n].show = Show::ToShow;
        nodes_[n].force_nr |= no_recurse;
    }

    void walk() {
        for (bool act = true; act;) {
            act = false;
            // apt walks its packages in hash table order, every pass.
            for (size_t i : hash_order()) {
                Node& n = nodes_[i];
                if (n.show == Show::None || n.show >= Show::DoneNR) continue;
                if (n.show == Show::ToShowNR || n.force_nr)
                    n.show = n.shape <= 1 ? Show::Done : Show::DoneNR;
                else
                    n.show = Show::Done;
                act = true;
                if (!n.ref.real || n.ref.real->version_count == 0 || n.show == Show::DoneNR) continue;
                const cache::Package& p = *n.ref.real;
                const cache::Version& v = c_.versions_of(p).front();
                std::vector<const cache::Dependency*> deps;
                for (const auto& d : c_.dependencies_of(v)) deps.push_back(&d);
                std::stable_sort(deps.begin(), deps.end(), [](const auto* a, const auto* b) {
                    return request::apt_field_rank(a->type) < request::apt_field_rank(b->type);
                });
                std::string from = nodes_[i].name;
                for (const auto* d : deps) {
                    bool critical = d->type == cache::DepType::PreDepends || d->type == cache::DepType::Depends ||
                                    d->type == cache::DepType::Conflicts || d->type == cache::DepType::Breaks;
                    if (!critical) continue;
                    request::AptPackageRef target = request::dependency_target(c_, *d, p);
                    bool hit = satisfied(*d, target);
                    size_t t = node(target);
                    edges_.push_back({from, nodes_[t].name, d->type});
                    Show& ts = nodes_[t].show;
                    if (ts > Show::DoneNR) continue;
                    bool negative = d->type == cache::DepType::Conflicts || d->type == cache::DepType::Breaks;
                    if (!hit && negative) {
                        if (ts == Show::None) ts = Show::ToShowNR;
                    } else {
                        ts = given_only_ && ts != Show::ToShow ? Show::ToShowNR : Show::ToShow;
                    }
                }
            }
        }
    }

    // The nodes in the order apt walks its package hash table.
    std::vector<size_t> hash_order() const {
        std::vector<size_t> order(nodes_.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return request::apt_hash_key(c_.str(c_.names()[nodes_[a].ref.name].name)) <
                   request::apt_hash_key(c_.str(c_.names()[nodes_[b].ref.name].name));
        });
        return order;
    }
    const std::vector<Node>& nodes() const { return nodes_; }
    const std::vector<Edge>& edges() const { return edges_; }

private:
    bool satisfied(const cache::Dependency& d, const request::AptPackageRef& target) const {
        std::string_view want = c_.str(d.version);
        auto op = deb::RelationOp(uint8_t(d.op));  // same values (format.hpp)
        if (target.real)
            for (const auto& v : c_.versions_of(*target.real))
                if (deb::relation_satisfied_by(op, want, c_.str(v.version))) return true;
        for (uint32_t pi : c_.providers(target.name)) {
            const auto& pr = c_.provides()[pi];
            if (d.op == cache::DepOp::None ||
                (pr.provided_version && deb::relation_satisfied_by(op, want, c_.str(pr.provided_version))))
                return true;
        }
        return false;
    }

    const cache::Cache& c_;
    bool given_only_;
    std::vector<Node> nodes_;
    std::map<std::string, size_t> index_;
    std::vector<Edge> edges_;
};

// The graph of the command line's packages (all of them without any).
Graph build(Context& ctx, const cache::Cache& c) {
    Graph g(c, ctx.config.find_bool("APT::Cache::GivenOnly", false));
    std::vector<std::string> notices;
    if (ctx.args.empty()) {
        std::vector<const cache::Package*> pkgs = request::packages_in_apt_order(c);
        for (const auto* p : pkgs)
            g.start(g.node({p->name, std::string(request::apt_architecture(c, *p)), p}), false);
    }
    for (std::string word : ctx.args) {
        // apt's postfix modifiers: "name^" shown but not followed, "name," as is.
        bool no_recurse = false;
        if (word.size() > 1 && (word.back() == '^' || word.back() == ',')) {
            no_recurse = word.back() == '^';
            word.pop_back();
        }
        auto refs = request::apt_packages_for_word(c, ctx.config, word);
        if (refs.empty()) notices.push_back("Unable to locate package " + word);
        for (const auto& ref : refs) g.start(g.node(ref), no_recurse);
    }
    if (effective_quiet(ctx.config) == 0)
        for (auto& n : notices) ctx.diags.push_back({Level::Notice, std::move(n)});
    g.walk();
    return g;
}

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

}  // namespace

int run_xvcg(Context& ctx) {
    auto s = open_read_session(ctx);
    Graph g = build(ctx, s->cache());
    static const char* const shapes[] = {"ellipse", "triangle", "box", "rhomb"};
    std::string out = "graph: { title: \"packages\"\nxmax: 700 ymax: 700 x: 30 y: 30\nlayout_downfactor: 8\n";
    for (const auto& e : g.edges()) {
        out += "edge: { sourcename: \"" + e.from + "\" targetname: \"" + e.to + "\" class: 2 ";
        switch (e.type) {
            case cache::DepType::Conflicts: out += "label: \"conflicts\" color: lightgreen }\n"; break;
            case cache::DepType::Breaks: out += "label: \"breaks\" color: lightgreen }\n"; break;
            case cache::DepType::PreDepends: out += "label: \"predepends\" color: blue }\n"; break;
            default: out += "}\n"; break;
        }
    }
    for (size_t i : g.hash_order()) {
        const Node& n = g.nodes()[i];
        if (n.show < Show::DoneNR) continue;
        out += "node: { title: \"" + n.name + "\" label: \"" + n.name + "\"" +
               (n.show == Show::DoneNR ? " color: orange" : "") + " shape: " + shapes[n.shape] + " }\n";
    }
    out += "}\n";
    print(out);
    return 0;
}

int run_dotty(Context& ctx) {
    auto s = open_read_session(ctx);
    Graph g = build(ctx, s->cache());
    static const char* const shapes[] = {"hexagon", "triangle", "box", "diamond"};
    std::string out = "digraph packages {\nconcentrate=true;\nsize=\"30,40\";\n";
    for (const auto& e : g.edges()) {
        out += "\"" + e.from + "\" -> \"" + e.to + "\"";
        switch (e.type) {
            case cache::DepType::Conflicts:
            case cache::DepType::Breaks: out += "[color=springgreen];\n"; break;
            case cache::DepType::PreDepends: out += "[color=blue];\n"; break;
            default: out += ";\n"; break;
        }
    }
    for (size_t i : g.hash_order()) {
        const Node& n = g.nodes()[i];
        if (n.show < Show::DoneNR) continue;
        out += "\"" + n.name + "\" [" + (n.show == Show::DoneNR ? "color=orange," : "") + "shape=" + shapes[n.shape] + "];\n";
    }
    out += "}\n";
    print(out);
    return 0;
}

}  // namespace aptus::cli
