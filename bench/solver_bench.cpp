// aptus's EDSP solver against apt's own (/usr/lib/apt/solvers/apt, from
// apt-utils) and the CUDF solvers apt reaches through apt-cudf
// (/usr/lib/apt/solvers/aspcud, mccs-cbc) on the six real scenarios of
// ../shared/data/scenarios, the same decompressed file fed to each. Each run
// is a child process in its own process group, so wall time and peak memory
// are measured the same way for all: aptus's child reads the file, builds
// the universe, solves and writes the answer; the others are the solver
// program exactly as apt runs it, no arguments, the file on its stdin. Peak
// memory is wait4's ru_maxrss: the largest single process of the tree (for
// apt-cudf that is apt-cudf itself or the aspcud/mccs it starts).
//
//   solver_bench            Google Benchmark run, aptus and apt (3 iterations per case)
//   solver_bench --table [RUNS [SCENARIO...]]
//       median of RUNS (5) runs per case for aptus and apt, one run of each
//       CUDF solver (they take minutes), as a README table; a run that fails
//       says why (the solver's Error: message, or the time limit)
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/base/file.hpp"
#include "aptus/edsp/edsp.hpp"

namespace {

const char* const kAptSolver = "/usr/lib/apt/solvers/apt";
// apt-cudf picks the CUDF solver by the name it is run as; mccs-lpsolve is
// mccs with another back end and fails the same way, so it is left out.
const char* const kCudfSolvers[] = {"/usr/lib/apt/solvers/aspcud", "/usr/lib/apt/solvers/mccs-cbc"};
// A CUDF run longer than this is stopped and reported as timed out.
const double kCudfTimeLimit = 600;
const char* const kScenarios[] = {"minbase-gnome",       "server-install-many",        "server-remove-libc6",
                                  "server-unsat-mta",    "server-upgrade-trixie",      "server-full-upgrade-trixie"};

// The scenario decompressed once into /tmp, so neither side pays for xz.
std::string plain_file(const std::string& name) {
    std::string out = "/tmp/aptus-solver-bench-" + name + ".edsp";
    if (!std::filesystem::exists(out)) {
        std::string in = std::string(APTUS_DATA_DIR) + "/scenarios/" + name + "/problem.edsp.xz";
        aptus::write_file_atomic(out, aptus::read_decompressed(in));
    }
    return out;
}

struct Sample {
    double seconds = 0;
    long max_rss_kb = 0;
    bool ok = false;
    std::string failure;      // why it did not run through: exit status, signal, time limit
    std::string no_solution;  // the answer's message when it is not a solution
};

// Why an answer is not a solution: the Message: of its Error: stanza, or
// of a lone Message: stanza (apt-cudf's "(UNSAT) ..." has no Error: line);
// empty for a solution.
std::string no_solution_message(const std::string& answer) {
    bool error = answer.rfind("Error:", 0) == 0 || answer.find("\nError:") != std::string::npos;
    bool solution = answer.rfind("Install:", 0) == 0 || answer.find("\nInstall:") != std::string::npos ||
                    answer.rfind("Remove:", 0) == 0 || answer.find("\nRemove:") != std::string::npos;
    if (!error && solution) return {};
    size_t at = 0;
    // The last Message: is the answer's; Progress stanzas carry their own.
    for (size_t m = answer.find("Message:"); m != std::string::npos; m = answer.find("Message:", m + 1))
        if (m == 0 || answer[m - 1] == '\n') at = m;
    if (answer.find("Message:", at) == std::string::npos) return error ? "Error stanza" : "empty answer";
    auto end = answer.find('\n', at);
    return answer.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
}

// One child: `program` is exec'd with the file on stdin; with none, aptus
// solves in the child. The answer goes to a temporary file so a failure can
// be told; a run past `limit` seconds is killed with its whole group.
Sample run_child(const std::string& file, const char* program, double limit = 0) {
    std::string answer_file = "/tmp/aptus-solver-bench-answer";
    auto start = std::chrono::steady_clock::now();
    pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        int out = ::open(answer_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(out, 1);
        ::dup2(devnull, 2);
        if (program) {
            int in = ::open(file.c_str(), O_RDONLY);
            ::dup2(in, 0);
            ::execl(program, program, (char*)nullptr);
            ::_exit(127);
        }
        auto sc = aptus::edsp::read_edsp(aptus::read_file(file), file);
        auto s = aptus::solver::solve(sc.universe, sc.request);
        std::string text = s.solved ? aptus::edsp::format_edsp_solution(sc.universe, s)
                                    : aptus::edsp::format_edsp_error(s.error_id, s.message);
        if (::write(1, text.data(), text.size()) < 0) ::_exit(1);
        ::_exit(0);
    }
    ::setpgid(pid, pid);
    int status = 0;
    struct rusage ru {};
    bool timed_out = false;
    while (::wait4(pid, &status, limit > 0 ? WNOHANG : 0, &ru) == 0) {
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit) {
            ::kill(-pid, SIGKILL);
            timed_out = true;
            ::wait4(pid, &status, 0, &ru);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    Sample s;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.max_rss_kb = ru.ru_maxrss;
    if (timed_out) {
        s.failure = "stopped after " + std::to_string(int(limit)) + " s";
    } else if (WIFSIGNALED(status)) {
        s.failure = std::string("killed by ") + ::strsignal(WTERMSIG(status));
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        s.failure = "exit status " + std::to_string(WEXITSTATUS(status));
    }
    s.no_solution = no_solution_message(aptus::read_file(answer_file));
    s.ok = s.failure.empty();
    ::unlink(answer_file.c_str());
    return s;
}

bool available() {
    return !std::string(APTUS_DATA_DIR).empty() && std::filesystem::exists(std::string(APTUS_DATA_DIR) + "/scenarios");
}

void BM_Solve(benchmark::State& state, std::string name, bool apt) {
    if (!available() || (apt && ::access(kAptSolver, X_OK) != 0)) {
        state.SkipWithError("scenarios or apt's solver missing");
        return;
    }
    std::string file = plain_file(name);
    long rss = 0;
    for (auto _ : state) {
        Sample s = run_child(file, apt ? kAptSolver : nullptr);
        if (!s.ok) state.SkipWithError("solver failed");
        state.SetIterationTime(s.seconds);
        rss = std::max(rss, s.max_rss_kb);
    }
    state.counters["peak_rss_MB"] = double(rss) / 1024;
}

Sample median_of(const std::string& file, const char* program, int runs) {
    std::vector<Sample> samples;
    for (int i = 0; i < runs; ++i) samples.push_back(run_child(file, program));
    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
    Sample med = samples[samples.size() / 2];
    for (const Sample& r : samples) med.max_rss_kb = std::max(med.max_rss_kb, r.max_rss_kb);
    return med;
}

std::string cell(const Sample& s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f s, %ld MB", s.seconds, s.max_rss_kb / 1024);
    if (!s.ok) return "fails after " + std::string(buf) + ": " + s.failure + (s.no_solution.empty() ? "" : ", \"" + s.no_solution + "\"");
    return std::string(buf) + (s.no_solution.empty() ? "" : ", no solution: \"" + s.no_solution + "\"");
}

int table(int runs, std::vector<std::string> names) {
    if (!available()) {
        std::fprintf(stderr, "scenarios not found\n");
        return 1;
    }
    std::vector<const char*> cudf;
    for (const char* p : kCudfSolvers)
        if (::access(p, X_OK) == 0) cudf.push_back(p);
    std::printf("| scenario | aptus wall | apt wall | aptus/apt | aptus peak RSS | apt peak RSS |");
    for (const char* p : cudf) std::printf(" %s (apt-cudf) |", std::strrchr(p, '/') + 1);
    std::printf("\n|---|---:|---:|---:|---:|---:|");
    for (size_t i = 0; i < cudf.size(); ++i) std::printf("---|");
    std::printf("\n");
    if (names.empty()) names.assign(std::begin(kScenarios), std::end(kScenarios));
    for (const std::string& name : names) {
        std::string file = plain_file(name);
        Sample ours = median_of(file, nullptr, runs);
        Sample apt = median_of(file, kAptSolver, runs);
        std::printf("| %s | %.2f s | %.2f s | %.2f | %ld MB | %ld MB |", name.c_str(), ours.seconds, apt.seconds,
                    ours.seconds / apt.seconds, ours.max_rss_kb / 1024, apt.max_rss_kb / 1024);
        for (const char* p : cudf) std::printf(" %s |", cell(run_child(file, p, kCudfTimeLimit)).c_str());
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--table") == 0)
        return table(argc > 2 ? std::max(1, std::atoi(argv[2])) : 5, std::vector<std::string>(argv + std::min(argc, 3), argv + argc));
    for (const char* name : kScenarios) {
        benchmark::RegisterBenchmark((std::string("aptus/") + name).c_str(), BM_Solve, std::string(name), false)
            ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("apt/") + name).c_str(), BM_Solve, std::string(name), true)
            ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
