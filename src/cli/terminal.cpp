#include "cli/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace aptus::cli {
namespace {
int screen_fd = -1;
}

bool is_terminal(int fd) { return isatty(fd) == 1; }

void remember_screen(int fd) { screen_fd = fd; }

int terminal_columns() {
    struct winsize ws {};
    int fd = screen_fd >= 0 ? screen_fd : STDOUT_FILENO;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        int n = std::atoi(columns);
        if (n > 0) return n;
    }
    return 80;
}

int effective_quiet(const config::Config& config) {
    if (config.exists("quiet")) return int(config.find_int("quiet"));
    // While a pager owns stdout the user still reads a terminal: the notices
    // after the content ("There is 1 additional record") go into the pager.
    return isatty(screen_fd >= 0 ? screen_fd : STDOUT_FILENO) ? 0 : 1;
}

}  // namespace aptus::cli
