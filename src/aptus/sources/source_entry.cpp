#include "aptus/sources/source_entry.hpp"

#include <algorithm>

namespace aptus::sources {

std::string_view type_name(SourceType type) { return type == SourceType::Deb ? "deb" : "deb-src"; }

std::optional<SourceType> parse_type(std::string_view word) {
    if (word == "deb") return SourceType::Deb;
    if (word == "deb-src") return SourceType::DebSrc;
    return std::nullopt;
}

std::string SourceLocation::apt_name() const {
    return file + ":" + std::to_string(stanza != 0 ? stanza : line);
}

const SourceOption* SourceEntry::option(std::string_view key) const {
    for (auto it = options.rbegin(); it != options.rend(); ++it)
        if (it->key == key) return &*it;
    return nullptr;
}

std::optional<std::vector<std::string>> SourceEntry::option_values(std::string_view key,
                                                                   const std::vector<std::string>& base) const {
    // apt keeps one value per (key, op): a repeated "arch+=" replaces the
    // earlier one. Then "=" (or the default) is taken, "+=" added and "-="
    // removed, whatever order they were written in.
    const SourceOption* by_op[3] = {nullptr, nullptr, nullptr};
    for (const auto& o : options)
        if (o.key == key) by_op[static_cast<int>(o.op)] = &o;
    if (!by_op[0] && !by_op[1] && !by_op[2]) return std::nullopt;
    std::vector<std::string> out = by_op[0] ? by_op[0]->values : base;
    if (by_op[1])
        for (const auto& v : by_op[1]->values)
            if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    if (by_op[2])
        for (const auto& v : by_op[2]->values) out.erase(std::remove(out.begin(), out.end(), v), out.end());
    return out;
}

}  // namespace aptus::sources
