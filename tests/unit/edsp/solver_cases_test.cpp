// The solver cases of tests/data/solver-cases: each NAME.edsp (or
// NAME.edsp.xz / .gz, as scripts/solver-case stores a compressed dump) is
// solved as `aptus internal-solver` / aptus-solver solves it (read_edsp, the
// configuration's solver settings at their built-in defaults, solve) and the
// answer compared with NAME.expected: one "Install: name=version",
// "Remove: name=version" or "Autoremove: name=version" line per version
// (name:arch for another architecture than the scenario's), sorted; or,
// when the request cannot be met, "Error", then the explanation's facts in
// their order ("Fact: " and one line of a fact's text, each line its own)
// and the request it suggests ("Suggestion: words", when there is one).
// Blank lines and lines starting with '#' in NAME.expected are ignored.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/config/config.hpp"
#include "aptus/config/init.hpp"
#include "aptus/edsp/edsp.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/installed_system.hpp"

namespace aptus::edsp {
namespace {

namespace fs = std::filesystem;

const std::string kCaseDir = std::string(APTUS_TEST_DATA) + "/solver-cases";

struct Case {
    std::string name;      // NAME
    std::string scenario;  // its .edsp file
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
    std::vector<Case> out;
    if (!fs::is_directory(kCaseDir)) return out;
    for (const fs::directory_entry& e : fs::directory_iterator(kCaseDir)) {
        std::string file = e.path().filename().string();
        for (std::string_view suffix : {".edsp", ".edsp.xz", ".edsp.gz"})
            if (file.size() > suffix.size() && file.ends_with(suffix)) {
                out.push_back({file.substr(0, file.size() - suffix.size()), e.path().string()});
                break;
            }
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return out;
}

std::string entry(const solver::Universe& u, uint32_t v) {
    const solver::Version& ver = u.versions[v];
    std::string s = u.names[u.packages[ver.package].name];
    if (ver.arch != "all" && ver.arch != u.native_arch) s += ":" + ver.arch;
    return s + "=" + ver.version;
}

// The answer as aptus-solver gives it, in the .expected form.
std::vector<std::string> answer(const std::string& path) {
    Scenario sc = read_edsp(read_decompressed(path), path);
    config::Config config;
    config::set_builtin_defaults(config);
    config::apply_binary(config, "aptus-solver");
    config::set_derived_defaults(config);
    system::apply_solver_settings(config, sc.request);
    solver::Solution s = solver::solve(sc.universe, sc.request);
    if (!s.solved) {
        // The explanation as data: each line of each fact, then the
        // suggested request the solver met.
        std::vector<std::string> out{"Error"};
        for (const solver::Fact& f : s.facts) {
            size_t at = 0;
            while (at <= f.text.size()) {
                size_t end = f.text.find('\n', at);
                if (end == std::string::npos) end = f.text.size();
                std::string line = f.text.substr(at, end - at);
                line.erase(0, line.find_first_not_of(' '));
                out.push_back("Fact: " + line);
                at = end + 1;
            }
        }
        if (!s.suggestion.empty()) {
            std::string words;
            for (const std::string& w : s.suggestion) words += (words.empty() ? "" : " ") + w;
            out.push_back("Suggestion: " + words);
        }
        return out;
    }
    std::vector<std::string> out;
    for (uint32_t v : s.install) out.push_back("Install: " + entry(sc.universe, v));
    for (uint32_t v : s.remove) out.push_back("Remove: " + entry(sc.universe, v));
    for (uint32_t v : s.autoremove) out.push_back("Autoremove: " + entry(sc.universe, v));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> expected(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in) << "no " << path << " (scripts/solver-case writes one)";
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        out.push_back(line);
    }
    return out;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines) s += l + "\n";
    return s;
}

class SolverCase : public ::testing::TestWithParam<Case> {};

TEST_P(SolverCase, AnswerIsTheExpectedOne) {
    const Case& c = GetParam();
    EXPECT_EQ(joined(answer(c.scenario)), joined(expected(kCaseDir + "/" + c.name + ".expected")))
        << "case " << c.name << " (" << c.scenario << ")";
}

INSTANTIATE_TEST_SUITE_P(Data, SolverCase, ::testing::ValuesIn(cases()), [](const auto& info) {
    std::string n = info.param.name;
    for (char& ch : n)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return n;
});

// A glob that found nothing would pass without this.
TEST(SolverCases, DirectoryHoldsTheCases) {
    std::vector<Case> found = cases();
    EXPECT_GE(found.size(), 6u) << kCaseDir;
    for (const Case& c : found) EXPECT_TRUE(fs::exists(kCaseDir + "/" + c.name + ".expected")) << c.name;
}

}  // namespace
}  // namespace aptus::edsp
