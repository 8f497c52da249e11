#include "status_words.hpp"

#include "aptus/base/strings.hpp"

namespace aptus::cache::detail {

bool parse_status_words(std::string_view text, Selection& want, StatusFlag& flag, InstallState& state) {
    auto words = split_words(text);
    if (words.size() != 3) return false;
    static constexpr std::pair<std::string_view, Selection> kWant[] = {
        {"unknown", Selection::Unknown}, {"install", Selection::Install}, {"hold", Selection::Hold},
        {"deinstall", Selection::Deinstall}, {"purge", Selection::Purge}};
    static constexpr std::pair<std::string_view, StatusFlag> kFlag[] = {
        {"ok", StatusFlag::Ok}, {"reinstreq", StatusFlag::Reinstreq}};
    static constexpr std::pair<std::string_view, InstallState> kState[] = {
        {"not-installed", InstallState::NotInstalled}, {"config-files", InstallState::ConfigFiles},
        {"half-installed", InstallState::HalfInstalled}, {"unpacked", InstallState::Unpacked},
        {"half-configured", InstallState::HalfConfigured}, {"triggers-awaited", InstallState::TriggersAwaited},
        {"triggers-pending", InstallState::TriggersPending}, {"installed", InstallState::Installed}};
    auto lookup = [](auto& table, std::string_view w, auto& out) {
        for (auto& [name, value] : table)
            if (w == name) {
                out = value;
                return true;
            }
        return false;
    };
    Selection w{};
    StatusFlag f{};
    InstallState s{};
    if (!lookup(kWant, words[0], w) || !lookup(kFlag, words[1], f) || !lookup(kState, words[2], s)) return false;
    want = w;
    flag = f;
    state = s;
    return true;
}

}  // namespace aptus::cache::detail
