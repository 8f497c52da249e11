#include "cli/output.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "aptus/config/init.hpp"
#include "cli/command.hpp"

namespace aptus::cli {

void render(const Diagnostics& diags) {
    std::fflush(stdout);
    for (const auto& d : diags)
        std::fprintf(stderr, "%s: %s\n", d.level == Level::Notice ? "N" : "W", d.message.c_str());
}

void print_version() { std::printf("aptus %s (%s)\n", APTUS_VERSION, config::native_architecture().c_str()); }

void print_help() {
    print_version();
    std::printf("Usage: aptus [options] command\n\nCommands:\n");
    // Generated from the command table so it lists exactly what exists,
    // each command with its own options.
    auto name_of = [](const Command& cmd) {
        std::string name;
        for (auto w : cmd.words) name += (name.empty() ? "" : " ") + std::string(w);
        return name;
    };
    size_t width = 0;
    for (const auto& cmd : commands())
        if (!cmd.hidden) width = std::max(width, name_of(cmd).size());
    for (const auto& cmd : commands()) {
        if (cmd.hidden) continue;
        std::printf("  %-*s  %.*s\n", int(width), name_of(cmd).c_str(), int(cmd.help.size()), cmd.help.data());
        std::string opts;
        for (const OptionSpec& o : cmd.options) {
            if (!opts.empty()) opts += ", ";
            opts += o.long_name.empty() ? std::string{'-', o.short_name} : "--" + std::string(o.long_name);
        }
        if (!opts.empty()) std::printf("  %-*s    options: %s\n", int(width), "", opts.c_str());
    }
    std::printf(
        "\nOptions:\n"
        "  -h, --help              show this help\n"
        "  -v, --version           show the version\n"
        "  -q, --quiet[=N]         less output (-qq: even less)\n"
        "  -y, --yes               assume yes to questions\n"
        "  -s, --simulate          only show what would be done\n"
        "  -o, --option KEY=VALUE  set a configuration item\n"
        "  -c, --config-file FILE  read a configuration file\n"
        "      --root DIR          a whole system under DIR: its configuration, sources,\n"
        "                          lists, dpkg database and archives; dpkg gets --root=DIR\n"
        "See apt.conf(5) for the configuration syntax.\n");
}

}  // namespace aptus::cli
