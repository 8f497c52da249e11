// The update tests' misbehaving HTTP server (tests/integration/lib/update_server.py),
// started on loopback for one unit test and stopped with it.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus::test {

class LoopbackServer {
public:
    explicit LoopbackServer(const std::string& root) : dir_("server") {
        std::string script = std::string(APTUS_TEST_DATA) + "/../integration/lib/update_server.py";
        control_ = dir_.file("control");
        log_ = dir_.file("log");
        write_file_atomic(control_, "{}");
        write_file_atomic(log_, "");
        int out[2];
        if (pipe(out) != 0) throw std::runtime_error("pipe");
        pid_ = fork();
        if (pid_ == 0) {
            dup2(out[1], 1);
            close(out[0]);
            execlp("python3", "python3", script.c_str(), root.c_str(), control_.c_str(), log_.c_str(), nullptr);
            _exit(127);
        }
        close(out[1]);
        // Read up to the newline and keep the pipe open: the server dies of
        // SIGPIPE if its line's end meets a closed pipe.
        out_ = out[0];
        char c;
        while (read(out_, &c, 1) == 1 && c != '\n') url_ += c;
    }
    ~LoopbackServer() {
        close(out_);
        kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
    }
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;
    const std::string& url() const { return url_; }
    void misbehave(const std::string& json) { write_file_atomic(control_, json); }
    std::string log() const { return read_file(log_); }
    void clear_log() { write_file_atomic(log_, ""); }

private:
    TempDir dir_;
    std::string control_, log_, url_;
    pid_t pid_ = -1;
    int out_ = -1;
};

}  // namespace aptus::test
