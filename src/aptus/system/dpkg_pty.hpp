// The terminal side of a dpkg call (dpkg_run.cpp): when our stdout is a
// terminal, dpkg runs on a pseudo-terminal of its own, as with apt, so
// maintainer scripts and debconf see a terminal, the conffile question
// reaches the user and their keys reach dpkg. Private to the system module.
#pragma once

#include <signal.h>
#include <termios.h>

#include <memory>
#include <string>

namespace aptus::system::detail {

// One pty for one dpkg call. The slave gets our terminal's modes (stdin's,
// else stdout's) and our window size less `reserved_rows` (the rows the
// progress bar keeps for itself at the bottom).
class DpkgPty {
public:
    // nullptr when no pty can be had (no /dev/pts in a container...): the
    // caller then uses pipes as without a terminal.
    static std::unique_ptr<DpkgPty> open(int reserved_rows);
    ~DpkgPty();
    DpkgPty(const DpkgPty&) = delete;
    DpkgPty& operator=(const DpkgPty&) = delete;

    // Non-blocking, close-on-exec.
    int master() const { return master_; }
    // The child opens the slave by name: a session leader that opens a
    // terminal makes it its controlling terminal (/dev/tty works).
    const std::string& slave_path() const { return slave_path_; }
    // Our own descriptor of the slave keeps its modes until the child has
    // it open; once it does, the master must see the child's end alone
    // (EIO when the last of dpkg's descriptors closes).
    void close_slave();
    // Our terminal's current size (less the reserved rows) to the slave:
    // the kernel sends SIGWINCH to dpkg's foreground processes.
    void update_size();

private:
    DpkgPty() = default;
    int master_ = -1;
    int slave_ = -1;
    int reserved_rows_ = 0;
    std::string slave_path_;
};

// Our stdin in raw mode while this lives, so keys reach dpkg as they are
// typed (its pty echoes them). ISIG stays on: ^C still reaches aptus, which
// notes it as before; ^Z is no signal (aptus stopped with the terminal raw
// would leave the shell unusable), it goes to dpkg as a byte. Output
// processing stays on for the progress bar's own writes. Does nothing when
// stdin is not a terminal or we are not its foreground process group
// (tcsetattr would stop us with SIGTTOU). Restored when destroyed, also
// through an exception; SIGINT, SIGTERM and SIGHUP do not end aptus while
// dpkg runs (the driver's SignalGuard), so that covers them.
class RawTerminal {
public:
    RawTerminal();
    ~RawTerminal();
    RawTerminal(const RawTerminal&) = delete;
    RawTerminal& operator=(const RawTerminal&) = delete;
    // True when stdin is ours to read and forward.
    bool active() const { return active_; }

private:
    bool active_ = false;
    struct termios saved_ {};
};

// Notes SIGWINCH while it lives; the handler that was there (the progress
// bar's) still runs.
class WindowChangeWatch {
public:
    WindowChangeWatch();
    ~WindowChangeWatch();
    WindowChangeWatch(const WindowChangeWatch&) = delete;
    WindowChangeWatch& operator=(const WindowChangeWatch&) = delete;
    // True once per resize since the last call.
    bool take();
};

}  // namespace aptus::system::detail
