// install, remove, purge, upgrade, full-upgrade (dist-upgrade) and
// autoremove: read the request, solve it on the whole system and show the
// plan (-s as apt-get -s, --json as data). Carrying it out is issue 7.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> install_options();
int run_install(Context& ctx);
int run_remove(Context& ctx);
int run_purge(Context& ctx);
int run_upgrade(Context& ctx);
int run_full_upgrade(Context& ctx);
int run_autoremove(Context& ctx);

}  // namespace aptus::cli
