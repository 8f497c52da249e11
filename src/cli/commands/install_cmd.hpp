// install, remove, purge, upgrade, full-upgrade (dist-upgrade) and
// autoremove: read the request, solve it on the whole system, show the plan
// (-s as apt-get -s, --json as data) and, once confirmed, carry it out
// (plan_execute.hpp) under the dpkg lock.
#pragma once

#include <span>

#include "aptus/install/history_target.hpp"
#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> install_options();
int run_install(Context& ctx);
// install of a target state (install/history_target.hpp: history undo,
// redo, rollback): its goal instead of ctx.args, planned, shown, confirmed
// and carried out as install's.
int run_install_target(Context& ctx, const install::TargetState& target);
int run_reinstall(Context& ctx);
int run_remove(Context& ctx);
int run_purge(Context& ctx);
int run_upgrade(Context& ctx);
int run_full_upgrade(Context& ctx);
int run_dselect_upgrade(Context& ctx);
// apt-get satisfy: relation lists ("foo (>= 1) [amd64]", "Conflicts: bar") met.
int run_satisfy(Context& ctx);
// apt-get build-dep: the build relations of source packages, .dsc files or source trees met.
int run_build_dep(Context& ctx);
int run_autoremove(Context& ctx);
int run_autopurge(Context& ctx);  // autoremove --purge (apt's autopurge)

}  // namespace aptus::cli
