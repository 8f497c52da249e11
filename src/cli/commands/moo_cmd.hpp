// `apt-get moo` / `apt moo`: a cow of aptus's own and the day's message;
// -qq and more: the message alone.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_moo(Context& ctx);

}  // namespace aptus::cli
