#include "cli/output.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "aptus/config/init.hpp"
#include "cli/help.hpp"
#include "cli/message.hpp"

namespace aptus::cli {

void render(const Diagnostics& diags) {
    for (const auto& d : diags)
        print_message(d.level == Level::Notice ? MessageLevel::Notice : MessageLevel::Warning, d.message);
}

void print_version(std::string_view program) { std::fputs(version_text(program).c_str(), stdout); }

void print_help(std::string_view program) { std::fputs(help_text(program).c_str(), stdout); }

}  // namespace aptus::cli
