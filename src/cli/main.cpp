// The aptus program: find the command, parse options, load the configuration
// in apt's order, run the command. The one place that catches aptus::Error,
// renders diagnostics and decides the exit code.
//
// Started through a link named apt-get, apt-cache, apt-mark, apt-config or
// apt (argv[0]), it stands in for that program: its commands are found
// under the aptus command they are (apt-mark auto X is aptus mark auto X),
// its Binary::<name> configuration scope applies, and history records the
// command line under that name.
#include <algorithm>
#include <clocale>
#include <set>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "aptus/base/error.hpp"
#include "aptus/config/init.hpp"
#include "aptus/config/values.hpp"
#include "aptus/system/volatile_sources.hpp"
#include "cli/command.hpp"
#include "cli/help.hpp"
#include "cli/json_error.hpp"
#include "cli/output.hpp"
#include "cli/exit_status.hpp"
#include "cli/message.hpp"

namespace aptus::cli {
namespace {

std::vector<OptionSpec> all_options() {
    std::vector<OptionSpec> all(general_options().begin(), general_options().end());
    for (const auto& cmd : commands()) all.insert(all.end(), cmd.options.begin(), cmd.options.end());
    all.insert(all.end(), apt_options().begin(), apt_options().end());
    return all;
}

// The program aptus stands in for: the base name it was started under when
// that is one of apt's front ends, else "aptus".
std::string personality(const char* argv0) {
    std::string_view name = argv0 ? argv0 : "aptus";
    if (size_t slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    for (std::string_view known : {"apt-get", "apt-cache", "apt-mark", "apt-config", "apt"})
        if (name == known) return std::string(name);
    return "aptus";
}

// Commands of apt's front ends that are another aptus command.
struct Alias {
    std::string_view program, command;
    std::vector<std::string_view> aptus;
};
const Alias kAliases[] = {
    {"apt-cache", "showauto", {"mark", "showauto"}},
    {"apt-get", "markauto", {"mark", "auto"}},
    {"apt-get", "unmarkauto", {"mark", "manual"}},
    {"apt", "info", {"show"}},
};

// The aptus command words an apt front end's arguments stand for: apt-mark
// and apt-config are aptus's mark and config commands; apt-get, apt-cache
// and apt name theirs as aptus does, but for the aliases above.
std::vector<std::string> as_aptus_args(const std::string& program, std::vector<std::string> args) {
    std::vector<std::string> words = scan_words(args, all_options());
    if (words.empty()) return args;  // bare `apt-mark --help` stays help
    const char* prefix = program == "apt-mark" ? "mark" : program == "apt-config" ? "config" : nullptr;
    if (prefix) {
        args.insert(args.begin(), prefix);
        return args;
    }
    for (const Alias& alias : kAliases) {
        if (alias.program != program || alias.command != words[0]) continue;
        auto at = std::find(args.begin(), args.end(), words[0]);
        at = args.erase(at);
        args.insert(at, alias.aptus.begin(), alias.aptus.end());
        break;
    }
    return args;
}

std::string command_line(const std::string& program, const std::vector<std::string>& args) {
    std::string s = program;
    for (const auto& a : args) {
        s += ' ';
        if (a.find_first_of(" \t") == std::string::npos) {
            s += a;
        } else {
            // Shown as apt shows it: KEY='value with spaces'.
            size_t eq = a.find('=');
            size_t cut = eq == std::string::npos ? 0 : eq + 1;
            s += a.substr(0, cut) + "'" + a.substr(cut) + "'";
        }
    }
    return s;
}

// The commands whose words may be .deb files (apt's "volatile" files).
bool takes_package_files(const Command& cmd) {
    static const std::set<std::string_view> commands = {"install", "reinstall", "remove", "purge", "upgrade",
                                                       "full-upgrade", "dist-upgrade", "show"};
    return cmd.words.size() == 1 && commands.count(cmd.words[0]);
}

int run(const std::string& program, const std::vector<std::string>& original_args) {
    const std::vector<std::string> args = as_aptus_args(program, original_args);
    std::vector<std::string> words = scan_words(args, all_options());
    const Command* cmd = find_command(words);

    std::vector<OptionSpec> options(general_options().begin(), general_options().end());
    if (cmd) options.insert(options.end(), cmd->options.begin(), cmd->options.end());
    options.insert(options.end(), apt_options().begin(), apt_options().end());
    ParsedArgs parsed = parse_args(args, options);

    if (parsed.version) {
        print_version(program);
        return 0;
    }
    // `aptus help install` and `aptus install --help`: that command's help;
    // `apt help`, `aptus help`, `apt-get install --help`: the program's.
    const bool help_word = !cmd && !words.empty() && words[0] == "help";
    if (parsed.help || help_word) {
        const Command* about = help_word ? find_command(std::span(words).subspan(1)) : cmd;
        if (program == "aptus" && about && !about->hidden) {
            std::fputs(command_help_text(*about).c_str(), stdout);
            return 0;
        }
        if (program == "aptus" && help_word && words.size() > 1)
            throw Error("help: no command " + words[1] + "; 'aptus help' lists them");
        print_help(program);
        return 0;
    }
    if (!cmd) {
        if (words.empty()) {
            print_help(program);
            return kExitDeclined;
        }
        std::string op = words[0];
        if (words.size() > 1 && words[0] == "config") op += " " + words[1];
        throw Error("Invalid operation " + op);
    }

    // --json asked for, read from the command line alone: the configuration
    // may be what fails.
    bool json = false;
    for (const OptionSpec& o : cmd->options)
        if (o.long_name == "json")
            for (const auto& item : parsed.items)
                if (item.kind == config::CommandLineItem::Kind::Set && item.key == o.config_key)
                    json = config::parse_bool(item.value).value_or(false);

    Diagnostics diags;
    config::LoadRequest request;
    if (const char* env = std::getenv("APT_CONFIG")) request.apt_config = env;
    request.items = std::move(parsed.items);
    request.root = parsed.root;
    request.command_line = command_line(program, original_args);
    request.binary = program;
    try {
        config::Config config = config::load(request, diags);
        set_message_style(message_style(program, &config, ::isatty(STDERR_FILENO) == 1, std::getenv("NO_COLOR"),
                                        std::getenv("APT_NO_COLOR")));
        render(diags);
        diags.clear();
        // apt's word to scripts that read its output: it may change.
        if (program == "apt" && !::isatty(STDOUT_FILENO) &&
            !config.find_bool("Apt::Cmd::Disable-Script-Warning", false))
            std::fputs("\nWARNING: apt does not have a stable CLI interface. Use with caution in scripts.\n\n", stderr);
        Context ctx{config, std::vector<std::string>(parsed.words.begin() + long(cmd->words.size()), parsed.words.end()),
                    diags};
        // `install ./foo.deb`, `show ./foo.deb`: the files join this run's
        // sources (APT::Sources::With) before the cache is opened.
        if (takes_package_files(*cmd)) system::add_path_words(config, ctx.args);
        int rc = cmd->run(ctx);
        render(diags);
        return rc;
    } catch (const Error& e) {
        render(diags);
        if (json) std::fputs(error_json(command_name(*cmd), e).c_str(), stdout);
        throw;
    } catch (...) {
        render(diags);
        throw;
    }
}

}  // namespace
}  // namespace aptus::cli

int main(int argc, char** argv) {
    // Like apt: messages and languages follow the user's locale.
    std::setlocale(LC_ALL, "");
    std::vector<std::string> args(argv + 1, argv + argc);
    const std::string name = aptus::cli::personality(argc > 0 ? argv[0] : nullptr);
    aptus::cli::set_message_style(aptus::cli::message_style(name, nullptr, ::isatty(STDERR_FILENO) == 1,
                                                            std::getenv("NO_COLOR"), std::getenv("APT_NO_COLOR")));
    try {
        return aptus::cli::run(name, args);
    } catch (const aptus::Error& e) {
        std::fflush(stdout);
        // Under apt's names, apt's own words (scripts match them); aptus says where.
        const bool apt_words = name != "aptus" && !e.apt_text().empty();
        using aptus::cli::MessageLevel;
        aptus::cli::print_message(MessageLevel::Error, apt_words ? e.apt_text() : std::string(e.what()));
        for (const auto& more : e.followed_by()) aptus::cli::print_message(MessageLevel::Error, more);
        return aptus::cli::exit_status(e.kind());
    }
}
