// The one exception type of libaptus. Only the CLI catches it, prints
// "E: <what>" and exits 100. Context is prepended as the error travels up
// ("while reading X: ..."), so the message names where things went wrong.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aptus {

// What went wrong, for a front end that must tell failures apart without
// reading messages; the CLI's exit status comes from it too (cli/exit_status).
enum class ErrorKind : unsigned char {
    Other,         // anything else: bad input, a file that cannot be read, ...
    Locked,        // the dpkg or lists lock is held by another process
    Network,       // a download failed
    Verification,  // a signature, hash or size did not check out
    Unsolvable,    // the request cannot be met
    Dpkg,          // dpkg (or a hook around it) failed
};

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, ErrorKind kind = ErrorKind::Other)
        : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

    // A new error whose message is "<context>: <this message>".
    Error with_context(std::string_view context) const;

    // Errors reported after this one, each on its own "E:" line (apt's
    // "The list of sources could not be read." after the line that failed).
    const std::vector<std::string>& followed_by() const { return followed_by_; }
    Error& add_followup(std::string message) {
        followed_by_.push_back(std::move(message));
        return *this;
    }

    // The words apt prints for the same failure, where they differ from
    // what() (apt names no file and line for a bad pin): what aptus
    // prints under apt's names. Empty when what() is apt's text too.
    const std::string& apt_text() const { return apt_text_; }
    Error& set_apt_text(std::string text) {
        apt_text_ = std::move(text);
        return *this;
    }

private:
    ErrorKind kind_;
    std::vector<std::string> followed_by_;
    std::string apt_text_;
};

// An error located in a file: "<file>:<line>: <message>". line 0 means
// "the file as a whole" and prints no line number.
Error file_error(std::string_view file, unsigned line, std::string_view message);

// An error from a failed system call: "<what>: <path>: <strerror(errno)>".
Error system_error(std::string_view what, std::string_view path, int errnum);

}  // namespace aptus
