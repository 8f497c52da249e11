#include "cli/commands/manual_cmd.hpp"

#include <cstdio>

#include "cli/help.hpp"

namespace aptus::cli {

int run_internal_manual(Context&) {
    std::fputs(manual_sections().c_str(), stdout);
    return 0;
}

}  // namespace aptus::cli
