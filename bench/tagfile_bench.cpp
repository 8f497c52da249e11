// The deb822 reader over the real bookworm Packages file, decompressed once
// into memory: raw parsing speed, then parsing plus the lookups the cache
// builder does in every stanza.
#include <benchmark/benchmark.h>

#include <string>

#include "aptus/base/compression.hpp"
#include "aptus/deb/tagfile.hpp"

namespace {

const std::string& packages() {
    static const std::string buffer = [] {
        std::string dir = APTUS_DATA_DIR;
        if (dir.empty()) return std::string();
        return aptus::read_decompressed(dir + "/debian/bookworm-main-amd64-Packages.xz");
    }();
    return buffer;
}

void report(benchmark::State& state, const std::string& buffer, long stanzas, long fields) {
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(buffer.size()));
    state.counters["stanzas/s"] = benchmark::Counter(double(stanzas), benchmark::Counter::kIsRate);
    state.counters["fields/s"] = benchmark::Counter(double(fields), benchmark::Counter::kIsRate);
}

void BM_TagFileParse(benchmark::State& state) {
    const std::string& buffer = packages();
    if (buffer.empty()) return state.SkipWithError("no real data (APTUS_DATA_DIR)");
    aptus::deb::Stanza stanza;
    long stanzas = 0, fields = 0;
    for (auto _ : state) {
        aptus::deb::TagFileReader reader(buffer, "Packages");
        while (reader.next(stanza)) {
            ++stanzas;
            fields += static_cast<long>(stanza.fields.size());
        }
        benchmark::DoNotOptimize(stanzas);
    }
    report(state, buffer, stanzas, fields);
}
BENCHMARK(BM_TagFileParse)->Unit(benchmark::kMillisecond);

void BM_TagFileParseAndLookup(benchmark::State& state) {
    const std::string& buffer = packages();
    if (buffer.empty()) return state.SkipWithError("no real data (APTUS_DATA_DIR)");
    aptus::deb::Stanza stanza;
    long stanzas = 0, fields = 0;
    size_t bytes = 0;
    for (auto _ : state) {
        aptus::deb::TagFileReader reader(buffer, "Packages");
        while (reader.next(stanza)) {
            ++stanzas;
            fields += static_cast<long>(stanza.fields.size());
            bytes += stanza.value_or_empty("Package").size() + stanza.value_or_empty("Version").size() +
                     stanza.value_or_empty("Depends").size();
        }
        benchmark::DoNotOptimize(bytes);
    }
    report(state, buffer, stanzas, fields);
}
BENCHMARK(BM_TagFileParseAndLookup)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
