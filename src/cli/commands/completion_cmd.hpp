// `aptus completion bash`: bash's completion for aptus, made from the same
// table of commands and options that parses the command line, so it never
// offers what aptus would refuse. Package names come from the cache file as
// it is (`pkgnames` with Aptus::Cache::NoBuild): a TAB never builds a cache.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_completion(Context& ctx);

}  // namespace aptus::cli
