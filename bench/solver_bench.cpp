// aptus's EDSP solver against apt's own (/usr/lib/apt/solvers/apt, from
// apt-utils) on the six real scenarios of ../shared/data/scenarios, the
// same decompressed file fed to both. Each run is a child process, so wall
// time and peak memory (ru_maxrss) are measured the same way for both:
// aptus's child reads the file, builds the universe, solves and writes the
// answer to /dev/null; apt's child is the solver program with the file on
// its stdin.
//
//   solver_bench            Google Benchmark run (3 iterations per case)
//   solver_bench --table [RUNS [SCENARIO...]]   median of RUNS (5) runs per case, as a README table
#include <benchmark/benchmark.h>
#include <fcntl.h>
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
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/base/file.hpp"
#include "aptus/solver/edsp.hpp"

namespace {

const char* const kAptSolver = "/usr/lib/apt/solvers/apt";
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
};

// One child: `apt` execs apt's solver; otherwise aptus in the child.
Sample run_child(const std::string& file, bool apt) {
    auto start = std::chrono::steady_clock::now();
    pid_t pid = ::fork();
    if (pid == 0) {
        int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(devnull, 1);
        ::dup2(devnull, 2);
        if (apt) {
            int in = ::open(file.c_str(), O_RDONLY);
            ::dup2(in, 0);
            ::execl(kAptSolver, kAptSolver, (char*)nullptr);
            ::_exit(127);
        }
        auto sc = aptus::solver::read_edsp(aptus::read_file(file), file);
        auto s = aptus::solver::solve(sc.universe, sc.request);
        std::string out = s.solved ? aptus::solver::format_edsp_solution(sc.universe, s)
                                   : aptus::solver::format_edsp_error(s.error_id, s.message);
        if (::write(1, out.data(), out.size()) < 0) ::_exit(1);
        ::_exit(0);
    }
    int status = 0;
    struct rusage ru {};
    ::wait4(pid, &status, 0, &ru);
    Sample s;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.max_rss_kb = ru.ru_maxrss;
    s.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
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
        Sample s = run_child(file, apt);
        if (!s.ok) state.SkipWithError("solver failed");
        state.SetIterationTime(s.seconds);
        rss = std::max(rss, s.max_rss_kb);
    }
    state.counters["peak_rss_MB"] = double(rss) / 1024;
}

int table(int runs, std::vector<std::string> names) {
    if (!available()) {
        std::fprintf(stderr, "scenarios not found\n");
        return 1;
    }
    std::printf("| scenario | aptus wall | apt wall | aptus/apt | aptus peak RSS | apt peak RSS |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    if (names.empty()) names.assign(std::begin(kScenarios), std::end(kScenarios));
    for (const std::string& name : names) {
        std::string file = plain_file(name);
        Sample med[2];
        for (int side = 0; side < 2; ++side) {
            std::vector<Sample> samples;
            for (int i = 0; i < runs; ++i) samples.push_back(run_child(file, side == 1));
            std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
            med[side] = samples[samples.size() / 2];
            for (const Sample& r : samples) med[side].max_rss_kb = std::max(med[side].max_rss_kb, r.max_rss_kb);
        }
        std::printf("| %s | %.2f s | %.2f s | %.2f | %ld MB | %ld MB |\n", name.c_str(), med[0].seconds, med[1].seconds,
                    med[0].seconds / med[1].seconds, med[0].max_rss_kb / 1024, med[1].max_rss_kb / 1024);
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
