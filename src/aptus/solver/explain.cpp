#include "aptus/solver/explain.hpp"

#include <algorithm>

#include "aptus/solver/suggest.hpp"

namespace aptus::solver {
namespace {

std::string candidate_of(const Universe& u, uint32_t pkg) {
    for (uint32_t v : u.packages[pkg].versions)
        if (u.versions[v].candidate) return u.versions[v].version;
    return {};
}

bool package_installed(const Universe& u, uint32_t pkg) {
    for (uint32_t v : u.packages[pkg].versions)
        if (u.versions[v].installed) return true;
    return false;
}

// "pinned to -1 (/etc/apt/preferences:3)"; the place is added to `pins`
// (when given), for the explanation's offer to change it.
std::string pinned_text(const Version& v, std::vector<std::string>* pins) {
    if (pins && !v.pin_source.empty()) pins->push_back(v.pin_source);
    return "pinned to " + std::to_string(v.pin) + (v.pin_source.empty() ? "" : " (" + v.pin_source + ")");
}

// Why none of the versions that would satisfy `d` can be chosen, when the
// solver had no choice at all for it.
std::string why_no_choice(const Universe& u, const Request& r, uint32_t from, const Dependency& d,
                          std::vector<std::string>* pins) {
    std::vector<uint32_t> sats;
    for (const Target& t : d.alternatives) u.satisfiers(from, t, sats);
    if (sats.empty()) return "but no available package satisfies it";
    std::string out = "but none of these can be chosen:";
    for (uint32_t s : sats) {
        const Version& v = u.versions[s];
        out += "\n     - " + u.describe(s);
        if (r.forbid_new_install && !package_installed(u, v.package))
            out += ": not installed, and this upgrade installs no new packages";
        else if (v.pin < 0 && !v.installed)
            // A negative pin forbids it whatever the switches say: name where it was set.
            out += ": " + pinned_text(v, pins);
        else if (!v.installed && !v.candidate &&
                 std::find(r.install.begin(), r.install.end(), v.package) != r.install.end()) {
            // The user named another version (name=version, name/release
            // set its candidate): no switch would change that.
            out += ": the request installs " + u.package_name(v.package) + "=" + candidate_of(u, v.package);
        } else if (r.strict_pinning && !v.installed && !v.candidate) {
            std::string cand = candidate_of(u, v.package);
            out += cand.empty() ? ": the package has no installation candidate"
                                : ": not the candidate (" + cand + "); --no-strict-pinning would allow it";
        } else if (v.pin <= 0) {
            out += ": " + pinned_text(v, pins);
        }
    }
    return out;
}

// What a removal takes with it that the user must name: the manual packages
// (solver3 keeps those unless named) and the Essential or protected ones
// (with --allow-remove-essential). "" when it takes nothing of the kind.
// The request that names them all is the suggestion (suggest.hpp), once
// the solver has met it.
std::string whole_removal(const Universe& u, const Request& r) {
    std::vector<std::string> manual, essential;
    for (const RemovalBlocker& b : removal_blockers(u, r))
        (b.vital ? essential : manual).push_back(u.package_name(b.package));
    if (manual.empty() && essential.empty()) return "";
    auto listed = [](const std::vector<std::string>& names) {
        std::string s;
        for (size_t i = 0; i < names.size() && i < 8; ++i) s += (i ? ", " : "") + names[i];
        if (names.size() > 8) s += " and " + std::to_string(names.size() - 8) + " more";
        return s;
    };
    std::string out = "\nRemoving it takes ";
    if (!manual.empty())
        out += std::to_string(manual.size()) + " manually installed package" + (manual.size() == 1 ? "" : "s") + " (" +
               listed(manual) + ")" + (essential.empty() ? "" : " and ");
    if (!essential.empty())
        out += std::to_string(essential.size()) + " Essential or protected (" + listed(essential) +
               ", which also needs --allow-remove-essential)";
    return out + " with it.";
}

// explain_facts(), with the places of the pins the facts name in `pins`.
std::vector<Fact> facts_of(const Universe& u, const Request& r, const std::vector<Reason>& core,
                           std::vector<std::string>* pins) {
    std::vector<Fact> facts;
    for (const Reason& re : core) {
        std::string line;
        std::string pkg = u.package_name(re.package);
        std::vector<Fact> requests_too;  // the user's requests that ruled out a dependency's choices
        switch (re.kind) {
        case ReasonKind::RequestInstall: {
            std::string cand = candidate_of(u, re.package);
            line = pkg + " is requested for install" + (cand.empty() ? " (it has no installation candidate)" : " (candidate " + cand + ")");
            break;
        }
        case ReasonKind::RequestRemove:
            line = pkg + " is requested for removal";
            break;
        case ReasonKind::Hold:
            line = pkg + " is held at " + u.versions[re.version].version;
            break;
        case ReasonKind::Essential: line = pkg + " is Essential and installed, so it stays installed"; break;
        case ReasonKind::Protected: line = pkg + " is protected and installed, so it stays installed"; break;
        case ReasonKind::NewEssential:
            line = pkg + " is Essential in its candidate release, so a full upgrade installs it";
            break;
        case ReasonKind::NoRemovals: line = pkg + " is installed, and this upgrade removes nothing"; break;
        case ReasonKind::Manual:
            line = pkg + " is installed manually, so it stays installed";
            break;
        case ReasonKind::OneVersion:
            line = pkg + " can have only one version installed (" + u.versions[re.version].version + " or " +
                   u.versions[re.other].version + ")";
            break;
        case ReasonKind::MultiArchSame:
            line = u.describe(re.version) + " and " + u.describe(re.other) +
                   " are Multi-Arch: same, so they cannot be installed together at different versions";
            break;
        case ReasonKind::OneArchitecture:
            line = u.describe(re.version) + " and " + u.describe(re.other) +
                   " are not both Multi-Arch: same, so only one of them can be installed";
            break;
        case ReasonKind::Dependency: {
            const Dependency& d = u.deps(re.version)[re.dep];
            line = u.describe(re.version) + " " + std::string(dep_kind_name(d.kind)) + " " + u.dependency_text(d);
            // A dependency clause alone in the chain of facts with nothing to
            // choose from: say why each satisfier is out.
            std::vector<uint32_t> sats;
            for (const Target& t : d.alternatives) u.satisfiers(re.version, t, sats);
            bool any_allowed = std::any_of(sats.begin(), sats.end(), [&](uint32_t s) {
                const Version& v = u.versions[s];
                if (r.forbid_new_install && !package_installed(u, v.package)) return false;
                return v.installed || !r.strict_pinning || v.candidate;
            });
            if (any_allowed) {
                // A choice a pin forbids is named with the file and line that set it.
                std::string pinned;
                for (uint32_t sat : sats) {
                    const Version& sv = u.versions[sat];
                    if (sv.pin >= 0 || sv.installed) continue;
                    pinned += "\n     - " + u.describe(sat) + ": " + pinned_text(sv, pins);
                }
                if (!pinned.empty()) line += "\n     (a pin rules out:" + pinned + ")";
            }
            if (!any_allowed) {
                line += "\n     " + why_no_choice(u, r, re.version, d, pins);
                for (uint32_t sat : sats) {
                    const uint32_t p = u.versions[sat].package;
                    if (u.versions[sat].candidate ||
                        std::find(r.install.begin(), r.install.end(), p) == r.install.end())
                        continue;
                    Fact rf;
                    rf.kind = ReasonKind::RequestInstall;
                    rf.package = u.package_name(p);
                    rf.version = candidate_of(u, p);
                    rf.text = rf.package + " is requested for install at " + rf.version;
                    requests_too.push_back(std::move(rf));
                }
            }
            break;
        }
        case ReasonKind::Conflict: {
            const Dependency& d = u.deps(re.version)[re.dep];
            const Target& t = d.alternatives[0];
            line = u.describe(re.version) + " " + std::string(dep_kind_name(d.kind)) + " " + u.target_text(t);
            if (u.names[u.packages[u.versions[re.other].package].name] != u.names[t.name])
                line += ", which " + u.describe(re.other) + " provides";
            else
                line += ", which " + u.describe(re.other) + " is";
            break;
        }
        }
        // One fact per line: a fact stated for each version (a removal) is told once.
        if (std::any_of(facts.begin(), facts.end(), [&](const Fact& f) { return f.text == line; })) continue;
        Fact f;
        f.kind = re.kind;
        f.package = pkg;
        switch (re.kind) {  // the kinds whose Reason names a version
            case ReasonKind::Hold:
            case ReasonKind::OneVersion:
            case ReasonKind::MultiArchSame:
            case ReasonKind::OneArchitecture:
            case ReasonKind::Dependency:
            case ReasonKind::Conflict: f.version = u.versions[re.version].version; break;
            default: break;
        }
        f.text = line;
        facts.push_back(std::move(f));
        for (Fact& rf : requests_too)
            if (std::none_of(facts.begin(), facts.end(), [&](const Fact& g) { return g.text == rf.text; }))
                facts.push_back(std::move(rf));
    }
    return facts;
}

}  // namespace

std::vector<Fact> explain_facts(const Universe& u, const Request& r, const std::vector<Reason>& core) {
    return facts_of(u, r, core, nullptr);
}

std::string explain(const Universe& u, const Request& r, const std::vector<Reason>& core) {
    std::string out = "Unable to satisfy the request: these facts cannot all hold:";
    std::vector<std::string> requested, held, manual, pins;
    size_t n = 0;
    // A request that ruled out every choice of a dependency is a fact of its
    // own (RequestInstall), so it is among the requests to change.
    for (const Fact& f : facts_of(u, r, core, &pins)) {
        out += "\n  " + std::to_string(++n) + ". " + f.text;
        if (f.kind == ReasonKind::RequestInstall) requested.push_back(f.package);
        if (f.kind == ReasonKind::RequestRemove) requested.push_back(f.package + "-");
        if (f.kind == ReasonKind::Hold) held.push_back(f.package);
        if (f.kind == ReasonKind::Manual) manual.push_back(f.package);
    }
    auto unique = [](std::vector<std::string>& v) {
        std::vector<std::string> u;
        for (auto& s : v)
            if (std::find(u.begin(), u.end(), s) == u.end()) u.push_back(s);
        v = u;
    };
    unique(requested);
    unique(manual);
    unique(held);
    // What the user could change: only the facts that come from a choice.
    std::vector<std::string> options;
    if (!requested.empty()) {
        std::string s = "change the request (";
        for (size_t i = 0; i < requested.size(); ++i) s += (i ? ", " : "") + requested[i];
        options.push_back(s + ")");
    }
    for (const std::string& m : manual) options.push_back("ask to remove " + m + " as well (" + m + "-)");
    // The pins the facts name, by the file and line that set them.
    unique(pins);
    for (const std::string& p : pins) options.push_back("change the pin at " + p);
    // The commands that release it: naming the package lifts its hold for
    // this request (as apt), `mark unhold` for good.
    for (const std::string& h : held) {
        const std::string native = ":" + u.native_arch;
        const std::string name = h.ends_with(native) ? h.substr(0, h.size() - native.size()) : h;
        options.push_back("release the hold on " + h + " (name " + name + " in the request, or `aptus mark unhold " +
                          name + "`)");
    }
    if (!options.empty()) {
        out += "\nAt least one of these must change: ";
        for (size_t i = 0; i < options.size(); ++i) out += (i ? (i + 1 == options.size() ? ", or " : ", ") : "") + options[i];
        out += ".";
    }
    // A removal that manual packages stand in the way of: every one of them
    // at once, not one per attempt.
    const bool vital = std::any_of(core.begin(), core.end(), [](const Reason& re) {
        return re.kind == ReasonKind::Essential || re.kind == ReasonKind::Protected;
    });
    if (!r.remove.empty() && (!manual.empty() || vital)) out += whole_removal(u, r);
    return out;
}

}  // namespace aptus::solver
