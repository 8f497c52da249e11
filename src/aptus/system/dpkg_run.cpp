#include "aptus/system/dpkg_run.hpp"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/system/dpkg_pty.hpp"
#include "aptus/system/dpkg_run_detail.hpp"

extern char** environ;

namespace aptus::system {

namespace detail {

namespace {

// A descriptor moved above the range the child's are mapped to, so the
// child's dup2 steps can never overwrite one they still need.
// -1 when `fd` is not open (a closed stdin stays closed in the child).
int high_copy(int fd) {
    int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 16);
    if (copy < 0 && errno != EBADF) throw system_error("fcntl", "F_DUPFD_CLOEXEC", errno);
    return copy;
}

}  // namespace

int spawn_process(const std::vector<std::string>& argv, const SpawnSetup& setup) {
    // Everything the child needs is built before the spawn: only the
    // spawn's own file actions run between fork and exec.
    std::vector<std::string> env_strings;
    auto overridden = [&](std::string_view entry, const auto& list) {
        for (const auto& [k, v] : list)
            if (entry.size() > k.size() && entry.compare(0, k.size(), k) == 0 && entry[k.size()] == '=') return true;
        return false;
    };
    for (char** e = environ; e != nullptr && *e != nullptr; ++e)
        if (!overridden(*e, setup.env)) env_strings.emplace_back(*e);
    for (const auto& [k, v] : setup.env) env_strings.push_back(k + "=" + v);
    for (const auto& [k, v] : setup.env_default)
        if (::getenv(k.c_str()) == nullptr && !overridden(k + "=", setup.env)) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    std::vector<int> copies;
    int highest = STDERR_FILENO;
    for (const auto& [ours, theirs] : setup.fds) {
        int copy = high_copy(ours);
        if (copy < 0) continue;
        copies.push_back(copy);
        ::posix_spawn_file_actions_adddup2(&actions, copy, theirs);
        highest = std::max(highest, theirs);
    }
    if (!setup.terminal.empty() && !setup.terminal_fds.empty()) {
        // No O_NOCTTY: a session leader's first terminal becomes its own.
        ::posix_spawn_file_actions_addopen(&actions, setup.terminal_fds[0], setup.terminal.c_str(), O_RDWR, 0);
        for (size_t i = 1; i < setup.terminal_fds.size(); ++i)
            ::posix_spawn_file_actions_adddup2(&actions, setup.terminal_fds[0], setup.terminal_fds[i]);
        for (int fd : setup.terminal_fds) highest = std::max(highest, fd);
    }
    ::posix_spawn_file_actions_addclosefrom_np(&actions, highest + 1);
    if (!setup.directory.empty()) ::posix_spawn_file_actions_addchdir_np(&actions, setup.directory.c_str());

    posix_spawnattr_t attr;
    ::posix_spawnattr_init(&attr);
    sigset_t all, none;
    ::sigfillset(&all);
    ::sigemptyset(&none);
    ::posix_spawnattr_setsigdefault(&attr, &all);
    ::posix_spawnattr_setsigmask(&attr, &none);
    short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
    if (setup.new_session) flags |= POSIX_SPAWN_SETSID;
    ::posix_spawnattr_setflags(&attr, flags);

    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), envp.data());
    ::posix_spawnattr_destroy(&attr);
    ::posix_spawn_file_actions_destroy(&actions);
    for (int c : copies) ::close(c);
    if (rc != 0) throw system_error("Could not execute", argv[0], rc);
    return pid;
}

int wait_process(int pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw system_error("waitpid", std::to_string(pid), errno);
    }
    return status;
}

}  // namespace detail

namespace {

using detail::DpkgInstalled;

// One dpkg invocation: the arguments after the base command and the
// operations it covers.
struct DpkgCall {
    std::vector<std::string> args;
    bool unpack_or_remove = false;  // skipped once the user interrupted
};

std::vector<std::string> base_command(const config::Config& config) {
    std::vector<std::string> base{config.find("Dir::Bin::dpkg", "dpkg")};
    for (auto& [name, value] : config.children("DPkg::Options"))
        if (!value.empty()) base.push_back(value);
    return base;
}

size_t environment_size() {
    size_t n = 0;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) n += std::strlen(*e) + 1;
    return n;
}

// apt's Dpkg::MaxArgBytes default: what the kernel allows for arguments
// once our environment (which dpkg inherits) is counted, less 2 KiB.
size_t max_arg_bytes(const config::Config& config) {
    long os = ::sysconf(_SC_ARG_MAX);
    if (os < 0) os = 32 * 1024;
    long fallback = os - static_cast<long>(environment_size()) - 2 * 1024;
    long configured = config.find_int("Dpkg::MaxArgBytes", fallback);
    return configured > 0 ? static_cast<size_t>(configured) : 4096;
}

std::vector<DpkgCall> plan_calls(const config::Config& config, const std::vector<DpkgOperation>& ops) {
    std::vector<DpkgCall> calls;
    if (ops.empty()) return calls;
    const auto base = base_command(config);
    size_t base_size = std::string_view("--status-fd").size() + 2;
    for (const auto& a : base) base_size += a.size();
    const size_t max_bytes = max_arg_bytes(config);
    // Triggers wait for the final --configure --pending, as in apt: each
    // is then run once, not after every call that activates it.
    const bool no_triggers = config.find_bool("DPkg::NoTriggers", true);

    for (size_t i = 0; i < ops.size();) {
        size_t j = i;
        while (j < ops.size() && ops[j].action == ops[i].action) ++j;
        const DpkgAction action = ops[i].action;
        std::vector<std::string> fixed;
        if (no_triggers) fixed.push_back("--no-triggers");
        switch (action) {
            case DpkgAction::Unpack:
                // dpkg may deconfigure a package whose Breaks the unpack would
                // violate; the ordering has planned for it (apt does the same).
                fixed.insert(fixed.end(), {"--unpack", "--auto-deconfigure"});
                break;
            case DpkgAction::Configure: fixed.push_back("--configure"); break;
            case DpkgAction::Remove:
            case DpkgAction::Purge:
                // The order removes a package only when nothing configured
                // still needs it, but dpkg checks against the state before
                // the whole plan: apt forces depends for removals too.
                fixed.push_back("--force-depends");
                if (std::any_of(ops.begin() + i, ops.begin() + j, [](const auto& op) { return op.essential; }))
                    fixed.push_back("--force-remove-essential");
                fixed.push_back(action == DpkgAction::Remove ? "--remove" : "--purge");
                break;
        }
        size_t fixed_size = base_size;
        for (const auto& f : fixed) fixed_size += f.size();
        while (i < j) {
            DpkgCall call;
            call.args = fixed;
            call.unpack_or_remove = action != DpkgAction::Configure;
            size_t size = fixed_size;
            // At least one item per call, then as many as fit.
            do {
                const auto& op = ops[i];
                if (action == DpkgAction::Unpack) {
                    if (op.archive.empty() || op.archive[0] != '/')
                        throw Error("Internal Error, Pathname to install is not absolute '" + op.archive + "'");
                    call.args.push_back(op.archive);
                } else {
                    call.args.push_back(op.package);
                }
                size += call.args.back().size();
                ++i;
            } while (i < j && size < max_bytes);
            calls.push_back(std::move(call));
        }
    }
    if (config.find_bool("DPkg::ConfigurePending", true)) calls.push_back({{"--configure", "--pending"}, false});
    return calls;
}

}  // namespace

namespace detail {

int open_term_log(const std::string& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (fd < 0) return -1;
    // On the descriptor, not the name: the file we write is the one we set.
    // apt asks for the real uid too (a set-uid caller would not own it).
    if (::getuid() == 0) {
        const struct passwd* root = ::getpwnam("root");
        const struct group* adm = ::getgrnam("adm");
        if (root && adm) (void)::fchown(fd, root->pw_uid, adm->gr_gid);
    }
    ::fchmod(fd, 0640);
    return fd;
}

}  // namespace detail

namespace {

// term.log: dpkg's output of the run between apt's "Log started" and
// "Log ended" lines. A log that cannot be written is skipped, as apt goes
// on without it.
class TermLog {
public:
    explicit TermLog(const config::Config& config) {
        std::string path = config.find_file("Dir::Log::Terminal", "/dev/null");
        if (path.empty() || path == "/dev/null") return;
        auto slash = path.rfind('/');
        if (slash != std::string::npos && slash > 0) ::mkdir(path.substr(0, slash).c_str(), 0755);
        fd_ = detail::open_term_log(path);
        if (fd_ < 0) return;
        write("\nLog started: " + now() + "\n");
    }
    ~TermLog() {
        if (fd_ < 0) return;
        write("Log ended: " + now() + "\n");
        ::close(fd_);
    }
    TermLog(const TermLog&) = delete;
    TermLog& operator=(const TermLog&) = delete;

    void write(std::string_view bytes) {
        while (fd_ >= 0 && !bytes.empty()) {
            ssize_t n = ::write(fd_, bytes.data(), bytes.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            bytes.remove_prefix(static_cast<size_t>(n));
        }
    }

private:
    static std::string now() {
        time_t t = ::time(nullptr);
        struct tm tm {};
        ::localtime_r(&t, &tm);
        char buf[64];
        ::strftime(buf, sizeof buf, "%F  %T", &tm);
        return buf;
    }
    int fd_ = -1;
};

volatile sig_atomic_t interrupted = 0;
extern "C" void note_interrupt(int) { interrupted = 1; }

// While dpkg works, ^C and SIGTERM only note that the user wants to stop
// (the run ends before the next unpack or removal), SIGQUIT and SIGHUP are
// ignored: a dpkg killed half-way leaves packages half-installed, and dpkg
// itself, in its own session, never sees the terminal's signals.
class SignalGuard {
public:
    SignalGuard() {
        interrupted = 0;
        struct sigaction note {};
        note.sa_handler = note_interrupt;
        ::sigemptyset(&note.sa_mask);
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGINT, &note, &old_int_);
        ::sigaction(SIGTERM, &note, &old_term_);
        ::sigaction(SIGQUIT, &ign, &old_quit_);
        ::sigaction(SIGHUP, &ign, &old_hup_);
    }
    ~SignalGuard() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
        ::sigaction(SIGQUIT, &old_quit_, nullptr);
        ::sigaction(SIGHUP, &old_hup_, nullptr);
    }
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

private:
    struct sigaction old_int_ {}, old_term_ {}, old_quit_ {}, old_hup_ {};
};

void write_stdout(std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t n = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        bytes.remove_prefix(static_cast<size_t>(n));
    }
}

// dpkg's output to the observer (or our stdout) and to term.log.
void pass_output(std::string_view bytes, const DpkgObserver& observer, TermLog& log) {
    if (observer.output)
        observer.output(bytes);
    else
        write_stdout(bytes);
    log.write(bytes);
}

// One dpkg call: its output to the observer (or our stdout) and term.log,
// its --status-fd lines to the tracker. Returns the wait status. With
// `use_pty` dpkg's stdout and stderr (and stdin, when ours is a terminal)
// are a pty of its own whose master we read, our terminal is raw and
// what the user types goes to dpkg; without one, or when no pty can be
// had, its output comes through a pipe and its stdin is ours.
int run_one(const std::vector<std::string>& argv, const detail::SpawnSetup& base_setup,
            detail::DpkgStatusTracker& tracker, const DpkgObserver& observer, TermLog& log, bool use_pty) {
    std::unique_ptr<detail::DpkgPty> pty;
    if (use_pty) pty = detail::DpkgPty::open(observer.reserved_rows);
    int out_pipe[2] = {-1, -1}, status_pipe[2];
    if (!pty && ::pipe2(out_pipe, O_CLOEXEC) != 0) throw system_error("pipe", "dpkg output", errno);
    if (::pipe2(status_pipe, O_CLOEXEC) != 0) {
        for (int fd : out_pipe)
            if (fd >= 0) ::close(fd);
        throw system_error("pipe", "dpkg status", errno);
    }
    detail::SpawnSetup setup = base_setup;
    const bool stdin_is_terminal = ::isatty(STDIN_FILENO) == 1;
    if (pty) {
        setup.terminal = pty->slave_path();
        // As apt: a stdin that is no terminal (a pipe, a file) stays dpkg's.
        if (stdin_is_terminal) {
            setup.terminal_fds = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO};
            setup.fds = {{status_pipe[1], 3}};
        } else {
            setup.terminal_fds = {STDOUT_FILENO, STDERR_FILENO};
            setup.fds = {{STDIN_FILENO, STDIN_FILENO}, {status_pipe[1], 3}};
        }
    } else {
        setup.fds = {{STDIN_FILENO, STDIN_FILENO}, {out_pipe[1], STDOUT_FILENO}, {out_pipe[1], STDERR_FILENO},
                     {status_pipe[1], 3}};
    }
    std::fflush(stdout);
    std::fflush(stderr);
    int pid;
    try {
        pid = detail::spawn_process(argv, setup);
    } catch (...) {
        for (int fd : {out_pipe[0], out_pipe[1], status_pipe[0], status_pipe[1]})
            if (fd >= 0) ::close(fd);
        throw;
    }
    if (pty)
        pty->close_slave();
    else
        ::close(out_pipe[1]);
    ::close(status_pipe[1]);
    const int output_fd = pty ? pty->master() : out_pipe[0];

    std::optional<detail::RawTerminal> raw;
    std::optional<detail::WindowChangeWatch> window;
    if (pty) {
        if (stdin_is_terminal) raw.emplace();
        window.emplace();
    }
    std::string keys;  // typed, not yet taken by the pty

    std::string status_buf;
    char buf[4096];
    struct pollfd fds[3] = {{output_fd, POLLIN, 0},
                            {status_pipe[0], POLLIN, 0},
                            {raw && raw->active() ? STDIN_FILENO : -1, POLLIN, 0}};
    int open_fds = 2;
    int wait_status = 0;
    bool exited = false;
    while (open_fds > 0) {
        // Keys typed once dpkg is gone are for the shell.
        if (exited) fds[2].fd = -1;
        if (fds[0].fd >= 0) fds[0].events = static_cast<short>(POLLIN | (keys.empty() ? 0 : POLLOUT));
        int r = ::poll(fds, 3, exited ? 0 : 200);
        if (window && window->take()) pty->update_size();
        if (r < 0 && errno != EINTR) break;
        if (!exited) {
            pid_t w = ::waitpid(pid, &wait_status, WNOHANG);
            if (w == pid) exited = true;
        }
        if (r <= 0) {
            // A daemon a maintainer script started may keep dpkg's output
            // open for ever: once dpkg is gone and nothing is left to read,
            // stop listening.
            if (exited) break;
            continue;
        }
        if (fds[2].fd >= 0 && fds[2].revents != 0) {
            ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
            if (n > 0)
                keys.append(buf, static_cast<size_t>(n));
            else if (n == 0 || (errno != EINTR && errno != EAGAIN))
                fds[2].fd = -1;  // our terminal hung up: nothing more to pass on
        }
        if (fds[0].fd >= 0 && !keys.empty() && (fds[0].revents & POLLOUT) != 0) {
            ssize_t n = ::write(fds[0].fd, keys.data(), keys.size());
            if (n > 0) keys.erase(0, static_cast<size_t>(n));
        }
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            ssize_t n = ::read(fds[k].fd, buf, sizeof buf);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n <= 0) {
                // EOF of a pipe; EIO of a pty master once the last holder
                // of the slave has closed it.
                if (k != 0 || !pty) ::close(fds[k].fd);
                fds[k].fd = -1;
                --open_fds;
                continue;
            }
            std::string_view bytes(buf, static_cast<size_t>(n));
            if (k == 0) {
                pass_output(bytes, observer, log);
            } else {
                status_buf.append(bytes);
                size_t start = 0;
                for (size_t nl; (nl = status_buf.find('\n', start)) != std::string::npos; start = nl + 1) {
                    auto upd = tracker.line(std::string_view(status_buf).substr(start, nl - start));
                    if (upd && observer.progress) observer.progress(upd->percent, upd->text);
                }
                status_buf.erase(0, start);
            }
        }
    }
    for (int k = 0; k < 2; ++k)
        if (fds[k].fd >= 0 && (k != 0 || !pty)) ::close(fds[k].fd);
    if (!exited) wait_status = detail::wait_process(pid);
    return wait_status;
}

}  // namespace

std::vector<std::vector<std::string>> dpkg_command_lines(const config::Config& config,
                                                         const std::vector<DpkgOperation>& ops) {
    std::vector<std::vector<std::string>> out;
    const auto base = base_command(config);
    for (auto& call : plan_calls(config, ops)) {
        auto argv = base;
        argv.insert(argv.end(), call.args.begin(), call.args.end());
        out.push_back(std::move(argv));
    }
    return out;
}

void run_dpkg(const config::Config& config, const std::vector<DpkgOperation>& ops, const DpkgObserver& observer,
              DpkgLock* lock) {
    if (ops.empty()) return;
    const auto calls = plan_calls(config, ops);
    const auto base = base_command(config);
    const auto installed = detail::read_dpkg_status(config.find_file("Dir::State::status"));
    const bool frontend_locked = lock != nullptr && lock->holds_frontend();

    detail::run_invoke_hooks(config, "DPkg::Pre-Invoke");
    detail::run_pre_install_hooks(config, ops, installed, frontend_locked);

    detail::SpawnSetup setup;
    setup.new_session = true;
    setup.directory = config.find_dir("DPkg::Run-Directory", "/");
    if (frontend_locked) setup.env.push_back({"DPKG_FRONTEND_LOCKED", "true"});
    if (auto path = config.find("DPkg::Path"); !path.empty()) setup.env.push_back({"PATH", path});
    // dpkg colours as we do, unless the user told dpkg otherwise.
    setup.env_default.push_back({"DPKG_COLORS", config.find_bool("APT::Color", false) ? "always" : "never"});

    // As apt (Dpkg::Use-Pty): dpkg gets a terminal of its own when ours is one.
    const bool use_pty = ::isatty(STDOUT_FILENO) == 1 && config.find_bool("Dpkg::Use-Pty", true);

    detail::DpkgStatusTracker tracker(ops, installed);
    std::string failure;
    bool stopped = false;
    {
        TermLog log(config);
        SignalGuard signals;
        for (const auto& call : calls) {
            if (interrupted && call.unpack_or_remove) {
                stopped = true;
                break;
            }
            auto argv = base;
            argv.push_back("--status-fd");
            argv.push_back("3");
            argv.insert(argv.end(), call.args.begin(), call.args.end());
            if (lock != nullptr) lock->release_inner();
            int status;
            try {
                status = run_one(argv, setup, tracker, observer, log, use_pty);
            } catch (...) {
                if (lock != nullptr) lock->reacquire_inner();
                throw;
            }
            if (lock != nullptr) lock->reacquire_inner();
            failure = detail::subprocess_failure(base[0], status);
            if (!failure.empty()) {
                // For dpkg apt names no signal but a segmentation fault.
                if (WIFSIGNALED(status) && WTERMSIG(status) != SIGSEGV)
                    failure = "Sub-process " + base[0] + " exited unexpectedly";
                break;
            }
        }
    }
    std::string hook_failure;
    try {
        detail::run_invoke_hooks(config, "DPkg::Post-Invoke");
    } catch (const Error& e) {
        hook_failure = e.what();
    }
    if (!failure.empty()) throw Error(hook_failure.empty() ? failure : failure + "\nE: " + hook_failure, ErrorKind::Dpkg);
    if (!hook_failure.empty()) throw Error(hook_failure, ErrorKind::Dpkg);
    if (stopped) throw Error("Operation was interrupted before it could finish", ErrorKind::Dpkg);
}

}  // namespace aptus::system
