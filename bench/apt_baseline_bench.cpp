// The same work as tagfile_bench, version_bench and relation_bench, done by
// APT's own library (libapt-pkg, Debian package libapt-pkg-dev), so the
// figures in the README compare aptus with apt on identical input in one run.
// Only APT's public API is called; nothing of APT is copied.
#include <apt-pkg/deblistparser.h>
#include <apt-pkg/debversion.h>
#include <apt-pkg/tagfile.h>
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/compression.hpp"

namespace {

const std::string& bookworm_packages() {
    static const std::string text =
        aptus::read_decompressed(std::string(APTUS_DATA_DIR) + "/debian/bookworm-main-amd64-Packages.xz");
    return text;
}

// Walk every stanza with apt's scanner; returns the stanza count.
template <typename Fn>
size_t for_each_section(const std::string& text, Fn&& fn) {
    pkgTagSection section;
    const char* p = text.data();
    const char* end = p + text.size();
    size_t count = 0;
    while (p < end) {
        while (p < end && *p == '\n') ++p;
        if (p >= end || !section.Scan(p, end - p)) break;
        fn(section);
        ++count;
        p += section.size();
    }
    return count;
}

void BM_AptTagSectionScan(benchmark::State& state) {
    const std::string& text = bookworm_packages();
    size_t stanzas = 0;
    size_t fields = 0;
    for (auto _ : state) {
        stanzas += for_each_section(text, [&](pkgTagSection& s) { fields += s.Count(); });
    }
    state.SetBytesProcessed(int64_t(text.size()) * state.iterations());
    state.counters["stanzas/s"] = benchmark::Counter(double(stanzas), benchmark::Counter::kIsRate);
    benchmark::DoNotOptimize(fields);
}
BENCHMARK(BM_AptTagSectionScan)->Unit(benchmark::kMillisecond);

std::vector<std::string> real_versions() {
    std::vector<std::string> versions;
    for_each_section(bookworm_packages(),
                     [&](pkgTagSection& s) { versions.push_back(s.Find(APT::StringView("Version")).to_string()); });
    return versions;
}

void BM_AptVersionCompare(benchmark::State& state) {
    static const std::vector<std::string> versions = real_versions();
    const size_t n = versions.size();
    int64_t done = 0;
    for (auto _ : state) {
        int acc = 0;
        // One million comparisons of real versions, neighbours at a stride so
        // that every kind of pair (equal prefix, different epochs...) occurs.
        for (size_t i = 0; i < 1000000; ++i) {
            const std::string& a = versions[i % n];
            const std::string& b = versions[(i * 7919 + 1) % n];
            acc += debVS.CmpVersion(a, b);
        }
        benchmark::DoNotOptimize(acc);
        done += 1000000;
    }
    state.SetItemsProcessed(done);
}
BENCHMARK(BM_AptVersionCompare)->Unit(benchmark::kMillisecond);

void BM_AptParseDepends(benchmark::State& state) {
    static const std::vector<std::string> fields = [] {
        std::vector<std::string> out;
        const char* names[] = {"Depends", "Pre-Depends", "Recommends", "Suggests", "Enhances",
                               "Breaks",  "Conflicts",   "Replaces",   "Provides"};
        for_each_section(bookworm_packages(), [&](pkgTagSection& s) {
            for (const char* name : names) {
                auto v = s.Find(APT::StringView(name));
                if (!v.empty()) out.push_back(v.to_string());
            }
        });
        return out;
    }();
    int64_t relations = 0;
    int64_t bytes = 0;
    for (auto _ : state) {
        for (const std::string& f : fields) {
            const char* p = f.data();
            const char* stop = p + f.size();
            while (p != nullptr && p != stop) {
                APT::StringView package, version;
                unsigned int op = 0;
                p = debListParser::ParseDepends(p, stop, package, version, op, false, false, false);
                ++relations;
            }
            bytes += int64_t(f.size());
        }
    }
    state.SetItemsProcessed(relations);
    state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_AptParseDepends)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
