// `aptus source WORD...`: fetch and unpack source packages, as apt-get source.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_source(Context& ctx);

}  // namespace aptus::cli
