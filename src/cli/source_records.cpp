#include "cli/source_records.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "aptus/base/strings.hpp"

namespace aptus::cli {
namespace {

template <class F>
void for_each_binary_name(std::string_view field, F&& f) {
    size_t pos = 0;
    while (true) {
        size_t comma = field.find(',', pos);
        std::string_view name = trim(field.substr(pos, comma == std::string_view::npos ? comma : comma - pos));
        if (!name.empty()) f(name);
        if (comma == std::string_view::npos) return;
        pos = comma + 1;
    }
}

}  // namespace

std::vector<std::string_view> binary_names(std::string_view binary_field) {
    std::vector<std::string_view> out;
    for_each_binary_name(binary_field, [&](std::string_view n) { out.push_back(n); });
    return out;
}

std::vector<SourceQuery> find_source_records(const cache::Cache& cache, std::span<const std::string> arguments,
                                             bool only_source) {
    std::vector<SourceQuery> queries;
    queries.reserve(arguments.size());
    for (const std::string& a : arguments) {
        SourceQuery q;
        q.argument = a;
        q.only_source = only_source;
        // apt 3.0: "src:NAME" asks for the source package NAME only.
        if (starts_with(a, "src:")) {
            q.name = a.substr(4);
            q.only_source = true;
        } else {
            q.name = a;
        }
        queries.push_back(std::move(q));
    }

    // The Binary fields are not indexed in the cache, so one pass over every
    // record serves all the names at once, however many there are.
    const std::span<const cache::SourcePackage> all = cache.sources();
    std::unordered_map<std::string_view, std::vector<uint32_t>> by_binary;
    for (const SourceQuery& q : queries)
        if (!q.only_source) by_binary.try_emplace(q.name);
    if (!by_binary.empty()) {
        for (uint32_t i = 0; i < all.size(); ++i) {
            for_each_binary_name(cache.str(all[i].binaries), [&](std::string_view n) {
                auto it = by_binary.find(n);
                if (it != by_binary.end() && (it->second.empty() || it->second.back() != i)) it->second.push_back(i);
            });
        }
    }

    // The cache numbers the index files in the order of the sources and
    // keeps each record's offset: together, apt's reading order.
    auto read_order = [](const SourceHit& a, const SourceHit& b) {
        if (a.record->index_file != b.record->index_file) return a.record->index_file < b.record->index_file;
        return a.record->offset < b.record->offset;
    };
    std::unordered_set<std::string_view> printed;
    for (SourceQuery& q : queries) {
        std::vector<SourceHit> candidates;
        for (const cache::SourcePackage& s : cache.find_sources(q.name)) candidates.push_back({&s, false});
        if (!q.only_source) {
            for (uint32_t i : by_binary[q.name])
                if (cache.str(all[i].name) != q.name) candidates.push_back({&all[i], true});
        }
        std::sort(candidates.begin(), candidates.end(), read_order);
        q.matched = candidates.size();
        for (const SourceHit& h : candidates)
            if (printed.insert(cache.stanza(*h.record)).second) q.hits.push_back(h);
    }
    return queries;
}

}  // namespace aptus::cli
