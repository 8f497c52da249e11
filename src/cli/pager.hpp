// The automatic pager of apt 3.0, for the read commands (show, policy, list,
// search, showsrc). A command prints its progress first, then starts the
// pager, then prints its content to stdout:
//
//     progress("Reading package lists... Done");
//     auto pager = Pager::start(ctx.config);   // null when not paging
//     print_content();
//     // leaving the scope (or an exception) closes the pipe and waits
//
// While the pager runs, stdin is /dev/null, stdout (and stderr, when it is a
// terminal) feed the pager, and SIGINT, SIGHUP, SIGTERM, SIGQUIT and SIGPIPE
// close the pipe, wait for the pager and then kill the program with the same
// signal. Only one pager runs at a time.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"

namespace aptus::cli {

// The command the environment names: APT_PAGER if set (even empty), else
// PAGER, else "pager". nullopt when it asks for none: empty, or "cat".
std::optional<std::string> pager_command(const char* apt_pager, const char* pager);

// True when `command` is more than a program name (arguments, a pipeline,
// quoting) and so has to run through /bin/sh -c.
bool pager_needs_shell(std::string_view command);

// `env` (a NULL-terminated environ) plus LESS, MORE and LV as apt sets them,
// each only where the user has not set it already.
std::vector<std::string> pager_environment(const char* const* env);

class Pager {
public:
    // Starts the pager when config "Pager" is true (the default), stdout is a
    // terminal and the environment names a pager. Returns null otherwise. If the
    // pager cannot be executed, prints apt's warning (or, with `diags`, adds
    // it there: apt shows it after the content) and returns null, so the
    // content goes straight to the terminal.
    static std::unique_ptr<Pager> start(const config::Config& config, Diagnostics* diags = nullptr);

    Pager(const Pager&) = delete;
    Pager& operator=(const Pager&) = delete;
    ~Pager();

    // Flushes, hands stdin/stdout/stderr back, waits for the pager to exit.
    // Idempotent. Returns the pager's wait status (-1 once finished).
    int finish();

private:
    Pager(pid_t pid, int saved_stdin, int saved_stdout, int saved_stderr);

    pid_t pid_;
    int saved_stdin_;
    int saved_stdout_;
    int saved_stderr_;  // -1: stderr was not a terminal and was left alone
};

}  // namespace aptus::cli
