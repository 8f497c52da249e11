// modernize-sources' core: a one-line sources.list read, folded into deb822
// stanzas and written; the stanzas, read back by the deb822 reader, must
// expand to exactly the entries of the original lines (enabled and disabled),
// with the same options once apt's rules for repeated options are applied.
// (The keyring APT 3.0 would add, looked up on disk, is left out.)
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/sources/deb822_sources.hpp"
#include "aptus/sources/modernize.hpp"
#include "fuzz/fuzz_util.hpp"
#include "aptus/sources/modernize_detail.hpp"

using namespace aptus;

namespace {
// One index target's worth of an entry: entries folded into one stanza (or
// a component named twice) still configure the same targets.
using Key = std::tuple<bool, int, std::string, std::string, std::string, std::string>;

void add_keys(const sources::SourceEntry& e, std::set<Key>& out) {
    std::string uri = e.uri;
    if (uri.empty() || uri.back() != '/') uri += '/';
    std::vector<std::string> each;  // in key order: deb822 fields may come in another order
    for (const sources::SourceOption& o : sources::detail::canonical_options(e.options)) {
        // Options the deb822 reader does not know (apt ignores them in both
        // formats) are written as fields but not read back as options.
        // (Known keys are matched without case on both sides.)
        std::string key = sources::deb822_option_field(sources::deb822_field_name(o.key, o.op)).key;
        if (key.empty()) continue;
        std::string one = key + char('0' + int(o.op)) + "=";
        for (const std::string& v : o.values) one += v + ",";
        each.push_back(one + ";");
    }
    std::sort(each.begin(), each.end());
    std::string options;
    for (const std::string& one : each) options += one;
    if (e.components.empty()) out.insert({e.enabled, int(e.type), uri, e.suite, "", options});
    for (const std::string& c : e.components) out.insert({e.enabled, int(e.type), uri, e.suite, c, options});
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view in = fuzz::text(data, size);
    sources::detail::ListFile list;
    try {
        list = sources::detail::read_list_file(in, "fuzz.list");
    } catch (const Error&) {
        return 0;
    }
    std::string written;
    for (const sources::detail::StanzaDraft& d : sources::detail::fold_lines(list.lines)) {
        if (!written.empty()) written += "\n";
        written += sources::detail::stanza_text(d, std::nullopt);
    }
    std::vector<sources::SourceEntry> back;
    try {
        back = sources::parse_deb822_sources(written, "fuzz.sources");
    } catch (const Error& e) {
        fuzz::report(e.what());
        fuzz::report(written);
        fuzz::broken("the written stanzas do not read back");
    }
    std::set<Key> before, after;
    for (const sources::detail::ListLine& l : list.lines) add_keys(l.entry, before);
    for (const sources::SourceEntry& e : back) add_keys(e, after);
    if (before != after) {
        fuzz::report(written);
        for (auto* side : {&before, &after}) {
            fuzz::report(side == &before ? "-- the lines:" : "-- the stanzas:");
            for (const Key& k : *side) {
                fuzz::report(std::string(std::get<0>(k) ? "" : "# ") + std::to_string(std::get<1>(k)) + " " +
                             std::get<2>(k) + " | " + std::get<3>(k) + " | " + std::get<4>(k) + " | " + std::get<5>(k));
            }
        }
    }
    if (before != after) fuzz::broken("the stanzas expand to other entries than the lines");
    return 0;
}
