#include "cli/output.hpp"

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
    // Generated from the command table so it lists exactly what exists.
    for (const auto& cmd : commands()) {
        if (cmd.hidden) continue;
        std::string name;
        for (auto w : cmd.words) name += (name.empty() ? "" : " ") + std::string(w);
        std::printf("  %-14s %.*s\n", name.c_str(), int(cmd.help.size()), cmd.help.data());
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
        "\nconfig dump also accepts --empty/--no-empty and --format FORMAT.\n"
        "See apt.conf(5) for the configuration syntax.\n");
}

}  // namespace aptus::cli
