#include "aptus/install/undo.hpp"

#include "aptus/install/history_target.hpp"

namespace aptus::install {

std::vector<std::string> undo_words(const system::HistoryEntry& e, std::string_view native_architecture) {
    return target_words(undo_target(std::span(&e, 1), 1), native_architecture);
}

}  // namespace aptus::install
