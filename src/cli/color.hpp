// apt's colours: whether to use them, and what a colour name stands for.
//
// Colour is used only when stdout is a terminal, APT::Color is true (the
// default, as for apt(8); --no-color or -o APT::Color=0 turn it off) and
// neither NO_COLOR nor APT_NO_COLOR is set. A pipe never gets escape codes,
// even with APT::Color forced on, as with apt.
#pragma once

#include <string>
#include <string_view>

#include "aptus/config/config.hpp"

namespace aptus::cli {

// The decision above for output on `fd`; `no_color`/`apt_no_color` are the
// environment values (nullptr: unset), passed in so tests need no setenv.
bool color_wanted(const config::Config& config, bool fd_is_terminal, const char* no_color, const char* apt_no_color);

// The escape sequence of a colour under APT::Color:: ("highlight", "neutral",
// "action::install"...), resolved as apt does: a value starting with ESC is
// literal, one starting with the text "\x1B" has it turned into ESC, a bare
// word names another key under APT::Color, several words are concatenated.
std::string color_code(const config::Config& config, std::string_view name);

// Colours for one run: empty strings when colour is off, so callers can
// always write `c.highlight + name + c.neutral`.
class Colors {
public:
    // Decides for stdout with the real environment.
    static Colors for_stdout(const config::Config& config);
    static Colors off() { return Colors(); }
    Colors(const config::Config& config, bool enabled);

    bool enabled() const { return enabled_; }
    // "" when off.
    std::string get(std::string_view name) const;

    std::string highlight, neutral, bold;

private:
    Colors() = default;
    const config::Config* config_ = nullptr;
    bool enabled_ = false;
};

}  // namespace aptus::cli
