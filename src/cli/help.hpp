// The help and the manual page's lists of commands and options, all made
// from the command table (cli/command.hpp) and its option rows, so they list
// exactly what the parser accepts; the completion (completion_cmd) reads the
// same table.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "cli/command.hpp"

namespace aptus::cli {

// The command named by `words` ({"config", "dump", ...}), or null.
const Command* find_command(std::span<const std::string> words);

// The command's words joined: "config dump".
std::string command_name(const Command& command);

// "aptus 0.1.0 (amd64)"; under apt's names "apt ..." as apt prints it.
std::string version_text(std::string_view program);

// `aptus --help`: the commands by group, one line each, and the options
// every command takes. Under apt's names: that program's usage summary.
std::string help_text(std::string_view program);

// `aptus help install`, `aptus install --help`: the usage line, what the
// command does, and its options with one line each.
std::string command_help_text(const Command& command);

// The COMMANDS and OPTIONS sections of aptus(8) in scdoc's syntax
// (docs/man/aptus.8.scd.in has the rest of the page).
std::string manual_sections();

// "--target-release RELEASE" / "-t, --target-release RELEASE", with the other
// names of the same setting ("--colour") after it: `rows` is the table the
// row is in, `at` its index.
std::string option_names(std::span<const OptionSpec> rows, size_t at);

}  // namespace aptus::cli
