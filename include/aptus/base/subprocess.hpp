// Running a helper program (sqv, gpgv, an external solver, ...) safely: an
// argv vector executed directly, never through a shell, so no argument is
// ever re-parsed; stdin from /dev/null or fed from a buffer; stdout and
// stderr captured (stderr may be left on ours); no file descriptor of ours
// leaks into the child.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aptus {

struct SubprocessOptions {
    // Extra or replaced environment variables ("NAME", "value"); the rest of
    // our environment is passed on unless `clear_environment`.
    std::vector<std::pair<std::string, std::string>> environment;
    bool clear_environment = false;
    // Stop reading (and kill the child) once either stream exceeds this many
    // bytes, so a misbehaving helper cannot make us allocate without bound.
    size_t max_output = 16 * 1024 * 1024;
    // Written to the child's stdin through a pipe while its output is read
    // (no deadlock however much either side writes); the pipe is closed at
    // the end. A child that stops reading early is no error (we get EPIPE,
    // never SIGPIPE): what it answered and its exit status tell. Without
    // it, stdin is /dev/null.
    std::optional<std::string_view> input;
    // The child writes to our stderr directly (`err` stays empty).
    bool inherit_stderr = false;
    // The child writes to our stdout directly (`out` stays empty): a long
    // build's output as it comes.
    bool inherit_stdout = false;
    // The child starts in this directory ("" for ours).
    std::string working_directory;
};

struct SubprocessResult {
    int exit_status = -1;  // the exit code, or -1 when killed by a signal
    int signal = 0;        // the signal that ended it, or 0
    std::string out;       // everything written to stdout
    std::string err;       // everything written to stderr
    bool output_truncated = false;
    bool input_complete = true;  // all of `input` was written (false: the child closed its stdin first)

    bool success() const { return signal == 0 && exit_status == 0; }
};

// Run argv[0] (an absolute path, or a name looked up in PATH) with argv and
// wait for it. Throws aptus::Error if the program cannot be started (not
// found, not executable), with the errno's text; any exit status, including
// failure, is returned.
SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options = {});

}  // namespace aptus
