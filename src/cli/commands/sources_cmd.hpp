// `sources` (the effective entries, text or JSON) and `indextargets` (as
// apt-get indextargets).
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

std::span<const OptionSpec> sources_options();
int run_sources(Context& ctx);

std::span<const OptionSpec> indextargets_options();
int run_indextargets(Context& ctx);

}  // namespace aptus::cli
