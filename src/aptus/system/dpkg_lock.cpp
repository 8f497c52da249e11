#include "aptus/system/dpkg_lock.hpp"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "aptus/base/error.hpp"

namespace aptus::system {

namespace {

// apt reports two errors for a lock it cannot get; the CLI prints one
// aptus::Error as "E: <message>", so the second line carries its own prefix.
constexpr std::string_view next_error_line = "\nE: ";

std::string process_name(pid_t pid) {
    std::string path = "/proc/" + std::to_string(pid) + "/comm";
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    char buf[64];
    ssize_t n = ::read(fd, buf, sizeof buf);
    ::close(fd);
    if (n <= 0) return {};
    std::string name(buf, static_cast<size_t>(n));
    while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
    return name;
}

struct LockAttempt {
    int fd = -1;
    int error = 0;       // errno of the failure
    std::string reason;  // apt's first line for it
};

// One try at a write lock on `path`, as apt's GetLock: the file is created
// 0640 when missing, never followed through a symlink, and a holder is
// named from F_GETLK and /proc (the pid is 0 when it lives in another pid
// namespace, and then apt names nobody either).
LockAttempt try_lock(const std::string& path) {
    LockAttempt a;
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0640);
    if (fd < 0) {
        a.error = errno;
        a.reason = "Could not open lock file " + path + " - open (" + std::to_string(a.error) + ": " +
                   ::strerror(a.error) + ")";
        return a;
    }
    struct flock fl {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (::fcntl(fd, F_SETLK, &fl) == 0) {
        a.fd = fd;
        return a;
    }
    a.error = errno;
    struct flock holder {};
    holder.l_type = F_WRLCK;
    holder.l_whence = SEEK_SET;
    pid_t pid = 0;
    if (::fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK) pid = holder.l_pid;
    ::close(fd);
    if (a.error != EACCES && a.error != EAGAIN) {
        a.reason = "Could not get lock " + path + " - fcntl (" + std::to_string(a.error) + ": " +
                   ::strerror(a.error) + ")";
    } else if (pid > 0) {
        std::string name = process_name(pid);
        a.reason = "Could not get lock " + path + ". It is held by process " + std::to_string(pid);
        if (!name.empty()) a.reason += " (" + name + ")";
    } else {
        a.reason = "Could not get lock " + path;
    }
    return a;
}

bool busy(int error) { return error == EACCES || error == EAGAIN; }

// Takes `path`, waiting while another process holds it and `timeout`
// (seconds, shared by both locks: the time spent on the first counts) is not
// spent. Throws with apt's lines; `second_line` is completed with
// "is another process using it?" or "are you root?".
int lock_or_wait(const std::string& path, long& timeout, const DpkgLock::WaitReport& on_wait,
                 const std::string& second_line) {
    const long total = timeout;
    long waited = 0;
    for (;;) {
        LockAttempt a = try_lock(path);
        if (a.fd >= 0) {
            if (timeout > 0) timeout -= waited;
            return a.fd;
        }
        bool can_wait = busy(a.error) && (timeout < 0 || waited < timeout);
        if (!can_wait) {
            std::string tail = busy(a.error) ? "is another process using it?" : "are you root?";
            // After waiting apt has shown the reason in its progress line and
            // reports only its conclusion.
            const ErrorKind kind = busy(a.error) ? ErrorKind::Locked : ErrorKind::Other;
            if (waited > 0) throw Error(second_line + tail, kind);
            throw Error(a.reason + std::string(next_error_line) + second_line + tail, kind);
        }
        if (on_wait) on_wait(a.reason, waited, total);
        ::sleep(1);
        ++waited;
    }
}

}  // namespace

std::string dpkg_admindir(const config::Config& config) {
    std::string status = config.find_file("Dir::State::status");
    auto slash = status.rfind('/');
    if (slash == std::string::npos) return "./";
    return status.substr(0, slash + 1);
}

std::optional<std::string> dpkg_interrupted(const config::Config& config) {
    std::string dir = dpkg_admindir(config) + "updates/";
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return std::nullopt;
    bool damaged = false;
    while (struct dirent* e = ::readdir(d)) {
        // dpkg's journal entries are numbered; "." and "..", and the temporary
        // files dpkg may leave next to them, are not.
        std::string_view name = e->d_name;
        if (name.empty()) continue;
        bool digits = true;
        for (char c : name)
            if (c < '0' || c > '9') digits = false;
        if (digits) {
            damaged = true;
            break;
        }
    }
    ::closedir(d);
    if (!damaged) return std::nullopt;
    const char* cmd = std::getenv("SUDO_USER") != nullptr ? "sudo dpkg --configure -a" : "dpkg --configure -a";
    // apt's text, trailing blank included.
    return std::string("dpkg was interrupted, you must manually run '") + cmd + "' to correct the problem. ";
}

DpkgLock::DpkgLock(const config::Config& config, WaitReport on_wait)
    : admindir_(dpkg_admindir(config)),
      timeout_(config.find_int("DPkg::Lock::Timeout", 0)),
      on_wait_(std::move(on_wait)),
      no_locking_(config.find_bool("Debug::NoLocking", false)) {
    if (no_locking_) return;
    long timeout = timeout_;
    std::string frontend = admindir_ + "lock-frontend";
    frontend_fd_ =
        lock_or_wait(frontend, timeout, on_wait_, "Unable to acquire the dpkg frontend lock (" + frontend + "), ");
    try {
        inner_fd_ = lock_or_wait(admindir_ + "lock", timeout, on_wait_,
                                 "Unable to lock the administration directory (" + admindir_ + "), ");
    } catch (...) {
        release();
        throw;
    }
}

DpkgLock::~DpkgLock() { release(); }

DpkgLock::DpkgLock(DpkgLock&& other) noexcept
    : admindir_(std::move(other.admindir_)),
      timeout_(other.timeout_),
      on_wait_(std::move(other.on_wait_)),
      frontend_fd_(std::exchange(other.frontend_fd_, -1)),
      inner_fd_(std::exchange(other.inner_fd_, -1)),
      no_locking_(other.no_locking_) {}

DpkgLock& DpkgLock::operator=(DpkgLock&& other) noexcept {
    if (this != &other) {
        release();
        admindir_ = std::move(other.admindir_);
        timeout_ = other.timeout_;
        on_wait_ = std::move(other.on_wait_);
        frontend_fd_ = std::exchange(other.frontend_fd_, -1);
        inner_fd_ = std::exchange(other.inner_fd_, -1);
        no_locking_ = other.no_locking_;
    }
    return *this;
}

void DpkgLock::release() noexcept {
    // The inner lock first, so no moment exists where another front end
    // holds lock-frontend while we still hold lock.
    if (inner_fd_ >= 0) ::close(std::exchange(inner_fd_, -1));
    if (frontend_fd_ >= 0) ::close(std::exchange(frontend_fd_, -1));
}

void DpkgLock::release_inner() {
    if (inner_fd_ >= 0) ::close(std::exchange(inner_fd_, -1));
}

void DpkgLock::reacquire_inner() {
    if (no_locking_ || frontend_fd_ < 0 || inner_fd_ >= 0) return;
    long no_wait = 0;
    inner_fd_ = lock_or_wait(admindir_ + "lock", no_wait, {},
                             "Unable to lock the administration directory (" + admindir_ + "), ");
}

}  // namespace aptus::system
