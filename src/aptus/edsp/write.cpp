#include <ctime>

#include "aptus/edsp/edsp.hpp"

namespace aptus::edsp {

using namespace solver;
namespace {

void stanza(std::string& out, std::string_view kind, const Universe& u, uint32_t v, bool verbose) {
    out += kind;
    out += ": ";
    out += u.versions[v].id;
    out += '\n';
    if (verbose) {
        const Version& ver = u.versions[v];
        out += "Package: " + u.names[u.packages[ver.package].name] + "\n";
        out += "Architecture: " + ver.arch + "\n";
        out += "Version: " + ver.version + "\n";
    }
    out += '\n';
}

// deb822 multi-line value: continuation lines start with a space, empty ones are " .".
void multiline(std::string& out, std::string_view text) {
    size_t start = 0;
    bool first = true;
    while (start <= text.size()) {
        size_t nl = text.find('\n', start);
        std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        if (first) {
            out += line;
            first = false;
        } else {
            out += "\n ";
            out += line.empty() ? std::string_view(".") : line;
        }
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    out += '\n';
}

void field(std::string& out, std::string_view name, std::string_view value) {
    out += name;
    out += ": ";
    out += value;
    out += '\n';
}

void version_stanza(std::string& out, const Universe& u, uint32_t v) {
    const Version& ver = u.versions[v];
    const Package& pkg = u.packages[ver.package];
    field(out, "Package", u.names[pkg.name]);
    field(out, "Architecture", ver.arch);
    field(out, "Version", ver.version);
    field(out, "APT-ID", ver.id);
    static constexpr std::string_view multi_arch[] = {"no", "same", "foreign", "allowed"};
    if (ver.multi_arch != MultiArch::No) field(out, "Multi-Arch", multi_arch[size_t(ver.multi_arch)]);
    if (!ver.source.empty()) field(out, "Source", ver.source);
    if (!ver.source_version.empty()) field(out, "Source-Version", ver.source_version);
    if (ver.essential) field(out, "Essential", "yes");
    if (ver.important) field(out, "Protected", "yes");
    if (ver.required) field(out, "Priority", "required");
    if (ver.installed) field(out, "Installed", "yes");
    if (ver.hold) field(out, "Hold", "yes");
    field(out, "APT-Pin", std::to_string(ver.pin));
    if (ver.candidate) field(out, "APT-Candidate", "yes");
    if (ver.installed && pkg.automatic) field(out, "APT-Automatic", "yes");
    // One field per kind, or-groups in their order.
    for (DepKind kind : {DepKind::PreDepends, DepKind::Depends, DepKind::Conflicts, DepKind::Breaks, DepKind::Recommends,
                         DepKind::Suggests}) {
        std::string value;
        for (const Dependency& d : u.deps(v))
            if (d.kind == kind) value += (value.empty() ? "" : ", ") + u.dependency_text(d);
        if (!value.empty()) field(out, dep_kind_name(kind), value);
    }
    if (!ver.provides.empty()) {
        std::string value;
        for (const Provide& p : ver.provides) {
            if (!value.empty()) value += ", ";
            value += u.names[p.name];
            if (!p.arch.empty()) value += ":" + p.arch;
            if (!p.version.empty()) value += " (= " + p.version + ")";
        }
        field(out, "Provides", value);
    }
    out += '\n';
}

std::string package_words(const Universe& u, const std::vector<uint32_t>& packages) {
    std::string words;
    for (uint32_t p : packages) words += (words.empty() ? "" : " ") + u.package_name(p);
    return words;
}

}  // namespace

std::string format_edsp_scenario(const Universe& u, const Request& r, std::string_view solver_name) {
    std::string out;
    field(out, "Request", "EDSP 0.5");
    field(out, "Architecture", u.native_arch);
    std::string archs;
    for (const std::string& a : u.architectures) archs += (archs.empty() ? "" : " ") + a;
    if (archs.empty()) archs = u.native_arch;
    field(out, "Architectures", archs);
    if (!r.install.empty()) field(out, "Install", package_words(u, r.install));
    if (!r.remove.empty()) field(out, "Remove", package_words(u, r.remove));
    if (r.upgrade_all) field(out, "Upgrade-All", "yes");
    if (r.autoremove) field(out, "Autoremove", "yes");
    field(out, "Forbid-Remove", r.forbid_remove ? "yes" : "no");
    field(out, "Forbid-New-Install", r.forbid_new_install ? "yes" : "no");
    if (!r.strict_pinning) field(out, "Strict-Pinning", "no");
    // Only where they differ from apt's defaults: apt's own solver programs
    // know neither field and warn about each ("Unknown line in EDSP Request
    // stanza"), and read the defaults from the configuration anyway.
    if (!r.install_recommends) field(out, "Install-Recommends", "no");
    if (r.install_suggests) field(out, "Install-Suggests", "yes");
    field(out, "Solver", solver_name);
    out += '\n';
    for (uint32_t v = 0; v < u.versions.size(); ++v) version_stanza(out, u, v);
    return out;
}

std::string format_edsp_solution(const Universe& u, const Solution& s, bool verbose) {
    std::string out;
    for (uint32_t v : s.install) stanza(out, "Install", u, v, verbose);
    for (uint32_t v : s.remove) stanza(out, "Remove", u, v, verbose);
    for (uint32_t v : s.autoremove) stanza(out, "Autoremove", u, v, verbose);
    return out;
}

std::string format_edsp_error(std::string_view id, std::string_view message) {
    std::string out = "Error: ";
    out += id;
    out += "\nMessage: ";
    multiline(out, message);
    out += '\n';
    return out;
}

std::string format_edsp_progress(int percent, std::string_view message) {
    char date[64];
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    std::string out = "Progress: ";
    out += date;
    out += "\nPercentage: " + std::to_string(percent) + "\nMessage: ";
    out += message;
    out += "\n\n";
    return out;
}

}  // namespace aptus::edsp
