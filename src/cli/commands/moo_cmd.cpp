#include "cli/commands/moo_cmd.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "cli/moo.hpp"
#include "cli/plan_view.hpp"

namespace aptus::cli {

int run_moo(Context& ctx) {
    std::time_t when = std::time(nullptr);
    if (const char* env = std::getenv("SOURCE_DATE_EPOCH")) {
        if (auto parsed = parse_source_date_epoch(env))
            when = *parsed;
        else
            ctx.diags.push_back({Level::Warning, "Environment variable SOURCE_DATE_EPOCH was ignored as it has an "
                                                 "invalid value: \"" + std::string(env) + "\""});
    }
    plan_screen_width(&ctx.diags);  // an invalid $COLUMNS is reported here too, as apt does
    std::string message(moo_message(when));
    if (ctx.config.find_int("quiet") >= 2) {
        std::printf("%s\n", message.c_str());
        return 0;
    }
    // Every extra "moo" makes the cow say it once more.
    std::string says = "moo";
    for (const std::string& word : ctx.args)
        if (word == "moo") says += " moo";
    std::printf("      ____\n"
                "     /    \\__    < %s >\n"
                "    ( o  o    )\n"
                "     \\  ww   /__\n"
                "      |  ___    \\\n"
                "      |_|   |_|_|\n"
                "\"%s\"\n",
                says.c_str(), message.c_str());
    return 0;
}

}  // namespace aptus::cli
