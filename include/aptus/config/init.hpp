// Building the configuration a command runs with, in apt's order:
//   1. built-in defaults (apt's pkgInitConfig);
//   2. the file named by APT_CONFIG, then Dir::Etc::parts, then Dir::Etc::main;
//   3. Binary and its per-binary defaults (Binary::<name>::* applied to the root);
//   4. the command line's -o and -c items, in the order given;
//   5. values derived from all of the above (compressors, architectures,
//      languages, Dir::State::status, Dir::Bin::*), then CommandLine::AsString.
// Steps 1-3 and 5 are separate functions so a front end can interleave its
// own command-line handling (step 4) exactly where apt does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/base/diagnostics.hpp"

namespace aptus::config {

// One setting from the command line: -o KEY=VALUE or an option mapped to a
// key (Set), -c FILE (File), or a counting option like -q (Increment: one more
// than the value the files gave, as apt counts).
struct CommandLineItem {
    enum class Kind { Set, File, Increment } kind;
    std::string key;    // Set/Increment: the key (Set: may end in "::" to append)
    std::string value;  // Set: the value; File: the path
};

struct LoadRequest {
    std::string binary = "aptus";
    std::optional<std::string> apt_config;  // the APT_CONFIG environment variable, if set
    // A system root (aptus --root): Dir is set to it before step 2, so the
    // configuration files read are the root's own, not the host's.
    std::optional<std::string> root;
    std::vector<CommandLineItem> items;
    std::string command_line;  // for CommandLine::AsString
};

// The architecture this program was built for, in dpkg's naming.
std::string native_architecture();

void set_builtin_defaults(Config& config);                               // step 1
void read_system_config(Config& config, const std::optional<std::string>& apt_config,
                        Diagnostics& diags);                             // step 2
void apply_binary(Config& config, const std::string& binary);            // step 3
void apply_command_line(Config& config, const std::vector<CommandLineItem>& items,
                        Diagnostics& diags);                             // step 4
void set_derived_defaults(Config& config);                               // step 5

// All five steps.
Config load(const LoadRequest& request, Diagnostics& diags);

}  // namespace aptus::config
