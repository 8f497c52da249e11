#include "aptus/config/init.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/config/parser.hpp"

namespace aptus::config {

void read_system_config(Config& config, const std::optional<std::string>& apt_config, Diagnostics& diags) {
    if (apt_config && !apt_config->empty()) read_config_file(config, *apt_config, diags);
    std::string parts = config.find_dir("Dir::Etc::parts", "/dev/null");
    if (is_directory(parts)) read_config_dir(config, parts, diags);
    std::string main = config.find_file("Dir::Etc::main", "/dev/null");
    if (path_exists(main) && !is_directory(main) && main != "/dev/null") read_config_file(config, main, diags);
}

void apply_command_line(Config& config, const std::vector<CommandLineItem>& items, Diagnostics& diags) {
    for (const auto& item : items) {
        switch (item.kind) {
            case CommandLineItem::Kind::Set: config.set(item.key, item.value); break;
            case CommandLineItem::Kind::File: read_config_file(config, item.value, diags); break;
            case CommandLineItem::Kind::Increment:
                config.set(item.key, std::to_string(config.find_int(item.key) + 1));
                break;
        }
    }
}

namespace {

// aptus stands in for `apt`, so what a user wrote for apt in apt's own scope
// (Binary::apt::Pager "false";) applies to aptus too, the way apt applies it:
// over the root value, under the command line and under Binary::aptus. Only
// keys aptus acts on are taken, so `config dump` still prints what
// apt-config prints.
constexpr const char* apt_scope_keys[] = {"Pager"};

void apply_apt_scope(Config& config) {
    for (const char* key : apt_scope_keys) {
        std::string scoped = std::string("Binary::apt::") + key;
        if (config.exists(scoped)) config.set(key, config.find(scoped));
    }
}

}  // namespace

Config load(const LoadRequest& request, Diagnostics& diags) {
    Config config;
    set_builtin_defaults(config);
    if (request.root) config.set("Dir", *request.root);
    read_system_config(config, request.apt_config, diags);
    if (request.binary == "aptus") apply_apt_scope(config);
    apply_binary(config, request.binary);
    apply_command_line(config, request.items, diags);
    set_derived_defaults(config);
    config.set("CommandLine::AsString", request.command_line);
    return config;
}

}  // namespace aptus::config
