// `aptus check`, as apt-get check: the installed system's broken
// dependencies in apt's report, exit 100 when there are any.
#pragma once

#include <vector>

#include "aptus/system/broken_installed.hpp"
#include "cli/command.hpp"

namespace aptus::cli {

// --json: the broken packages as data (exit status as without).
std::span<const OptionSpec> check_options();
int run_check(Context& ctx);

// apt's answer when what is broken stays broken: the advice, the report of
// broken packages, the error; returns the exit status (100).
int refuse_unmet(const config::Config& config, const std::vector<system::BrokenPackage>& broken);

// apt-get's words on stdout when its solver cannot meet a request ("Some
// packages could not be installed. ...") and the report of what its
// marking left broken; the caller prints the error.
void print_unsatisfiable(const std::vector<system::BrokenPackage>& broken);

}  // namespace aptus::cli
