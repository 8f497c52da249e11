#include "cli/source_records.hpp"

#include <unordered_map>
#include <unordered_set>

#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"

namespace aptus::cli {
namespace {

// The records a name reached, in reading order, before removing duplicates.
struct Reached {
    std::vector<SourceHit> hits;
    bool by_binary_wanted = false;  // some argument with this name takes Binary matches
};

}  // namespace

namespace {

std::vector<SourceQuery> queries_of(std::span<const std::string> arguments, bool only_source) {
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
    return queries;
}

}  // namespace

std::vector<SourceQuery> select_source_records(std::span<const SourceRecord> records,
                                               std::span<const std::string> arguments, bool only_source) {
    std::vector<SourceQuery> queries = queries_of(arguments, only_source);
    // Each record is looked at once, however many names are asked for.
    std::unordered_map<std::string_view, Reached> reached;
    bool any_binary = false;
    for (const SourceQuery& q : queries) {
        Reached& r = reached[q.name];
        r.by_binary_wanted |= !q.only_source;
        any_binary |= !q.only_source;
    }
    for (const SourceRecord& rec : records) {
        auto it = reached.find(rec.package);
        if (it != reached.end()) it->second.hits.push_back({rec.file, rec.text, false});
        if (!any_binary || rec.binary.empty()) continue;
        system::for_each_binary_name(rec.binary, [&](std::string_view n) {
            auto b = reached.find(n);
            if (b == reached.end() || !b->second.by_binary_wanted) return;
            // Reached already: as its source name, or listed twice in Binary.
            if (!b->second.hits.empty() && b->second.hits.back().text.data() == rec.text.data()) return;
            b->second.hits.push_back({rec.file, rec.text, true});
        });
    }

    std::unordered_set<std::string_view> printed;
    for (SourceQuery& q : queries) {
        for (const SourceHit& h : reached[q.name].hits) {
            if (q.only_source && h.by_binary) continue;
            ++q.matched;
            if (printed.insert(h.text).second) q.hits.push_back(h);
        }
    }
    return queries;
}

std::vector<SourceQuery> find_source_records(std::span<const SourcesText> files,
                                             std::span<const std::string> arguments, bool only_source) {
    std::vector<SourceRecord> records;
    deb::Stanza st;
    for (size_t f = 0; f < files.size() && !arguments.empty(); ++f) {
        // As the cache build reads a Sources file: a malformed stanza is
        // skipped (the build warned of it), a NUL ends a value.
        deb::TagFileReader reader(files[f].text, files[f].path, deb::TagFileOptions{.skip_malformed = true});
        while (reader.next(st)) {
            const deb::Field* binary = st.find("Binary");
            records.push_back({f, st.raw, st.value_or_empty("Package"), binary ? binary->value : std::string_view()});
        }
    }
    return select_source_records(records, arguments, only_source);
}

}  // namespace aptus::cli
