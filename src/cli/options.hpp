// apt's command-line grammar, table driven: each command adds its own rows to
// the general ones. Every option ends up as a configuration setting, applied
// in command-line order after the configuration files, as apt does.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/init.hpp"

namespace aptus::cli {

enum class ArgKind {
    Flag,        // -y, --yes, --no-yes, --yes=false: a boolean setting
    FlagOff,     // --without-new-pkgs: a boolean setting turned off
    Level,       // -q, -qq, -q=2, --quiet 2: a counter
    Value,       // --format X, --format=X
    ConfigItem,  // -o KEY=VALUE
    ConfigFile,  // -c FILE
    Root,        // --root DIR: Dir, the dpkg status and dpkg's --root, all under DIR
    Help,
    Version,
};

// One row feeds the parser, the help, the manual page and the completion.
struct OptionSpec {
    char short_name;              // 0 for none
    std::string_view long_name;   // "" for none
    std::string_view config_key;  // the setting it changes
    ArgKind kind;
    // One line for the help; "" for another name of the row before it with
    // the same setting (--colour after --color), listed with it.
    std::string_view help = {};
    std::string_view value_name = {};  // "RELEASE" in "--target-release RELEASE"
};

// The options every command accepts.
std::span<const OptionSpec> general_options();

// apt's own options no command of aptus lists itself; every command accepts
// them (after its own table), as apt-get accepts its whole table everywhere.
std::span<const OptionSpec> apt_options();

struct ParsedArgs {
    std::vector<std::string> words;  // non-option arguments, in order
    std::vector<config::CommandLineItem> items;
    std::optional<std::string> root;  // --root DIR, with a trailing '/'
    bool help = false;
    bool version = false;
};

// Throws aptus::Error with apt's messages for unknown options, missing arguments
// and -o items without '='.
ParsedArgs parse_args(std::span<const std::string> args, std::span<const OptionSpec> options);

// The non-option words, found before the full parse so the command (and with
// it the option table) is known; skips the arguments of options that take one.
std::vector<std::string> scan_words(std::span<const std::string> args, std::span<const OptionSpec> options);

}  // namespace aptus::cli
