#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> config_dump_options();
int run_config_dump(Context& ctx);
int run_config_shell(Context& ctx);

}  // namespace aptus::cli
