#include "aptus/system/dpkg_pty.hpp"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace aptus::system::detail {

namespace {

// Our terminal's size: stdout's (where the bar is drawn), else stdin's.
bool our_window(struct winsize& w) {
    for (int fd : {STDOUT_FILENO, STDIN_FILENO})
        if (::ioctl(fd, TIOCGWINSZ, &w) == 0 && w.ws_row > 0 && w.ws_col > 0) return true;
    return false;
}

volatile sig_atomic_t window_changed = 0;
struct sigaction previous_winch {};

extern "C" void note_window_change(int sig, siginfo_t* info, void* context) {
    window_changed = 1;
    if (previous_winch.sa_flags & SA_SIGINFO) {
        if (previous_winch.sa_sigaction != nullptr) previous_winch.sa_sigaction(sig, info, context);
    } else if (previous_winch.sa_handler != SIG_DFL && previous_winch.sa_handler != SIG_IGN) {
        previous_winch.sa_handler(sig);
    }
}

}  // namespace

std::unique_ptr<DpkgPty> DpkgPty::open(int reserved_rows) {
    std::unique_ptr<DpkgPty> pty(new DpkgPty);
    pty->reserved_rows_ = reserved_rows;
    pty->master_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (pty->master_ < 0) return nullptr;
    char name[128];
    if (::grantpt(pty->master_) != 0 || ::unlockpt(pty->master_) != 0 || ::ptsname_r(pty->master_, name, sizeof name) != 0)
        return nullptr;
    pty->slave_path_ = name;
    pty->slave_ = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (pty->slave_ < 0) return nullptr;
    // Modes as the user set them for their terminal (erase key, UTF-8,
    // output processing); the kernel's defaults otherwise.
    struct termios modes {};
    if (::tcgetattr(STDIN_FILENO, &modes) == 0 || ::tcgetattr(STDOUT_FILENO, &modes) == 0)
        ::tcsetattr(pty->slave_, TCSANOW, &modes);
    pty->update_size();
    ::fcntl(pty->master_, F_SETFL, ::fcntl(pty->master_, F_GETFL) | O_NONBLOCK);
    return pty;
}

DpkgPty::~DpkgPty() {
    close_slave();
    if (master_ >= 0) ::close(master_);
}

void DpkgPty::close_slave() {
    if (slave_ >= 0) ::close(slave_);
    slave_ = -1;
}

void DpkgPty::update_size() {
    struct winsize w {};
    if (!our_window(w)) return;
    if (reserved_rows_ > 0 && w.ws_row > reserved_rows_) w.ws_row = static_cast<unsigned short>(w.ws_row - reserved_rows_);
    ::ioctl(master_, TIOCSWINSZ, &w);
}

RawTerminal::RawTerminal() {
    if (::isatty(STDIN_FILENO) != 1 || ::tcgetpgrp(STDIN_FILENO) != ::getpgrp()) return;
    if (::tcgetattr(STDIN_FILENO, &saved_) != 0) return;
    struct termios raw = saved_;
    ::cfmakeraw(&raw);
    raw.c_oflag = saved_.c_oflag;
    raw.c_lflag |= ISIG;
    raw.c_cc[VSUSP] = _POSIX_VDISABLE;
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (::tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) != 0) return;
    active_ = true;
}

RawTerminal::~RawTerminal() {
    if (!active_) return;
    while (::tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_) != 0 && errno == EINTR) {
    }
}

WindowChangeWatch::WindowChangeWatch() {
    window_changed = 0;
    struct sigaction sa {};
    sa.sa_sigaction = note_window_change;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    ::sigemptyset(&sa.sa_mask);
    ::sigaction(SIGWINCH, &sa, &previous_winch);
}

WindowChangeWatch::~WindowChangeWatch() { ::sigaction(SIGWINCH, &previous_winch, nullptr); }

bool WindowChangeWatch::take() {
    if (!window_changed) return false;
    window_changed = 0;
    return true;
}

}  // namespace aptus::system::detail
