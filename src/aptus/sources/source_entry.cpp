#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

std::string_view type_name(SourceType type) { return type == SourceType::Deb ? "deb" : "deb-src"; }

const SourceOption* SourceEntry::option(std::string_view key) const {
    for (auto it = options.rbegin(); it != options.rend(); ++it)
        if (it->key == key) return &*it;
    return nullptr;
}

}  // namespace aptus::sources
