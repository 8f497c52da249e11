// The binary cache on the real bookworm + trixie lists of a make-sandbox tree:
// a cold build (no cache file) and a warm open (mmap + validation + staleness
// check), side by side with apt's `apt-cache gencaches` on the same tree.
//
//   cache_bench                       Google Benchmark run (makes /tmp/aptus-cache-bench)
//   cache_bench --once-build ROOT     one cold build, for /usr/bin/time (scripts/bench-cache)
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "aptus/cache/build.hpp"

using namespace aptus::cache;

namespace {

const std::string kRoot = "/tmp/aptus-cache-bench";

CacheInputs sandbox_inputs(const std::string& root) {
    std::string lists = root + "/var/lib/apt/lists/";
    CacheInputs in;
    in.native_architecture = "amd64";
    in.status_path = root + "/var/lib/dpkg/status";
    in.extended_states_path = root + "/var/lib/apt/extended_states";
    for (std::string suite : {"bookworm", "trixie"}) {
        std::string base = "archive.example_debian_dists_" + suite + "_";
        in.releases.push_back({lists + base + "InRelease"});
        auto r = uint32_t(in.releases.size() - 1);
        for (auto [name, kind] : {std::pair{"main_binary-amd64_Packages", IndexKind::Packages},
                                  std::pair{"main_i18n_Translation-en", IndexKind::Translation}})
            if (auto p = find_list_file(lists, base + name))
                in.indices.push_back({*p, kind, r, "main", kind == IndexKind::Packages ? "amd64" : "",
                                      kind == IndexKind::Packages ? "" : "en", "archive.example"});
    }
    return in;
}

bool ensure_sandbox() {
    static const bool ok = [] {
        if (std::string(APTUS_DATA_DIR).empty()) return false;
        if (::access((kRoot + "/apt.conf").c_str(), R_OK) == 0) return true;
        std::string cmd = std::string(APTUS_DATA_DIR) + "/../tools/make-sandbox " + kRoot + " --status server >/dev/null";
        return std::system(cmd.c_str()) == 0;
    }();
    return ok;
}

void BM_CacheColdBuild(benchmark::State& state) {
    if (!ensure_sandbox()) return state.SkipWithError("no real data or make-sandbox");
    CacheInputs in = sandbox_inputs(kRoot);
    std::string path = kRoot + "/var/cache/apt/aptus.bin";
    for (auto _ : state) {
        state.PauseTiming();
        ::unlink(path.c_str());
        state.ResumeTiming();
        OpenResult r = open_or_build(in, path);
        benchmark::DoNotOptimize(r.cache.versions().size());
    }
}
BENCHMARK(BM_CacheColdBuild)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_CacheWarmOpen(benchmark::State& state) {
    if (!ensure_sandbox()) return state.SkipWithError("no real data or make-sandbox");
    CacheInputs in = sandbox_inputs(kRoot);
    std::string path = kRoot + "/var/cache/apt/aptus.bin";
    open_or_build(in, path);
    for (auto _ : state) {
        OpenResult r = open_or_build(in, path);
        if (r.origin != CacheOrigin::Reused) state.SkipWithError("cache was rebuilt");
        benchmark::DoNotOptimize(r.cache.versions().size());
    }
}
BENCHMARK(BM_CacheWarmOpen)->Unit(benchmark::kMillisecond);

void BM_AptGencaches(benchmark::State& state) {
    if (!ensure_sandbox()) return state.SkipWithError("no real data or make-sandbox");
    std::string rm = "rm -f " + kRoot + "/var/cache/apt/pkgcache.bin " + kRoot + "/var/cache/apt/srcpkgcache.bin";
    std::string run = "APT_CONFIG=" + kRoot + "/apt.conf apt-cache gencaches >/dev/null";
    for (auto _ : state) {
        state.PauseTiming();
        if (std::system(rm.c_str()) != 0) state.SkipWithError("rm failed");
        state.ResumeTiming();
        if (std::system(run.c_str()) != 0) state.SkipWithError("apt-cache gencaches failed");
    }
}
BENCHMARK(BM_AptGencaches)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--once-build") == 0) {
        std::string root = argv[2];
        std::string path = root + "/var/cache/apt/aptus.bin";
        ::unlink(path.c_str());
        OpenResult r = open_or_build(sandbox_inputs(root), path);
        // The main thread's CPU time alone (interning and layout): far less
        // sensitive to a loaded machine than the wall time.
        rusage ru{};
        ::getrusage(RUSAGE_THREAD, &ru);
        double main_cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                          double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
        std::printf("%zu packages, %zu versions, %zu bytes, main thread %.3f s CPU\n", r.cache.packages().size(),
                    r.cache.versions().size(), r.cache.image().size(), main_cpu);
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
