#include "cli/message.hpp"

#include <cstdio>

#include "cli/color.hpp"
#include "cli/plan_view.hpp"

namespace aptus::cli {
namespace {

MessageStyle current_style;

}  // namespace

MessageStyle message_style(std::string_view program, const config::Config* config, bool stderr_is_terminal,
                           const char* no_color, const char* apt_no_color) {
    MessageStyle style;
    // apt-get and its siblings keep the old layout everywhere; apt does so
    // when asked for it (APT::Output-Version below 30).
    const bool new_layout = config ? !classic_layout(*config) : new_layout_by_default(program);
    style.words = new_layout && stderr_is_terminal;
    if (style.words) {
        static const config::Config defaults;
        style.color = color_wanted(config ? *config : defaults, stderr_is_terminal, no_color, apt_no_color);
    }
    return style;
}

std::string format_message(MessageLevel level, std::string_view text, MessageStyle style) {
    std::string out;
    if (!style.words) {
        out = level == MessageLevel::Error ? "E: " : level == MessageLevel::Warning ? "W: " : "N: ";
        out.append(text);
    } else {
        const char* word = level == MessageLevel::Error ? "Error: " : level == MessageLevel::Warning ? "Warning: " : "Notice: ";
        if (!style.color) {
            out = word;
            out.append(text);
        } else {
            const char* color = level == MessageLevel::Error ? "\x1b[1;31m" : level == MessageLevel::Warning ? "\x1b[1;33m" : "\x1b[1m";
            out = std::string(color) + word + "\x1b[0m";
            // apt 3.0 sets the text of errors and warnings in bold, not notices.
            if (level == MessageLevel::Notice)
                out.append(text);
            else
                out += "\x1b[1m" + std::string(text) + "\x1b[0m";
        }
    }
    out += '\n';
    return out;
}

std::string advice_program(const config::Config& config) {
    return config.find("Binary") == "aptus" ? "aptus" : "apt";
}

void set_message_style(MessageStyle style) { current_style = style; }

void print_message(MessageLevel level, std::string_view text) {
    std::fflush(stdout);
    const std::string line = format_message(level, text, current_style);
    std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace aptus::cli
