#include "cli/output.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "aptus/config/init.hpp"
#include "cli/command.hpp"
#include "cli/message.hpp"

namespace aptus::cli {

void render(const Diagnostics& diags) {
    for (const auto& d : diags)
        print_message(d.level == Level::Notice ? MessageLevel::Notice : MessageLevel::Warning, d.message);
}

void print_version(std::string_view program) {
    // apt's front ends name themselves "apt", whichever they are.
    std::printf("%s %s (%s)\n", program == "aptus" ? "aptus" : "apt", APTUS_VERSION,
                config::native_architecture().c_str());
}

namespace {

// The usage summaries of apt's front ends, in aptus's own words.
const char* front_end_usage(std::string_view program) {
    if (program == "apt-get")
        return "Usage: apt-get [options] command\n"
               "       apt-get [options] install|remove pkg1 [pkg2 ...]\n"
               "       apt-get [options] source pkg1 [pkg2 ...]\n"
               "\n"
               "Downloads and installs packages with their dependencies.\n"
               "\n"
               "Commands:\n"
               "  update, upgrade, dist-upgrade, install, reinstall, remove, purge,\n"
               "  autoremove, download, clean, autoclean, distclean, check,\n"
               "  markauto, unmarkauto, indextargets\n";
    if (program == "apt-cache")
        return "Usage: apt-cache [options] command\n"
               "       apt-cache [options] show pkg1 [pkg2 ...]\n"
               "\n"
               "Queries the package cache.\n"
               "\n"
               "Commands:\n"
               "  show, showsrc, search, depends, rdepends, policy, madison, showpkg,\n"
               "  pkgnames, unmet, dump, dumpavail, stats, gencaches, showauto, xvcg, dotty\n";
    if (program == "apt-mark")
        return "Usage: apt-mark [options] {auto|manual} pkg1 [pkg2 ...]\n"
               "\n"
               "Sets and shows how packages were installed (automatically or manually)\n"
               "and their dpkg selections.\n"
               "\n"
               "Commands:\n"
               "  auto, manual, minimize-manual, showauto, showmanual,\n"
               "  hold, unhold, showhold, install, remove, purge,\n"
               "  showinstall, showremove, showpurge\n";
    if (program == "apt-config")
        return "Usage: apt-config [options] command\n"
               "\n"
               "Reads the APT configuration.\n"
               "\n"
               "Commands:\n"
               "  shell, dump\n";
    return "Usage: apt [options] command\n"
           "\n"
           "A command line package manager.\n"
           "\n"
           "Commands:\n"
           "  list, search, show, install, reinstall, remove, purge, autoremove, autopurge,\n"
           "  update, upgrade, full-upgrade, modernize-sources, history\n";
}

}  // namespace

void print_help(std::string_view program) {
    print_version(program);
    if (program != "aptus") {
        std::printf("%s", front_end_usage(program));
        std::printf(
            "\nOptions:\n"
            "  -h  show this help\n"
            "  -v  show the version\n"
            "  -q  less output\n"
            "  -s  only simulate\n"
            "  -o  set a configuration item, as -o Dir::Cache=/tmp\n"
            "  -c  read a configuration file\n"
            "See apt.conf(5) for the configuration syntax.\n");
        return;
    }
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
