#include "cli/color.hpp"

#include <unistd.h>

#include <cstdlib>


namespace aptus::cli {
namespace {

// apt's built-in values, used when the configuration does not set the key.
std::string_view builtin(std::string_view lower) {
    if (lower == "highlight") return "\x1b[32m";
    if (lower == "bold") return "\x1b[1m";
    if (lower == "neutral") return "\x1b[0m";
    if (lower == "red") return "\x1b[31m";
    if (lower == "green") return "\x1b[32m";
    if (lower == "yellow") return "\x1b[33m";
    if (lower == "blue") return "\x1b[34m";
    if (lower == "magenta") return "\x1b[35m";
    if (lower == "cyan") return "\x1b[36m";
    if (lower == "white") return "\x1b[37m";
    if (lower == "action::upgrade" || lower == "action::install" || lower == "action::install-dependencies")
        return "green";
    if (lower == "action::downgrade") return "yellow";
    if (lower == "action::remove") return "red";
    if (lower == "show::field") return "\x1b[1m";
    if (lower == "show::package") return "\x1b[32m";
    return "";
}

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

std::string resolve(const config::Config& config, std::string_view name, int depth) {
    // A value naming itself (directly or in a loop) must not hang the program.
    if (depth > 16) return "";
    std::string key = "APT::Color::" + std::string(name);
    std::string value = config.exists(key) ? config.find(key) : std::string(builtin(lowered(name)));
    if (value.empty()) return "";
    if (value[0] == '\x1b') return value;
    if (value.compare(0, 4, "\\x1B") == 0 || value.compare(0, 4, "\\x1b") == 0) return "\x1b" + value.substr(4);
    std::string out;
    size_t pos = 0;
    while (pos < value.size()) {
        size_t end = value.find(' ', pos);
        if (end == std::string::npos) end = value.size();
        if (end > pos) out += resolve(config, std::string_view(value).substr(pos, end - pos), depth + 1);
        pos = end + 1;
    }
    return out;
}

}  // namespace

bool color_wanted(const config::Config& config, bool fd_is_terminal, const char* no_color, const char* apt_no_color) {
    if (!fd_is_terminal) return false;
    if (no_color || apt_no_color) return false;
    // apt sets APT::Color for apt(8) only, through Binary::apt; aptus is used
    // like apt(8), so it is on unless someone turned it off.
    return config.find_bool("APT::Color", config.find_bool("Binary::apt::APT::Color", true));
}

std::string color_code(const config::Config& config, std::string_view name) { return resolve(config, name, 0); }

Colors Colors::for_stdout(const config::Config& config) {
    return Colors(config, color_wanted(config, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"),
                                       std::getenv("APT_NO_COLOR")));
}

Colors::Colors(const config::Config& config, bool enabled) : config_(&config), enabled_(enabled) {
    if (!enabled_) return;
    highlight = color_code(config, "Highlight");
    neutral = color_code(config, "Neutral");
    bold = color_code(config, "Bold");
}

std::string Colors::get(std::string_view name) const {
    return enabled_ && config_ ? color_code(*config_, name) : std::string();
}

}  // namespace aptus::cli
