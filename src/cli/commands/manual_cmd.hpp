// `aptus internal-manual`: the COMMANDS and OPTIONS sections of aptus(8),
// in scdoc's syntax, from the command table; the build puts them into
// docs/man/aptus.8.scd.in and renders the page with scdoc.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_internal_manual(Context& ctx);

}  // namespace aptus::cli
