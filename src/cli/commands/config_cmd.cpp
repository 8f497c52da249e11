// `config dump` and `config shell`, as apt-config's dump and shell.
#include "cli/commands/config_cmd.hpp"

#include <cstdio>

#include "aptus/base/error.hpp"
#include "aptus/config/dump.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec dump_table[] = {
    {0, "empty", "APT::Config::Dump::EmptyValue", ArgKind::Flag, "print empty values too (the default; --no-empty: skip them)"},
    {0, "format", "APT::Config::Dump::Format", ArgKind::Value, "the form of each line: %f the key, %v the value, %n a newline, %N a tab", "FORMAT"},
};

// Single quotes protect everything in a POSIX shell except a single quote.
std::string shell_quote(std::string_view value) {
    std::string out = "'";
    for (char c : value) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += '\'';
    return out;
}

}  // namespace

std::span<const OptionSpec> config_dump_options() { return dump_table; }

int run_config_dump(Context& ctx) {
    std::string format = ctx.config.find("APT::Config::Dump::Format", config::default_dump_format);
    bool empty = ctx.config.find_bool("APT::Config::Dump::EmptyValue", true);
    // apt-config dump KEY...: each key's subtree, in the order given.
    std::string out;
    if (ctx.args.empty()) out = config::dump(ctx.config, format, empty);
    for (const std::string& key : ctx.args) out += config::dump(ctx.config, format, empty, key);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

int run_config_shell(Context& ctx) {
    if (ctx.args.size() % 2 != 0) throw Error("Arguments not in pairs");
    std::string out;
    for (size_t i = 0; i < ctx.args.size(); i += 2) {
        const std::string& var = ctx.args[i];
        std::string key = ctx.args[i + 1];
        char type = 0;
        size_t slash = key.rfind('/');
        if (slash != std::string::npos && slash + 2 == key.size()) {
            type = key.back();
            if (type != 'f' && type != 'd' && type != 'b' && type != 'i') {
                // apt names the character before the slash here; we keep its words.
                char shown = slash > 0 ? key[slash - 1] : '/';
                ctx.diags.push_back({Level::Warning,
                                     std::string("Unrecognized type abbreviation: '") + shown + "'"});
                continue;
            }
            key.resize(slash);
        }
        if (!ctx.config.exists(key)) continue;
        std::string value;
        switch (type) {
            case 'f': value = ctx.config.find_file(key); break;
            case 'd': value = ctx.config.find_dir(key); break;
            case 'b': value = ctx.config.find_bool(key) ? "true" : "false"; break;
            case 'i': value = std::to_string(ctx.config.find_int(key)); break;
            default: value = ctx.config.find(key);
        }
        out += var + "=" + shell_quote(value) + "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace aptus::cli
