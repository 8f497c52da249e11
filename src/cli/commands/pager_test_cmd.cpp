#include "cli/commands/pager_test_cmd.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "aptus/base/error.hpp"
#include "cli/output.hpp"
#include "cli/pager.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {

int run_internal_pager_test(Context& ctx) {
    if (ctx.args.empty()) throw Error("internal-pager-test needs the number of lines");
    long lines = 0;
    try {
        lines = std::stol(ctx.args[0]);
    } catch (const std::exception&) {
        throw Error("internal-pager-test: not a number: " + ctx.args[0]);
    }
    bool to_stderr = false;
    bool hold = false;
    bool notice = false;
    for (size_t i = 1; i < ctx.args.size(); ++i) {
        if (ctx.args[i] == "stderr")
            to_stderr = true;
        else if (ctx.args[i] == "hold")
            hold = true;
        else if (ctx.args[i] == "notice")
            notice = true;
        else
            throw Error("internal-pager-test: unknown argument " + ctx.args[i]);
    }

    std::fputs("Reading package lists... Done\n", stderr);
    std::fputs("Sorting... Done\n", stderr);
    auto pager = Pager::start(ctx.config);
    if (to_stderr) std::fputs("stderr while paging\n", stderr);
    for (long i = 1; i <= lines; ++i) std::printf("line %ld\n", i);
    // A notice after the content, as show's "There is 1 additional record":
    // it goes through the pager, whatever the pager's command line.
    if (notice && effective_quiet(ctx.config) == 0) {
        ctx.diags.push_back({Level::Notice, "a notice after the content"});
        render(ctx.diags);
        ctx.diags.clear();
    }
    if (hold) {
        // Stay in the middle of paging until a signal ends the program.
        std::fflush(stdout);
        std::fflush(stderr);
        for (;;) pause();
    }
    return 0;
}

}  // namespace aptus::cli
