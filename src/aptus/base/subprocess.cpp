#include "aptus/base/subprocess.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <pthread.h>

#include "aptus/base/error.hpp"

extern char** environ;

namespace aptus {

namespace {

class Pipe {
public:
    Pipe() {
        if (::pipe2(fds_, O_CLOEXEC) != 0) throw system_error("Could not create a pipe", "", errno);
    }
    ~Pipe() {
        close_read();
        close_write();
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    int read_end() const { return fds_[0]; }
    int write_end() const { return fds_[1]; }
    void close_read() {
        if (fds_[0] >= 0) ::close(std::exchange(fds_[0], -1));
    }
    void close_write() {
        if (fds_[1] >= 0) ::close(std::exchange(fds_[1], -1));
    }

private:
    int fds_[2] = {-1, -1};
};

class FileActions {
public:
    FileActions() { ::posix_spawn_file_actions_init(&actions_); }
    ~FileActions() { ::posix_spawn_file_actions_destroy(&actions_); }
    FileActions(const FileActions&) = delete;
    FileActions& operator=(const FileActions&) = delete;
    posix_spawn_file_actions_t* get() { return &actions_; }

private:
    posix_spawn_file_actions_t actions_;
};

std::vector<std::string> child_environment(const SubprocessOptions& options) {
    std::vector<std::string> env;
    auto overridden = [&](std::string_view entry) {
        for (const auto& [name, value] : options.environment)
            if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=')
                return true;
        return false;
    };
    if (!options.clear_environment)
        for (char** e = environ; e && *e; ++e)
            if (!overridden(*e)) env.emplace_back(*e);
    for (const auto& [name, value] : options.environment) env.push_back(name + "=" + value);
    return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (auto& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// SIGPIPE blocked on this thread while we write to a child's stdin, so a
// child that exits without reading gives EPIPE; a SIGPIPE raised meanwhile
// is taken off the thread's pending set before the old mask is back.
class SigpipeBlock {
public:
    SigpipeBlock() {
        sigset_t pipe_set;
        sigemptyset(&pipe_set);
        sigaddset(&pipe_set, SIGPIPE);
        sigset_t pending;
        sigpending(&pending);
        was_pending_ = sigismember(&pending, SIGPIPE) == 1;
        ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old_);
    }
    ~SigpipeBlock() {
        sigset_t pending;
        sigpending(&pending);
        if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
            sigset_t pipe_set;
            sigemptyset(&pipe_set);
            sigaddset(&pipe_set, SIGPIPE);
            timespec zero{0, 0};
            while (::sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
            }
        }
        ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    }
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;

private:
    sigset_t old_;
    bool was_pending_ = false;
};

}  // namespace

SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options) {
    if (argv.empty()) throw Error("run_subprocess: no program given");
    std::vector<std::string> args = argv;
    std::vector<std::string> env = child_environment(options);
    std::vector<char*> c_args = c_strings(args);
    std::vector<char*> c_env = c_strings(env);

    Pipe out, err;
    std::optional<Pipe> in;
    FileActions actions;
    if (options.input) {
        in.emplace();
        ::posix_spawn_file_actions_adddup2(actions.get(), in->read_end(), STDIN_FILENO);
    } else {
        ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    }
    if (!options.inherit_stdout) ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), STDOUT_FILENO);
    if (!options.working_directory.empty())
        ::posix_spawn_file_actions_addchdir_np(actions.get(), options.working_directory.c_str());
    if (!options.inherit_stderr) ::posix_spawn_file_actions_adddup2(actions.get(), err.write_end(), STDERR_FILENO);
    // Descriptors opened elsewhere without O_CLOEXEC (by a library, say)
    // must not reach a verifier.
    ::posix_spawn_file_actions_addclosefrom_np(actions.get(), STDERR_FILENO + 1);

    // A parent that ignores SIGPIPE or blocks signals must not hand that on.
    posix_spawnattr_t attr;
    ::posix_spawnattr_init(&attr);
    sigset_t none, all_default;
    sigemptyset(&none);
    sigemptyset(&all_default);
    sigaddset(&all_default, SIGPIPE);
    sigaddset(&all_default, SIGINT);
    sigaddset(&all_default, SIGTERM);
    ::posix_spawnattr_setsigmask(&attr, &none);
    ::posix_spawnattr_setsigdefault(&attr, &all_default);
    ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    pid_t pid = 0;
    int rc = ::posix_spawnp(&pid, c_args[0], actions.get(), &attr, c_args.data(), c_env.data());
    ::posix_spawnattr_destroy(&attr);
    if (rc != 0) throw system_error("Could not run", argv[0], rc);
    out.close_write();
    err.close_write();
    if (options.inherit_stdout) out.close_read();
    if (options.inherit_stderr) err.close_read();

    SubprocessResult result;
    std::optional<SigpipeBlock> sigpipe;
    std::string_view pending_input;
    if (in) {
        in->close_read();
        sigpipe.emplace();
        ::fcntl(in->write_end(), F_SETFL, ::fcntl(in->write_end(), F_GETFL) | O_NONBLOCK);
        pending_input = *options.input;
        if (pending_input.empty()) in->close_write();
        else result.input_complete = false;
    }
    // fds[0] stdout, fds[1] stderr, fds[2] the child's stdin.
    pollfd fds[3] = {{options.inherit_stdout ? -1 : out.read_end(), POLLIN, 0},
                     {options.inherit_stderr ? -1 : err.read_end(), POLLIN, 0},
                     {in && !pending_input.empty() ? in->write_end() : -1, POLLOUT, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_streams = (options.inherit_stdout ? 0 : 1) + (options.inherit_stderr ? 0 : 1);
    auto stop_input = [&] {
        fds[2].fd = -1;
        in->close_write();
    };
    char buf[1 << 16];
    // Until the child's output is closed and its input written: with both
    // streams inherited only the input keeps the loop going.
    while (open_streams > 0 || fds[2].fd >= 0) {
        int n = ::poll(fds, 3, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            throw system_error("Could not read the output of", argv[0], e);
        }
        if (fds[2].fd >= 0 && fds[2].revents != 0) {
            ssize_t put = ::write(fds[2].fd, pending_input.data(), std::min<size_t>(pending_input.size(), 1 << 16));
            if (put > 0) {
                pending_input.remove_prefix(size_t(put));
                if (pending_input.empty()) {
                    result.input_complete = true;
                    stop_input();
                }
            } else if (put < 0 && errno != EINTR && errno != EAGAIN) {
                stop_input();  // EPIPE: the child closed its stdin
            }
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                fds[i].fd = -1;
                --open_streams;
                continue;
            }
            sinks[i]->append(buf, size_t(got));
            if (sinks[i]->size() > options.max_output) {
                sinks[i]->resize(options.max_output);
                result.output_truncated = true;
                ::kill(pid, SIGKILL);
                fds[0].fd = fds[1].fd = -1;
                open_streams = 0;
                break;
            }
        }
    }
    // The child closed its output: what it did not read it never will.
    if (fds[2].fd >= 0) stop_input();
    sigpipe.reset();

    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw system_error("Could not wait for", argv[0], errno);
    }
    if (WIFEXITED(status)) {
        result.exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    return result;
}

}  // namespace aptus
