#include "aptus/system/external_solver.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "aptus/base/error.hpp"
#include "aptus/edsp/edsp.hpp"
#include "support/test_support.hpp"

namespace aptus::system {
namespace {

SystemUniverse little_system() {
    std::string text =
        "Request: EDSP 0.5\nArchitecture: amd64\nArchitectures: amd64\nInstall: a\n\n"
        "Package: a\nVersion: 1\nArchitecture: amd64\nAPT-ID: 10\nAPT-Pin: 500\nAPT-Candidate: yes\nDepends: b\n\n"
        "Package: b\nVersion: 1\nArchitecture: amd64\nAPT-ID: 20\nAPT-Pin: 500\nAPT-Candidate: yes\n\n"
        "Package: old\nVersion: 1\nArchitecture: amd64\nAPT-ID: 30\nAPT-Pin: 100\nInstalled: yes\nAPT-Candidate: yes\n";
    edsp::Scenario sc = edsp::read_edsp(text, "little.edsp");
    SystemUniverse su;
    su.universe = std::move(sc.universe);
    return su;
}

solver::Request install_a(const SystemUniverse& su) {
    solver::Request r;
    r.install.push_back(*su.universe.find_package("a", "amd64"));
    return r;
}

std::string program(const test::TempDir& dir, const std::string& name, const std::string& body) {
    std::string p = dir.write("solvers/" + name, "#!/bin/sh\n" + body + "\n");
    ::chmod(p.c_str(), 0755);
    return p;
}

TEST(ExternalSolver, WhichNamesAreAptusOwn) {
    config::Config c;
    EXPECT_EQ(external_solver_name(c), "");
    for (const char* own : {"internal", "3.0", "aptus", ""}) {
        c.set("APT::Solver", own);
        EXPECT_EQ(external_solver_name(c), "") << own;
    }
    c.set("APT::Solver", "dump");
    EXPECT_EQ(external_solver_name(c), "dump");
}

TEST(ExternalSolver, TheFirstDirectoryOfTheListHoldingTheNameWins) {
    test::TempDir dir("ext-solver");
    dir.mkdir("one");
    dir.mkdir("two/x");  // a directory of that name is no solver
    std::string second = dir.write("three/x", "#!/bin/sh\n");
    dir.write("four/x", "#!/bin/sh\n");
    config::Config c;
    for (const char* d : {"one", "two", "three", "four"}) c.set("Dir::Bin::Solvers::", dir.file(d));
    EXPECT_EQ(find_external_solver(c, "x"), second);
    EXPECT_EQ(find_external_solver(c, "y"), std::nullopt);
    // A value of the node itself wins over its list, as apt's FindVector.
    c.set("Dir::Bin::Solvers", dir.file("one") + "," + dir.file("four"));
    EXPECT_EQ(find_external_solver(c, "x"), dir.file("four/x"));
    // A path stays a path.
    EXPECT_EQ(find_external_solver(c, second), second);
}

TEST(ExternalSolver, TheAnswerBecomesTheSolution) {
    test::TempDir dir("ext-solver");
    // Install a alone (b would be missing) is refused; a and b is the answer.
    std::string p = program(dir, "good",
                            "cat >" + dir.file("seen.edsp") + "\nprintf 'Progress: x\\n\\nInstall: 10\\n\\nInstall: 20\\n\\n'");
    SystemUniverse su = little_system();
    SolveOutcome o = run_external_solver("good", p, su, install_a(su));
    ASSERT_TRUE(o.solution.solved) << (o.errors.empty() ? "" : o.errors[0]);
    EXPECT_TRUE(o.external);
    EXPECT_EQ(o.solution.install.size(), 2u);
    std::ifstream in(dir.file("seen.edsp"));
    std::stringstream seen;
    seen << in.rdbuf();
    // The solver read the whole scenario, its request naming the solver.
    EXPECT_EQ(seen.str(), edsp::format_edsp_scenario(su.universe, install_a(su), "good"));

    p = program(dir, "half", "cat >/dev/null\nprintf 'Install: 10\\n\\n'");
    o = run_external_solver("half", p, su, install_a(su));
    EXPECT_FALSE(o.solution.solved);
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_NE(o.errors[0].find("leaves broken packages"), std::string::npos) << o.errors[0];
}

TEST(ExternalSolver, ErrorsAsAptWordsThem) {
    test::TempDir dir("ext-solver");
    SystemUniverse su = little_system();
    std::string p = program(dir, "no", "printf 'Error: ERR_X\\nMessage: First\\n second\\n'; exit 2");
    SolveOutcome o = run_external_solver("no", p, su, install_a(su));
    EXPECT_FALSE(o.solution.solved);
    EXPECT_EQ(o.errors, (std::vector<std::string>{"External solver failed with: First",
                                                   "Sub-process no returned an error code (2)"}));
    EXPECT_EQ(o.report, "The solver encountered an error of type: ERR_X\n"
                        "The following information might help you to understand what is wrong:\nFirst\nsecond\n\n");
    p = program(dir, "mute", "printf 'Error: ERR_X\\n'");
    o = run_external_solver("mute", p, su, install_a(su));
    EXPECT_EQ(o.errors, std::vector<std::string>{"External solver failed without a proper error message"});
    p = program(dir, "junk", "echo junk");
    o = run_external_solver("junk", p, su, install_a(su));
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].rfind("External solver answered no EDSP: solver junk:1:", 0), 0u) << o.errors[0];
    p = program(dir, "warns", "printf 'Remove: 10\\n\\nInstall: 20\\n\\nInstall: 10\\n\\n'");
    o = run_external_solver("warns", p, su, install_a(su));
    EXPECT_FALSE(o.solution.solved);  // a twice
    EXPECT_EQ(o.diagnostics.size(), 1u);  // and its Remove of what is not installed
}

TEST(ExternalSolver, TheBuiltInDump) {
    test::TempDir dir("ext-solver");
    std::string file = dir.file("d.edsp");
    EXPECT_NE(dump_solver_answer("Request: EDSP 0.5\n", nullptr).find("Error: ERR_NO_FILENAME"), std::string::npos);
    EXPECT_NE(dump_solver_answer("Request: EDSP 0.5\n", "").find("Error: ERR_NO_FILENAME"), std::string::npos);
    EXPECT_NE(dump_solver_answer("x", dir.file("no/dir/d.edsp").c_str()).find("Error: ERR_CREATE_FILE"), std::string::npos);
    std::string answer = dump_solver_answer("Request: EDSP 0.5\n", file.c_str());
    EXPECT_EQ(answer.rfind("Error: ERR_JUST_DUMPING\nMessage: I am too dumb, i can just dump!\n", 0), 0u) << answer;
    std::ifstream in(file);
    std::stringstream got;
    got << in.rdbuf();
    EXPECT_EQ(got.str(), "Request: EDSP 0.5\n");

    // solve_with: with no dump program in Dir::Bin::Solvers, the built-in one.
    config::Config c;
    c.set("APT::Solver", "dump");
    c.set("Dir::Bin::Solvers::", dir.mkdir("empty"));
    SystemUniverse su = little_system();
    ::setenv("APT_EDSP_DUMP_FILENAME", file.c_str(), 1);
    std::vector<std::string> heard;
    SolveOutcome o = solve_with(c, su, install_a(su), [&](std::string_view s) { heard.emplace_back(s); });
    ::unsetenv("APT_EDSP_DUMP_FILENAME");
    EXPECT_EQ(heard, std::vector<std::string>{"Execute external solver"});
    EXPECT_EQ(o.errors, std::vector<std::string>{"External solver failed with: I am too dumb, i can just dump!"});
    got.str("");
    std::ifstream again(file);
    got << again.rdbuf();
    EXPECT_EQ(got.str(), edsp::format_edsp_scenario(su.universe, install_a(su), "dump"));

    // Any other name found nowhere is apt's error, before any progress.
    c.set("APT::Solver", "elsewhere");
    heard.clear();
    EXPECT_THROW(solve_with(c, su, install_a(su), [&](std::string_view s) { heard.emplace_back(s); }), Error);
    EXPECT_TRUE(heard.empty());
}

TEST(ExternalSolver, AptusOwnSolverNeedsNoProgram) {
    config::Config c;
    c.set("Dir::Bin::Solvers::", "/nonexistent");
    SystemUniverse su = little_system();
    bool heard = false;
    SolveOutcome o = solve_with(c, su, install_a(su), [&](std::string_view) { heard = true; });
    EXPECT_TRUE(o.solution.solved);
    EXPECT_FALSE(o.external);
    EXPECT_FALSE(heard);
    EXPECT_EQ(o.solution.install.size(), 2u);
}

}  // namespace
}  // namespace aptus::system
