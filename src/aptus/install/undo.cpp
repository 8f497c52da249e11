#include "aptus/install/undo.hpp"

namespace aptus::install {

using system::HistoryEntry;
using system::HistoryItem;

std::vector<std::string> undo_words(const HistoryEntry& e, std::string_view native_architecture) {
    const std::string native_suffix = ":" + std::string(native_architecture);
    auto name = [&](const std::string& package) {
        if (package.size() > native_suffix.size() &&
            package.compare(package.size() - native_suffix.size(), native_suffix.size(), native_suffix) == 0)
            return package.substr(0, package.size() - native_suffix.size());
        return package;
    };
    std::vector<std::string> out;
    for (const HistoryItem& it : e.install) out.push_back(name(it.package) + "-");
    for (const auto* list : {&e.upgrade, &e.downgrade, &e.remove, &e.purge})
        for (const HistoryItem& it : *list)
            if (!it.old_version.empty()) out.push_back(name(it.package) + "=" + it.old_version);
    return out;
}

}  // namespace aptus::install
