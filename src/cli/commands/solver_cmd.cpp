#include "cli/commands/solver_cmd.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/edsp/edsp.hpp"
#include "aptus/system/installed_system.hpp"

namespace aptus::cli {
namespace {

// stdin piece by piece, for read_edsp(): the scenario is never held whole.
size_t read_stdin(char* buffer, size_t size) {
    for (;;) {
        const ssize_t n = ::read(0, buffer, size);
        if (n >= 0) return size_t(n);
        if (errno != EINTR) throw system_error("read", "<stdin>", errno);
    }
}

void emit(const std::string& s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
}

}  // namespace

int run_internal_solver(Context& ctx) {
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    emit(edsp::format_edsp_progress(0, "Start up solver..."));
    std::string name = ctx.args.empty() ? "<stdin>" : ctx.args[0];
    edsp::Scenario sc;
    try {
        sc = ctx.args.empty() ? edsp::read_edsp(read_stdin, name) : edsp::read_edsp(read_decompressed(ctx.args[0]), name);
    } catch (const Error& e) {
        // EDSP wants errors as an answer, not as a crash.
        emit(edsp::format_edsp_error("ERR_READ_ERROR", e.what()));
        return 0;
    }
    // What a scenario cannot say comes from the configuration, as apt's own solver does.
    system::apply_solver_settings(ctx.config, sc.request);
    auto t1 = clock::now();
    emit(edsp::format_edsp_progress(50, "Solve the request..."));
    solver::Solution s;
    try {
        s = solver::solve(sc.universe, sc.request);
    } catch (const Error& e) {
        emit(edsp::format_edsp_error("ERR_READ_ERROR", e.what()));
        return 0;
    }
    auto t2 = clock::now();
    if (s.solved)
        emit(edsp::format_edsp_solution(sc.universe, s, ctx.config.find_bool("Debug::aptus::Solver::Verbose", false)));
    else
        emit(edsp::format_edsp_error(s.error_id, s.message));
    emit(edsp::format_edsp_progress(100, "Done"));
    if (ctx.config.find_bool("Debug::aptus::Solver", false)) {
        auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
        std::fprintf(stderr,
                     "aptus-solver: read %.1f ms, solve %.1f ms; %u variables, %u clauses, %llu decisions, %llu conflicts, "
                     "%llu learnt; install %zu, remove %zu, autoremove %zu\n",
                     ms(t1 - t0), ms(t2 - t1), s.stats.variables, s.stats.clauses,
                     (unsigned long long)s.stats.decisions, (unsigned long long)s.stats.conflicts,
                     (unsigned long long)s.stats.learnt, s.install.size(), s.remove.size(), s.autoremove.size());
    }
    return 0;
}

}  // namespace aptus::cli
