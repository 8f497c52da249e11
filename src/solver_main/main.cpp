// aptus-solver: the EDSP solver as the separate program apt looks for in
// Dir::Bin::Solvers (installed as /usr/lib/apt/solvers/aptus). apt runs it
// with no arguments, the scenario on stdin and the answer read from stdout;
// it runs the very code of `aptus internal-solver`. `-o`/`-c` and a FILE
// argument are accepted for running it by hand.
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/config/init.hpp"
#include "cli/command.hpp"
#include "cli/commands/solver_cmd.hpp"
#include "cli/options.hpp"

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "");
    std::vector<std::string> args(argv + 1, argv + argc);
    aptus::Diagnostics diags;
    try {
        aptus::cli::ParsedArgs parsed = aptus::cli::parse_args(args, aptus::cli::general_options());
        aptus::config::LoadRequest request;
        request.binary = "aptus-solver";
        if (const char* env = std::getenv("APT_CONFIG")) request.apt_config = env;
        request.items = std::move(parsed.items);
        aptus::config::Config config = aptus::config::load(request, diags);
        aptus::cli::Context ctx{config, parsed.words, diags};
        int rc = aptus::cli::run_internal_solver(ctx);
        // stdout belongs to the protocol: anything else goes to stderr.
        for (const aptus::Diagnostic& d : diags)
            std::fprintf(stderr, "%s: %s\n", d.level == aptus::Level::Warning ? "W" : "N", d.message.c_str());
        return rc;
    } catch (const aptus::Error& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "E: %s\n", e.what());
        return 100;
    }
}
