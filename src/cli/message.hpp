// The lines that tell the user something went wrong or deserves a look:
// "E: ..." in a pipe and under apt-get's, apt-cache's, apt-mark's and
// apt-config's names (scripts match those prefixes), APT 3.0's "Error: ",
// "Warning: ", "Notice: " on a terminal under aptus's and apt's names, in
// colour where colour is wanted (bold red, bold yellow, bold; the text of
// errors and warnings bold), as apt 3.0 prints them.
#pragma once

#include <string>
#include <string_view>

#include "aptus/config/config.hpp"

namespace aptus::cli {

enum class MessageLevel { Error, Warning, Notice };

struct MessageStyle {
    bool words = false;  // "Error:" rather than "E:"
    bool color = false;
};

// The style for stderr: `program` is the name aptus runs under, `config`
// may be null (before the configuration is read: the defaults then);
// `no_color`/`apt_no_color` are the environment's values.
MessageStyle message_style(std::string_view program, const config::Config* config, bool stderr_is_terminal,
                           const char* no_color, const char* apt_no_color);

// One message with its prefix and a newline. Continuation lines keep the
// indentation the text gives them.
std::string format_message(MessageLevel level, std::string_view text, MessageStyle style);

// The program to name in advice ("Use 'aptus autoremove'"): aptus under
// its own name, apt under apt's names, as apt's texts say.
std::string advice_program(const config::Config& config);

// The style every later print_message uses: main sets it once it knows the
// program's name, and again once the configuration is read.
void set_message_style(MessageStyle style);
// Flushes stdout (so the message lands after what was printed) and writes
// the message to stderr.
void print_message(MessageLevel level, std::string_view text);

}  // namespace aptus::cli
