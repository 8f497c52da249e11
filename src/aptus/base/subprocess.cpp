#include "aptus/base/subprocess.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

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

}  // namespace

SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options) {
    if (argv.empty()) throw Error("run_subprocess: no program given");
    std::vector<std::string> args = argv;
    std::vector<std::string> env = child_environment(options);
    std::vector<char*> c_args = c_strings(args);
    std::vector<char*> c_env = c_strings(env);

    Pipe out, err;
    FileActions actions;
    ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), STDOUT_FILENO);
    ::posix_spawn_file_actions_adddup2(actions.get(), err.write_end(), STDERR_FILENO);
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

    SubprocessResult result;
    pollfd fds[2] = {{out.read_end(), POLLIN, 0}, {err.read_end(), POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_streams = 2;
    char buf[1 << 16];
    while (open_streams > 0) {
        int n = ::poll(fds, 2, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            throw system_error("Could not read the output of", argv[0], e);
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
