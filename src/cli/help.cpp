#include "cli/help.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "aptus/config/init.hpp"

namespace aptus::cli {
namespace {

const char* group_title(CommandGroup g) {
    switch (g) {
    case CommandGroup::Sources: return "Sources and configuration";
    case CommandGroup::Query: return "Looking at packages";
    case CommandGroup::Change: return "Changing the system";
    case CommandGroup::Files: return "Files and caches";
    case CommandGroup::Internal: break;
    }
    return "";
}

constexpr CommandGroup kGroups[] = {CommandGroup::Query, CommandGroup::Change, CommandGroup::Sources,
                                    CommandGroup::Files};

// The rows of a table that carry help, each with the names of its aliases.
struct Documented {
    std::string names;
    std::string_view help;
};
std::vector<Documented> documented(std::span<const OptionSpec> rows) {
    std::vector<Documented> out;
    for (size_t i = 0; i < rows.size(); ++i)
        if (!rows[i].help.empty()) out.push_back({option_names(rows, i), rows[i].help});
    return out;
}

// Lines of at most `width` columns, each after `indent` spaces; the first
// line continues text already printed up to `indent`.
std::string wrapped(std::string_view text, size_t indent, size_t width) {
    std::string out, line;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(' ', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view word = text.substr(pos, end - pos);
        if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
        }
        line += (line.empty() ? "" : " ") + std::string(word);
        pos = end + 1;
    }
    return out + line + "\n";
}

void option_list(std::string& out, const std::vector<Documented>& rows) {
    size_t width = 0;
    for (const auto& r : rows) width = std::max(width, r.names.size());
    width = std::min<size_t>(width, 30);
    for (const auto& r : rows) {
        std::string head = "  " + r.names;
        if (r.names.size() > width)
            head += "\n" + std::string(width + 4, ' ');
        else
            head += std::string(width - r.names.size() + 2, ' ');
        out += head + wrapped(r.help, width + 4, 79);
    }
}

// A row's names for the manual, without the help's alignment.
std::string manual_names(std::span<const OptionSpec> rows, size_t at) {
    std::string names = option_names(rows, at);
    names.erase(0, names.find_first_not_of(' '));
    return names;
}

// scdoc treats these as markup in running text.
std::string scdoc_escaped(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '*' || c == '_' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

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

std::string command_name(const Command& cmd) {
    std::string name;
    for (auto w : cmd.words) name += (name.empty() ? "" : " ") + std::string(w);
    return name;
}

std::string version_text(std::string_view program) {
    // apt's front ends name themselves "apt", whichever they are.
    return std::string(program == "aptus" ? "aptus" : "apt") + " " + APTUS_VERSION + " (" +
           config::native_architecture() + ")\n";
}

const Command* find_command(std::span<const std::string> words) {
    for (const auto& cmd : commands()) {
        if (words.size() < cmd.words.size()) continue;
        bool match = true;
        for (size_t i = 0; i < cmd.words.size(); ++i) match = match && words[i] == cmd.words[i];
        if (match) return &cmd;
    }
    return nullptr;
}

std::string option_names(std::span<const OptionSpec> rows, size_t at) {
    auto one = [](const OptionSpec& o) {
        std::string s;
        if (o.short_name) s = std::string("-") + o.short_name;
        if (!o.long_name.empty()) s += (s.empty() ? "--" : ", --") + std::string(o.long_name);
        return s;
    };
    const OptionSpec& row = rows[at];
    // Long-only options line up with the long names of the others.
    std::string names = row.short_name ? one(row) : "    " + one(row);
    for (size_t j = 0; j < rows.size(); ++j)
        if (j != at && rows[j].help.empty() && rows[j].config_key == row.config_key && rows[j].kind == row.kind)
            names += ", " + one(rows[j]);
    if (!row.value_name.empty()) names += " " + std::string(row.value_name);
    return names;
}

std::string help_text(std::string_view program) {
    std::string out = version_text(program);
    if (program != "aptus") {
        out += front_end_usage(program);
        out +=
            "\nOptions:\n"
            "  -h  show this help\n"
            "  -v  show the version\n"
            "  -q  less output\n"
            "  -s  only simulate\n"
            "  -o  set a configuration item, as -o Dir::Cache=/tmp\n"
            "  -c  read a configuration file\n"
            "See apt.conf(5) for the configuration syntax.\n";
        return out;
    }
    out += "Usage: aptus [options] command [arguments]\n";
    size_t width = 0;
    for (const auto& cmd : commands())
        if (!cmd.hidden) width = std::max(width, command_name(cmd).size());
    for (CommandGroup g : kGroups) {
        out += std::string("\n") + group_title(g) + ":\n";
        for (const auto& cmd : commands()) {
            if (cmd.hidden || cmd.group != g) continue;
            std::string name = command_name(cmd);
            out += "  " + name + std::string(width - name.size() + 2, ' ') + wrapped(cmd.help, width + 4, 79);
        }
    }
    out += "\nOptions of every command:\n";
    option_list(out, documented(general_options()));
    out +=
        "\n'aptus help COMMAND' (or 'aptus COMMAND --help') shows a command's options.\n"
        "Every option of apt-get and apt-cache is accepted too: see aptus(8), and\n"
        "apt.conf(5) for the configuration.\n";
    return out;
}

std::string command_help_text(const Command& cmd) {
    std::string out = "Usage: aptus [options] " + command_name(cmd);
    if (!cmd.arguments.empty()) out += " " + std::string(cmd.arguments);
    out += "\n\n";
    std::string about(cmd.help);
    if (!about.empty()) about[0] = char(std::toupper(static_cast<unsigned char>(about[0])));
    out += wrapped(about + ".", 0, 79);
    auto own = documented(cmd.options);
    if (!own.empty()) {
        out += "\nOptions:\n";
        option_list(out, own);
    }
    out += "\nOptions of every command:\n";
    option_list(out, documented(general_options()));
    return out;
}

std::string manual_sections() {
    std::string out = "# COMMANDS\n\n";
    for (CommandGroup g : kGroups) {
        out += std::string("## ") + group_title(g) + "\n\n";
        for (const auto& cmd : commands()) {
            if (cmd.hidden || cmd.group != g) continue;
            out += "*" + command_name(cmd) + "*";
            if (!cmd.arguments.empty()) out += " " + scdoc_escaped(cmd.arguments);
            out += "\n\t" + scdoc_escaped(cmd.help) + ".\n";
            for (size_t i = 0; i < cmd.options.size(); ++i) {
                if (cmd.options[i].help.empty()) continue;
                out += "\n\t*" + scdoc_escaped(manual_names(cmd.options, i)) + "*\n\t\t" +
                       scdoc_escaped(cmd.options[i].help) + ".\n";
            }
            out += "\n";
        }
    }
    out += "# OPTIONS\n\nEvery command takes these:\n\n";
    for (size_t i = 0; i < general_options().size(); ++i) {
        if (general_options()[i].help.empty()) continue;
        out += "*" + scdoc_escaped(manual_names(general_options(), i)) + "*\n\t" +
               scdoc_escaped(general_options()[i].help) + ".\n\n";
    }
    out += "## Options of apt-get and apt-cache\n\n"
           "Every command accepts these too, as apt-get does; each sets the configuration item apt's programs read, "
           "and a command uses those that concern it.\n\n";
    for (size_t i = 0; i < apt_options().size(); ++i) {
        const OptionSpec& o = apt_options()[i];
        if (o.help.empty()) continue;
        out += "*" + scdoc_escaped(manual_names(apt_options(), i)) + "*\n\t" + scdoc_escaped(o.help) + " (" +
               scdoc_escaped(o.config_key) + ").\n\n";
    }
    return out;
}

}  // namespace aptus::cli
