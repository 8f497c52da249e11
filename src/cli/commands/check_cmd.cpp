// apt's report of broken packages: " name : Kind: target (op v) but V is
// installed", further relations under the first, the alternatives of an
// or-group each on a line of their own ending in " or".
#include "cli/commands/check_cmd.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "aptus/system/broken_installed.hpp"
#include "aptus/system/system_universe.hpp"
#include "cli/message.hpp"
#include "cli/package_line.hpp"
#include "cli/read_session.hpp"
#include "cli/exit_status.hpp"

namespace aptus::cli {
namespace {

std::string target_text(const system::BrokenTarget& t) {
    std::string s = t.name;
    if (!t.relation.empty()) s += " " + t.relation;
    switch (t.state) {
        case system::BrokenTarget::State::Virtual: break;
        case system::BrokenTarget::State::Installed: s += " but " + t.installed_version + " is installed"; break;
        case system::BrokenTarget::State::NotInstalled: s += " but it is not installed"; break;
        case system::BrokenTarget::State::NotInstallable: s += " but it is not installable"; break;
        case system::BrokenTarget::State::ToBeInstalled: s += " but " + t.installed_version + " is to be installed"; break;
        case system::BrokenTarget::State::NotGoingToBeInstalled: s += " but it is not going to be installed"; break;
    }
    return s;
}

std::string report(const std::vector<system::BrokenPackage>& broken) {
    std::string out = "The following packages have unmet dependencies:\n";
    for (const system::BrokenPackage& p : broken) {
        const std::string indent(p.name.size() + 3, ' ');
        out += " " + p.name + " :";
        bool first = true;
        for (const system::BrokenRelation& r : p.relations) {
            for (size_t i = 0; i < r.alternatives.size(); ++i) {
                if (!first) out += indent;
                first = false;
                out += i == 0 ? " " + r.kind + ": " : std::string(r.kind.size() + 3, ' ');
                out += target_text(r.alternatives[i]);
                if (i + 1 < r.alternatives.size()) out += " or";
                out += '\n';
            }
        }
    }
    return out;
}

constexpr OptionSpec check_table[] = {
    {0, "json", "Aptus::Check::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"},
};
constexpr int json_schema_version = 1;

const char* state_name(system::BrokenTarget::State s) {
    switch (s) {
        case system::BrokenTarget::State::Virtual: return "virtual";
        case system::BrokenTarget::State::Installed: return "installed";
        case system::BrokenTarget::State::NotInstalled: return "not-installed";
        case system::BrokenTarget::State::NotInstallable: return "not-installable";
        case system::BrokenTarget::State::ToBeInstalled: return "to-be-installed";
        case system::BrokenTarget::State::NotGoingToBeInstalled: return "not-going-to-be-installed";
    }
    return "";
}

std::string broken_json(const std::vector<system::BrokenPackage>& broken) {
    nlohmann::ordered_json doc;
    doc["schema_version"] = json_schema_version;
    auto& list = doc["broken"] = nlohmann::ordered_json::array();
    for (const system::BrokenPackage& p : broken) {
        nlohmann::ordered_json pkg{{"package", p.name}, {"relations", nlohmann::ordered_json::array()}};
        for (const system::BrokenRelation& r : p.relations) {
            nlohmann::ordered_json rel{{"kind", r.kind}, {"alternatives", nlohmann::ordered_json::array()}};
            for (const system::BrokenTarget& t : r.alternatives) {
                nlohmann::ordered_json alt{{"name", t.name}, {"relation", t.relation}, {"state", state_name(t.state)}};
                if (!t.installed_version.empty()) alt["version"] = t.installed_version;
                rel["alternatives"].push_back(std::move(alt));
            }
            pkg["relations"].push_back(std::move(rel));
        }
        list.push_back(std::move(pkg));
    }
    return doc.dump(2) + "\n";
}

}  // namespace

std::span<const OptionSpec> check_options() { return check_table; }

int run_check(Context& ctx) {
    const config::Config& config = ctx.config;
    const bool json = config.find_bool("Aptus::Check::JSON");
    Progress progress(config, json);
    progress.start("Reading package lists");
    auto session = open_read_session(ctx);
    progress.start("Building dependency tree");
    system::SystemUniverse su = system::system_universe(session->cache(), *session->candidates);
    // As apt: the line is the reading of extended_states, so only when there is one.
    if (::access(config.find_file("Dir::State::extended_states").c_str(), F_OK) == 0)
        progress.start("Reading state information");
    progress.done();
    auto broken = system::broken_installed(su, config.find_bool("APT::Install-Recommends", true));
    if (json) {
        std::fputs(broken_json(broken).c_str(), stdout);
        return broken.empty() ? 0 : kExitError;
    }
    if (broken.empty()) return 0;
    return refuse_unmet(config, broken);
}

int refuse_unmet(const config::Config& config, const std::vector<system::BrokenPackage>& broken) {
    std::printf("You might want to run '%s --fix-broken install' to correct these.\n",
                advice_program(config).c_str());
    std::fputs(report(broken).c_str(), stdout);
    std::fflush(stdout);
    print_message(MessageLevel::Error,
                  "Unmet dependencies. Try '" + advice_program(config) +
                      " --fix-broken install' with no packages (or specify a solution).");
    return kExitError;
}

void print_unsatisfiable(const std::vector<system::BrokenPackage>& broken) {
    std::fputs("Some packages could not be installed. This may mean that you have\n"
               "requested an impossible situation or if you are using the unstable\n"
               "distribution that some required packages have not yet been created\n"
               "or been moved out of Incoming.\n"
               "The following information may help to resolve the situation:\n\n",
               stdout);
    std::fputs(report(broken).c_str(), stdout);
}

}  // namespace aptus::cli
