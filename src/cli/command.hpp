// A command of the aptus program: the words that name it, its own options,
// one line of help, and the function that runs it on a loaded configuration.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/base/diagnostics.hpp"
#include "cli/options.hpp"

namespace aptus::cli {

struct Context {
    const config::Config& config;
    std::vector<std::string> args;  // the words after the command's name
    Diagnostics& diags;
};

// Where `aptus --help` and the manual list a command.
enum class CommandGroup { Sources, Query, Change, Files, Internal };

struct Command {
    std::vector<std::string_view> words;  // {"config", "dump"}
    CommandGroup group;
    std::string_view arguments;  // the usage line's words after the command: "PACKAGE..."
    std::span<const OptionSpec> options;
    std::string_view help;
    int (*run)(Context&);
    bool hidden = false;  // runs, but --help does not list it (internal test commands)
};

// Every command, in the order `--help` lists them.
std::span<const Command> commands();

}  // namespace aptus::cli
