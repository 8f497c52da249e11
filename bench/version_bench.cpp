// Version comparison on real versions. BM_VersionCompare does exactly what
// apt_baseline_bench's BM_AptVersionCompare does with APT's debVS.CmpVersion:
// the same one million pairs of bookworm's Version fields per iteration, so the
// two figures can be set side by side. ns/compare is the figure to quote.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/deb/version.hpp"

namespace {

constexpr size_t kComparisons = 1000000;

// Every stanza's Version field in order (duplicates kept, as in the APT baseline).
std::vector<std::string> bookworm_versions() {
    std::string path = std::string(APTUS_DATA_DIR) + "/debian/bookworm-main-amd64-Packages.xz";
    std::string text = aptus::read_decompressed(path);
    std::vector<std::string> out;
    aptus::deb::TagFileReader reader(text, path);
    aptus::deb::Stanza stanza;
    while (reader.next(stanza)) out.emplace_back(stanza.value_or_empty("Version"));
    return out;
}

const std::vector<std::string>& versions() {
    static const std::vector<std::string> v = bookworm_versions();
    return v;
}

void report(benchmark::State& state, int64_t comparisons) {
    state.SetItemsProcessed(comparisons);
    state.counters["ns/compare"] = benchmark::Counter(double(comparisons),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_VersionCompare(benchmark::State& state) {
    const std::vector<std::string>& v = versions();
    const size_t n = v.size();
    int64_t done = 0;
    for (auto _ : state) {
        int acc = 0;
        // A stride through the list pairs every kind of version with every other.
        for (size_t i = 0; i < kComparisons; ++i)
            acc += aptus::deb::compare_versions(v[i % n], v[(i * 7919 + 1) % n]);
        benchmark::DoNotOptimize(acc);
        done += kComparisons;
    }
    report(state, done);
}
BENCHMARK(BM_VersionCompare)->Unit(benchmark::kMillisecond);

// The same pairs as views prepared beforehand: the figure for compare_versions
// alone, without the two divisions per pair of the loop above.
void BM_VersionComparePrepared(benchmark::State& state) {
    static const std::vector<std::pair<std::string_view, std::string_view>> pairs = [] {
        const std::vector<std::string>& v = versions();
        std::vector<std::pair<std::string_view, std::string_view>> out;
        out.reserve(kComparisons);
        for (size_t i = 0; i < kComparisons; ++i) out.emplace_back(v[i % v.size()], v[(i * 7919 + 1) % v.size()]);
        return out;
    }();
    int64_t done = 0;
    for (auto _ : state) {
        int acc = 0;
        for (const auto& [a, b] : pairs) acc += aptus::deb::compare_versions(a, b);
        benchmark::DoNotOptimize(acc);
        done += kComparisons;
    }
    report(state, done);
}
BENCHMARK(BM_VersionComparePrepared)->Unit(benchmark::kMillisecond);

// The hard case: neighbours in sorted order share long prefixes, as when the
// cache builder orders a package's versions or sorting a whole archive.
void BM_VersionCompareSortedNeighbours(benchmark::State& state) {
    static const std::vector<std::string> sorted = [] {
        std::vector<std::string> s = versions();
        std::sort(s.begin(), s.end(),
                  [](const std::string& a, const std::string& b) { return aptus::deb::compare_versions(a, b) < 0; });
        s.erase(std::unique(s.begin(), s.end()), s.end());
        return s;
    }();
    const size_t n = sorted.size();
    int64_t done = 0;
    for (auto _ : state) {
        int acc = 0;
        for (size_t i = 0; i < kComparisons; ++i) {
            size_t k = i % (n - 1);
            acc += aptus::deb::compare_versions(sorted[k], sorted[k + 1]);
        }
        benchmark::DoNotOptimize(acc);
        done += kComparisons;
    }
    report(state, done);
}
BENCHMARK(BM_VersionCompareSortedNeighbours)->Unit(benchmark::kMillisecond);

void BM_VersionParse(benchmark::State& state) {
    const std::vector<std::string>& v = versions();
    int64_t done = 0;
    for (auto _ : state) {
        uint32_t acc = 0;
        for (const std::string& s : v) acc += aptus::deb::parse_version(s, aptus::deb::VersionCheck::Errors).epoch;
        benchmark::DoNotOptimize(acc);
        done += int64_t(v.size());
    }
    state.SetItemsProcessed(done);
}
BENCHMARK(BM_VersionParse)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
