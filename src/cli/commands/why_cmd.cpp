// `why` and `why-not`: the solver's answers (solver/why.hpp) as numbered,
// indented facts or as JSON (docs/json/why.md). `why` needs only what is
// installed; `why-not` needs every version with its candidate.
#include "cli/commands/why_cmd.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "aptus/base/error.hpp"
#include "aptus/solver/why.hpp"
#include "aptus/system/installed_system.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/read_session.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec why_table[] = {
    {0, "json", "Aptus::Why::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

using solver::Universe;
using solver::WhyNotResult;
using solver::WhyResult;
using solver::WhyStep;

std::string single_argument(const Context& ctx) {
    if (ctx.args.size() != 1) throw Error("Only a single argument is supported at this time.");
    return ctx.args[0];
}

// "name" (native architecture first, then any) or "name:arch".
std::optional<uint32_t> find_package(const Universe& u, const std::string& word) {
    size_t colon = word.find(':');
    if (colon != std::string::npos) return u.find_package(word.substr(0, colon), word.substr(colon + 1));
    if (auto p = u.find_package(word, u.native_arch)) return p;
    if (auto n = u.find_name(word))
        for (uint32_t p : u.packages_named(*n))
            if (!u.packages[p].versions.empty()) return p;
    return std::nullopt;
}

bool known_to_cache(const cache::Cache& c, const std::string& word) {
    return c.find_name(word.substr(0, word.find(':'))).has_value();
}

nlohmann::ordered_json version_json(const Universe& u, uint32_t v) {
    return {{"package", u.package_name(u.versions[v].package)}, {"version", u.versions[v].version}};
}

nlohmann::ordered_json steps_json(const Universe& u, const std::vector<WhyStep>& steps) {
    auto out = nlohmann::ordered_json::array();
    for (const WhyStep& s : steps) {
        nlohmann::ordered_json j;
        j["from"] = version_json(u, s.from);
        j["from_installed"] = u.versions[s.from].installed;
        j["kind"] = std::string(solver::dep_kind_name(s.kind));
        j["relation"] = s.relation;
        j["to"] = s.to ? version_json(u, *s.to) : nlohmann::ordered_json(nullptr);
        j["depth"] = s.depth;
        out.push_back(std::move(j));
    }
    return out;
}

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

std::string root_text(solver::RootKind k) {
    switch (k) {
    case solver::RootKind::Manual: return "is installed manually";
    case solver::RootKind::Requested: return "is requested";
    case solver::RootKind::Essential: return "is Essential";
    case solver::RootKind::Protected: return "is protected";
    case solver::RootKind::Required: return "has Priority: required";
    case solver::RootKind::NeverAutoRemove: return "matches APT::NeverAutoRemove";
    case solver::RootKind::Held: return "is held";
    }
    return "";
}

std::string verdict_name(WhyResult::Verdict v) {
    switch (v) {
    case WhyResult::Verdict::NotInstalled: return "not-installed";
    case WhyResult::Verdict::Root: return "root";
    case WhyResult::Verdict::Chain: return "chain";
    case WhyResult::Verdict::Unreached: return "unreached";
    }
    return "";
}

std::string verdict_name(WhyNotResult::Verdict v) {
    switch (v) {
    case WhyNotResult::Verdict::Installed: return "installed";
    case WhyNotResult::Verdict::NoCandidate: return "no-candidate";
    case WhyNotResult::Verdict::KeptOut: return "kept-out";
    case WhyNotResult::Verdict::Installable: return "installable";
    }
    return "";
}

std::string why_text(const Universe& u, uint32_t package, const WhyResult& w) {
    std::string name = u.package_name(package);
    switch (w.verdict) {
    case WhyResult::Verdict::NotInstalled: return name + " is not installed\n";
    case WhyResult::Verdict::Root: return u.describe(w.version) + " " + root_text(w.root) + "\n";
    case WhyResult::Verdict::Unreached:
        return u.describe(w.version) + " is installed automatically, and nothing installed needs it: autoremove would remove it\n";
    case WhyResult::Verdict::Chain: break;
    }
    std::string out = u.describe(w.version) + " is installed because:\n";
    out += "  1. " + u.describe(w.steps.front().from) + " " + root_text(w.root) + "\n";
    for (size_t i = 0; i < w.steps.size(); ++i) {
        const WhyStep& s = w.steps[i];
        std::string n = std::to_string(i + 2) + ". ";
        out += "  " + n + u.describe(s.from) + " " + std::string(solver::dep_kind_name(s.kind)) + " " + s.relation + "\n";
        out += "  " + std::string(n.size(), ' ') + "[" + u.describe(*s.to) + " is installed]\n";
    }
    return out;
}

std::string why_not_text(const Universe& u, uint32_t package, const WhyNotResult& w) {
    std::string name = u.package_name(package);
    switch (w.verdict) {
    case WhyNotResult::Verdict::Installed: return u.describe(w.version) + " is installed\n";
    case WhyNotResult::Verdict::NoCandidate: {
        std::string out = name + " has no installation candidate";
        std::string versions;
        for (uint32_t v : u.packages[package].versions) versions += (versions.empty() ? "" : ", ") + u.versions[v].version;
        if (!versions.empty()) out += " (available: " + versions + "; none is the candidate)";
        return out + "\n";
    }
    case WhyNotResult::Verdict::Installable:
        return name + " is not installed, but nothing keeps it out: " + u.describe(w.version) + " can be installed\n";
    case WhyNotResult::Verdict::KeptOut: break;
    }
    std::string out = u.describe(w.version) + " cannot be installed because:\n";
    if (w.steps.empty()) {
        out += "  it cannot be installed together with what is installed:\n";
        size_t start = 0;
        while (start < w.solver_message.size()) {
            size_t end = w.solver_message.find('\n', start);
            if (end == std::string::npos) end = w.solver_message.size();
            out += "    " + w.solver_message.substr(start, end - start) + "\n";
            start = end + 1;
        }
        return out;
    }
    for (const WhyStep& s : w.steps) {
        std::string indent(2 + 4 * s.depth, ' ');
        std::string kind(solver::dep_kind_name(s.kind));
        std::string from = (u.versions[s.from].installed ? "the installed " : "") + u.describe(s.from);
        if (solver::is_negative(s.kind))
            out += indent + from + " " + kind + " " + s.relation + ", which " +
                   (u.versions[*s.to].installed ? "the installed " : "") + u.describe(*s.to) + " is\n";
        else if (!s.to)
            out += indent + from + " " + kind + " " + s.relation + ", and nothing installable meets it\n";
        else
            out += indent + from + " " + kind + " " + s.relation + "; " + u.describe(*s.to) + " cannot be installed:\n";
    }
    return out;
}

}  // namespace

std::span<const OptionSpec> why_options() { return why_table; }

int run_why(Context& ctx) {
    std::string word = single_argument(ctx);
    bool json = ctx.config.find_bool("Aptus::Why::JSON");
    auto session = open_read_session(ctx);
    // A package is kept only through what is installed: the installed versions are enough.
    system::SystemUniverse sys = system::installed_universe(session->cache());
    const Universe& u = sys.universe;
    solver::Request request;
    system::apply_autoremove_settings(ctx.config, request);
    std::optional<uint32_t> package = find_package(u, word);
    if (!package) {
        if (!known_to_cache(session->cache(), word)) throw Error("Unable to locate package " + word);
        if (json) {
            nlohmann::ordered_json out;
            out["schema_version"] = json_schema_version;
            out["package"] = word;
            out["verdict"] = verdict_name(WhyResult::Verdict::NotInstalled);
            print(out.dump(2) + "\n");
        } else {
            print(word + " is not installed\n");
        }
        return 0;
    }
    std::vector<uint32_t> selected(u.versions.size());
    for (uint32_t v = 0; v < selected.size(); ++v) selected[v] = v;
    WhyResult w = solver::why(u, selected, *package, request);
    if (!json) {
        print(why_text(u, *package, w));
        return 0;
    }
    nlohmann::ordered_json out;
    out["schema_version"] = json_schema_version;
    out["package"] = u.package_name(*package);
    out["verdict"] = verdict_name(w.verdict);
    out["version"] = u.versions[w.version].version;
    if (w.verdict == WhyResult::Verdict::Root || w.verdict == WhyResult::Verdict::Chain) {
        uint32_t root = w.verdict == WhyResult::Verdict::Root ? w.version : w.steps.front().from;
        auto r = version_json(u, root);
        r["reason"] = std::string(solver::root_kind_name(w.root));
        out["root"] = r;
    }
    if (w.verdict == WhyResult::Verdict::Chain) out["strength"] = std::string(solver::dep_kind_name(w.strength));
    out["steps"] = steps_json(u, w.steps);
    print(out.dump(2) + "\n");
    return 0;
}

int run_why_not(Context& ctx) {
    std::string word = single_argument(ctx);
    bool json = ctx.config.find_bool("Aptus::Why::JSON");
    auto session = open_read_session(ctx);
    system::SystemUniverse sys = system::system_universe(session->cache(), *session->candidates);
    const Universe& u = sys.universe;
    std::optional<uint32_t> package = find_package(u, word);
    if (!package) throw Error("Unable to locate package " + word);
    solver::Request request;
    system::apply_autoremove_settings(ctx.config, request);
    request.remove_manual = ctx.config.find_bool("APT::Solver::RemoveManual", false);
    request.strict_pinning = ctx.config.find_bool("APT::Solver::Strict-Pinning", true);
    WhyNotResult w = solver::why_not(u, *package, request);
    if (!json) {
        print(why_not_text(u, *package, w));
        return 0;
    }
    nlohmann::ordered_json out;
    out["schema_version"] = json_schema_version;
    out["package"] = u.package_name(*package);
    out["verdict"] = verdict_name(w.verdict);
    out["version"] = w.verdict == WhyNotResult::Verdict::NoCandidate ? nlohmann::ordered_json(nullptr)
                                                                      : nlohmann::ordered_json(u.versions[w.version].version);
    out["steps"] = steps_json(u, w.steps);
    out["solver_message"] = w.solver_message;
    print(out.dump(2) + "\n");
    return 0;
}

}  // namespace aptus::cli
