#include "cli/pager.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/terminal.hpp"
#include "cli/message.hpp"

extern char** environ;

namespace aptus::cli {
namespace {

// What apt 3.0 builds in (PAGER_ENV): less quits when the text fits one
// screen (F), keeps colours (R), chops long lines (S), leaves the screen as it
// is (X), shows the long prompt (M) and quits on ^C (K).
constexpr std::string_view pager_defaults[] = {"LESS=FRSXMK", "MORE=FRX", "LV=-c"};

constexpr int caught_signals[] = {SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE};
struct sigaction previous_actions[std::size(caught_signals)];

// Read by the signal handler, so it is a lock-free atomic rather than a member.
std::atomic<pid_t> running_pager{-1};
static_assert(std::atomic<pid_t>::is_always_lock_free);

extern "C" void on_fatal_signal(int sig) {
    // Only async-signal-safe calls: close our ends so the pager sees the end
    // of its input, let it finish showing what it has, then die as asked.
    close(STDOUT_FILENO);
    close(STDERR_FILENO);
    pid_t pid = running_pager.load();
    if (pid > 0)
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
    // Blocked while this handler runs; delivered, with the default action, on return.
    raise(sig);
}

void install_handlers() {
    struct sigaction action {};
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    for (int sig : caught_signals) sigaddset(&action.sa_mask, sig);
    for (size_t i = 0; i < std::size(caught_signals); ++i) sigaction(caught_signals[i], &action, &previous_actions[i]);
}

void restore_handlers() {
    for (size_t i = 0; i < std::size(caught_signals); ++i) sigaction(caught_signals[i], &previous_actions[i], nullptr);
}

// Printed at once, not collected with the command's diagnostics: it belongs
// above the content that follows. Same form as render() in output.cpp, which
// this file does not link so unit_cli can build it alone.
void warn(const char* what, int err, Diagnostics* diags) {
    std::string text = std::string(what) + " - PagerSetup (" + std::to_string(err) + ": " + std::strerror(err) + ")";
    if (diags) {
        diags->push_back({Level::Warning, std::move(text)});
        return;
    }
    std::fflush(stdout);
    print_message(MessageLevel::Warning, text);
}

// Runs in the forked child: between fork and exec only async-signal-safe
// calls, so everything it needs was prepared by the parent.
[[noreturn]] void exec_pager(int input, int report, const char* file, char* const* argv, char* const* envp) {
    // The pager must see the terminal's ^C and window changes as a freshly
    // started program would, whatever aptus (or its parent) ignored or blocked.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);

    // Its messages belong on the screen, not wherever aptus's stderr went.
    if (dup2(input, STDIN_FILENO) < 0 || dup2(STDOUT_FILENO, STDERR_FILENO) < 0) {
        int err = errno;
        (void)!write(report, &err, sizeof err);
        _exit(128);
    }
    execvpe(file, argv, envp);
    // `report` is close-on-exec: the parent reads EOF on success, errno here.
    int err = errno;
    (void)!write(report, &err, sizeof err);
    _exit(128);
}

void flush_all() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
}

}  // namespace

std::optional<std::string> pager_command(const char* apt_pager, const char* pager) {
    const char* chosen = apt_pager ? apt_pager : pager ? pager : "pager";
    std::string_view command(chosen);
    if (command.empty() || command == "cat") return std::nullopt;
    return std::string(command);
}

bool pager_needs_shell(std::string_view command) {
    for (char c : command) {
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     std::string_view("+-._=/").find(c) != std::string_view::npos;
        if (!plain) return true;
    }
    return false;
}

std::vector<std::string> pager_environment(const char* const* env) {
    std::vector<std::string> out;
    for (; env && *env; ++env) out.emplace_back(*env);
    for (std::string_view def : pager_defaults) {
        std::string_view name = def.substr(0, def.find('=') + 1);
        bool set = false;
        for (const auto& entry : out) set = set || std::string_view(entry).starts_with(name);
        if (!set) out.emplace_back(def);
    }
    return out;
}

std::unique_ptr<Pager> Pager::start(const config::Config& config, Diagnostics* diags) {
    if (running_pager.load() > 0) return nullptr;
    if (!config.find_bool("Pager", true) || !is_terminal(STDOUT_FILENO)) return nullptr;
    std::optional<std::string> command = pager_command(std::getenv("APT_PAGER"), std::getenv("PAGER"));
    if (!command) return nullptr;

    std::vector<std::string> args;
    if (pager_needs_shell(*command))
        args = {"/bin/sh", "-c", *command};
    else
        args = {*command};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env = pager_environment(environ);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);

    // Progress printed so far stays above the pager, on the terminal.
    flush_all();

    int data[2];
    int report[2];
    if (pipe2(data, O_CLOEXEC) < 0) {
        warn("Failed to setup pipe", errno, diags);
        return nullptr;
    }
    if (pipe2(report, O_CLOEXEC) < 0) {
        warn("Failed to setup pipe", errno, diags);
        close(data[0]);
        close(data[1]);
        return nullptr;
    }
    pid_t pid = fork();
    if (pid == 0) exec_pager(data[0], report[1], argv[0], argv.data(), envp.data());
    int fork_errno = errno;
    close(data[0]);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        close(data[1]);
        warn("Failed to fork", fork_errno, diags);
        return nullptr;
    }

    int exec_errno = 0;
    ssize_t got;
    while ((got = read(report[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
    }
    close(report[0]);
    if (got > 0) {
        close(data[1]);
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        warn("Could not execute pager", exec_errno, diags);
        return nullptr;
    }

    // From here on the pager owns the terminal: aptus must not read keys the
    // user types for it, and everything aptus writes goes through it.
    int saved_stdin = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    int saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    int saved_stderr = is_terminal(STDERR_FILENO) ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) : -1;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);
        close(devnull);
    }
    // Handlers first: a signal after the switch must still wait for the pager.
    running_pager.store(pid);
    install_handlers();
    dup2(data[1], STDOUT_FILENO);
    if (saved_stderr >= 0) dup2(data[1], STDERR_FILENO);
    close(data[1]);
    remember_screen(saved_stdout);
    return std::unique_ptr<Pager>(new Pager(pid, saved_stdin, saved_stdout, saved_stderr));
}

Pager::Pager(pid_t pid, int saved_stdin, int saved_stdout, int saved_stderr)
    : pid_(pid), saved_stdin_(saved_stdin), saved_stdout_(saved_stdout), saved_stderr_(saved_stderr) {}

Pager::~Pager() { finish(); }

int Pager::finish() {
    if (pid_ < 0) return -1;
    flush_all();
    // A pager that quit early leaves EPIPE behind (when SIGPIPE did not end us):
    // drop what it did not take rather than spill it onto the terminal later.
    if (std::ferror(stdout)) __fpurge(stdout);
    if (std::ferror(stderr)) __fpurge(stderr);
    std::clearerr(stdout);
    std::clearerr(stderr);
    std::cout.clear();
    std::cerr.clear();

    // Putting the terminal back on stdout/stderr closes the last write end of
    // the pipe: the pager sees the end of its input.
    if (saved_stdout_ >= 0) dup2(saved_stdout_, STDOUT_FILENO);
    if (saved_stderr_ >= 0) dup2(saved_stderr_, STDERR_FILENO);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    if (saved_stdin_ >= 0) dup2(saved_stdin_, STDIN_FILENO);
    for (int fd : {saved_stdin_, saved_stdout_, saved_stderr_})
        if (fd >= 0) close(fd);
    remember_screen(-1);
    restore_handlers();
    running_pager.store(-1);
    pid_ = -1;
    return status;
}

}  // namespace aptus::cli
