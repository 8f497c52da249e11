#include "cli/commands/completion_cmd.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "aptus/base/error.hpp"
#include "cli/options.hpp"

namespace aptus::cli {
namespace {

// The words an option is typed as: "--long" and "-s".
void add_option_words(std::span<const OptionSpec> options, std::set<std::string>& out) {
    for (const OptionSpec& o : options) {
        if (!o.long_name.empty()) out.insert("--" + std::string(o.long_name));
        // A switch is turned off as apt's are: --no-install-recommends.
        if (!o.long_name.empty() && o.kind == ArgKind::Flag && !o.long_name.starts_with("no-"))
            out.insert("--no-" + std::string(o.long_name));
        if (o.short_name) out.insert(std::string("-") + o.short_name);
    }
}

std::string joined(const std::set<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// A bash variable name for a command ("full-upgrade" -> full_upgrade).
std::string variable(std::string_view command) {
    std::string out(command);
    for (char& c : out)
        if (c == '-') c = '_';
    return out;
}

// The words after `mark` and `history`, which their commands read themselves.
const std::map<std::string, std::string> kSubcommands = {
    {"mark", "auto manual minimize-manual hold unhold install remove deinstall purge showauto showmanual showhold "
             "showinstall showremove showdeinstall showpurge"},
    {"history", "list info undo redo rollback"},
};

// The commands whose words are package names (the others take none, or
// words of their own).
const std::set<std::string> kTakesPackages = {
    "policy", "show", "showsrc", "depends", "rdepends", "madison", "showpkg", "why", "why-not", "install",
    "reinstall", "remove", "purge", "upgrade", "full-upgrade", "dist-upgrade", "build-dep", "download",
    "source", "changelog", "mark", "list", "search", "dotty", "xvcg", "autoremove", "autopurge"};

// The options that take a value in the next word: nothing is completed for it
// but a file for those that name one.
void value_options(std::span<const OptionSpec> options, std::set<std::string>& with_value,
                   std::set<std::string>& with_file) {
    for (const OptionSpec& o : options) {
        if (o.kind != ArgKind::Value && o.kind != ArgKind::ConfigItem && o.kind != ArgKind::ConfigFile &&
            o.kind != ArgKind::Root)
            continue;
        std::set<std::string>& into = o.kind == ArgKind::ConfigFile || o.kind == ArgKind::Root ? with_file : with_value;
        if (!o.long_name.empty()) into.insert("--" + std::string(o.long_name));
        if (o.short_name) into.insert(std::string("-") + o.short_name);
    }
}

}  // namespace

int run_completion(Context& ctx) {
    if (ctx.args.size() != 1 || ctx.args[0] != "bash")
        throw Error("completion: the shell to complete for is needed: aptus completion bash");
    std::set<std::string> command_words, general;
    add_option_words(general_options(), general);
    add_option_words(apt_options(), general);
    std::set<std::string> with_value, with_file;
    value_options(general_options(), with_value, with_file);
    value_options(apt_options(), with_value, with_file);
    std::map<std::string, std::set<std::string>> per_command;
    for (const Command& c : commands()) {
        if (c.hidden || c.words.empty()) continue;
        const std::string first(c.words[0]);
        command_words.insert(first);
        add_option_words(c.options, per_command[first]);
        value_options(c.options, with_value, with_file);
    }

    std::string out =
        "# bash completion for aptus; made by `aptus completion bash` from aptus's own table of\n"
        "# commands and options. Package names come from the cache file as it is: a TAB never\n"
        "# builds a cache.\n";
    out += "_aptus_commands='" + joined(command_words) + "'\n";
    out += "_aptus_general='" + joined(general) + "'\n";
    out += "_aptus_with_value=' " + joined(with_value) + " '\n";
    out += "_aptus_with_file=' " + joined(with_file) + " '\n";
    for (auto& [command, options] : per_command) {
        for (const std::string& g : general) options.erase(g);  // offered once
        if (!options.empty()) out += "_aptus_options_" + variable(command) + "='" + joined(options) + "'\n";
    }
    for (const auto& [command, words] : kSubcommands)
        out += "_aptus_sub_" + variable(command) + "='" + words + "'\n";
    std::string packages;
    for (const std::string& c : kTakesPackages) packages += (packages.empty() ? "" : "|") + c;
    out += R"BASH(
_aptus() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= sub= i w
    COMPREPLY=()
    if [[ $_aptus_with_file == *" $prev "* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        return
    fi
    [[ $_aptus_with_value == *" $prev "* ]] && return
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == -* ]]; then
            [[ $_aptus_with_value == *" $w "* || $_aptus_with_file == *" $w "* ]] && ((i++))
            continue
        fi
        if [[ -z $cmd ]]; then cmd=$w; elif [[ -z $sub ]]; then sub=$w; fi
    done
    if [[ $cur == -* ]]; then
        local own=_aptus_options_${cmd//-/_}
        COMPREPLY=($(compgen -W "$_aptus_general ${!own}" -- "$cur"))
        return
    fi
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$_aptus_commands" -- "$cur"))
        return
    fi
    local subs=_aptus_sub_${cmd//-/_}
    if [[ -n ${!subs} && -z $sub ]]; then
        COMPREPLY=($(compgen -W "${!subs}" -- "$cur"))
        return
    fi
    case $cmd in
        )BASH" + packages + R"BASH()
            if [[ $cur == /* || $cur == ./* || $cur == ../* ]]; then
                COMPREPLY=($(compgen -f -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" pkgnames -o Aptus::Cache::NoBuild=1 -- "$cur" 2>/dev/null)" -- "$cur"))
            fi
            ;;
    esac
}
complete -F _aptus aptus
)BASH";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace aptus::cli
