// Small universes written as EDSP text, so each test reads like a scenario
// and also exercises the reader.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "aptus/edsp/edsp.hpp"

namespace aptus::solver::test {

// `request`: extra request fields ("Install: a\n"); `packages`: stanzas
// without APT-ID/APT-Pin/Architecture (added: amd64, ids in order, pin 500).
// Every version is its package's candidate unless it says "APT-Candidate: no".
// `architectures`: the Architectures line (the native amd64 first, then
// the foreign ones in the configured order).
inline edsp::Scenario scenario(const std::string& request, const std::string& packages,
                               const std::string& architectures = "amd64") {
    std::string text = "Request: EDSP 0.5\nArchitecture: amd64\nArchitectures: " + architectures + "\n" + request + "\n";
    size_t id = 1, start = 0;
    std::string body = packages + "\n\n";
    while (start < body.size()) {
        size_t end = body.find("\n\n", start);
        if (end == std::string::npos) end = body.size();
        std::string st = body.substr(start, end - start);
        start = end + 2;
        while (!st.empty() && st.front() == '\n') st.erase(0, 1);
        if (st.empty()) continue;
        if (st.find("Architecture:") == std::string::npos) st += "\nArchitecture: amd64";
        if (st.find("APT-Pin:") == std::string::npos) st += "\nAPT-Pin: 500";
        if (st.find("APT-Candidate: no") != std::string::npos)
            st.replace(st.find("APT-Candidate: no"), 17, "X-Not-Candidate: yes");
        else if (st.find("APT-Candidate:") == std::string::npos)
            st += "\nAPT-Candidate: yes";
        st += "\nAPT-ID: " + std::to_string(id++);
        text += st + "\n\n";
    }
    return edsp::read_edsp(text, "test.edsp");
}

// "name=version" of every version a solution installs afterwards, sorted.
inline std::vector<std::string> selected(const Universe& u, const Solution& s) {
    std::vector<std::string> out;
    for (uint32_t v : s.selected) out.push_back(u.names[u.packages[u.versions[v].package].name] + "=" + u.versions[v].version);
    std::sort(out.begin(), out.end());
    return out;
}

inline std::vector<std::string> names_of(const Universe& u, const std::vector<uint32_t>& vs) {
    std::vector<std::string> out;
    for (uint32_t v : vs) out.push_back(u.names[u.packages[u.versions[v].package].name] + "=" + u.versions[v].version);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace aptus::solver::test
