#include <ctime>

#include "aptus/solver/edsp.hpp"

namespace aptus::solver {
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

}  // namespace

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

}  // namespace aptus::solver
