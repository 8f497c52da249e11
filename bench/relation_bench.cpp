// Relation parsing over every relation field of the real bookworm indices.
// The field values are collected once, outside the timed loop; the figures
// are relations/s (one item = one alternative) and MB/s of field text. The
// binary-field set is the one apt_baseline_bench's BM_AptParseDepends uses.
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/deb/relation.hpp"
#include "aptus/deb/tagfile.hpp"

namespace {

using aptus::deb::RelationField;
using Values = std::vector<std::pair<RelationField, std::string_view>>;

// Keeps the decompressed text alive: the collected values view into it.
struct Corpus {
    std::string text;
    Values values;
};

Corpus collect(const char* file, bool source) {
    Corpus c;
    std::string path = std::string(APTUS_DATA_DIR) + "/debian/" + file;
    c.text = aptus::read_decompressed(path);
    aptus::deb::TagFileReader reader(c.text, path);
    aptus::deb::Stanza stanza;
    while (reader.next(stanza)) {
        for (const aptus::deb::Field& f : stanza.fields) {
            auto kind = aptus::deb::relation_field_from_name(f.name);
            if (!kind || aptus::deb::is_source_relation_field(*kind) != source) continue;
            // Built-Using is left out so the set matches the apt baseline.
            if (*kind == RelationField::BuiltUsing || *kind == RelationField::StaticBuiltUsing) continue;
            c.values.emplace_back(*kind, f.value);
        }
    }
    return c;
}

void run(benchmark::State& state, const Values& values) {
    aptus::deb::RelationList list;
    int64_t relations = 0, bytes = 0;
    for (auto _ : state) {
        for (const auto& [kind, text] : values) {
            aptus::deb::parse_relations(text, kind, list);
            relations += int64_t(list.relations().size());
            bytes += int64_t(text.size());
        }
        benchmark::DoNotOptimize(list.relations().data());
    }
    state.SetItemsProcessed(relations);
    state.SetBytesProcessed(bytes);
    state.counters["relations/s"] = benchmark::Counter(double(relations), benchmark::Counter::kIsRate);
}

void BM_ParseRelationsBookwormPackages(benchmark::State& state) {
    static const Corpus corpus = collect("bookworm-main-amd64-Packages.xz", false);
    run(state, corpus.values);
}
BENCHMARK(BM_ParseRelationsBookwormPackages)->Unit(benchmark::kMillisecond);

void BM_ParseBuildRelationsBookwormSources(benchmark::State& state) {
    static const Corpus corpus = collect("bookworm-main-Sources.xz", true);
    run(state, corpus.values);
}
BENCHMARK(BM_ParseBuildRelationsBookwormSources)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
