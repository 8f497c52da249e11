// The dpkg database lock, taken as apt takes it: first
// <admindir>/lock-frontend (held for the whole run, so no other front end
// starts), then <admindir>/lock (dpkg's own lock, handed to dpkg while it
// runs: see release_inner). Both are fcntl write locks, so a holder that
// dies loses them at once and no stale lock file can block anyone.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "aptus/config/config.hpp"

namespace aptus::system {

// dpkg's administrative directory with a trailing '/': the directory of
// Dir::State::status, as apt derives it. apt never reads --admindir from
// DPkg::Options, so a sandbox sets both (or uses --root, which dpkg turns
// into <root>/var/lib/dpkg, the same place Dir=<root> gives the status).
std::string dpkg_admindir(const config::Config& config);

// apt's check for an interrupted dpkg: a file named by digits only in
// <admindir>/updates/ is a journal entry dpkg has not folded into status.
// Then apt's message ("dpkg was interrupted, you must manually run
// 'dpkg --configure -a' to correct the problem. ", with "sudo " when
// SUDO_USER is set); otherwise nullopt.
std::optional<std::string> dpkg_interrupted(const config::Config& config);

class DpkgLock {
public:
    // Called about once a second while another process holds a lock and
    // DPkg::Lock::Timeout allows waiting: apt's reason text ("Could not get
    // lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt-get)"),
    // the seconds waited so far and the timeout (-1: for ever).
    using WaitReport = std::function<void(std::string_view reason, long waited, long timeout)>;

    // Takes lock-frontend, then lock; waits up to DPkg::Lock::Timeout
    // seconds (0, the default: not at all; negative: for ever) for each.
    // Throws aptus::Error with apt's two lines ("Could not get lock ...
    // It is held by process N (name)" and "Unable to acquire the dpkg
    // frontend lock (...), is another process using it?", or for `lock`
    // "Unable to lock the administration directory (...), ...").
    // Debug::NoLocking true takes nothing, as in apt.
    explicit DpkgLock(const config::Config& config, WaitReport on_wait = {});
    ~DpkgLock();
    DpkgLock(DpkgLock&& other) noexcept;
    DpkgLock& operator=(DpkgLock&& other) noexcept;
    DpkgLock(const DpkgLock&) = delete;
    DpkgLock& operator=(const DpkgLock&) = delete;

    // While dpkg runs it must take <admindir>/lock itself: apt lets go of it
    // before each dpkg call and takes it back afterwards. The frontend lock
    // stays, and DPKG_FRONTEND_LOCKED tells dpkg not to ask for it.
    void release_inner();
    void reacquire_inner();  // throws as the constructor does (no waiting)

    const std::string& admindir() const { return admindir_; }
    // True when the locks are really held (false under Debug::NoLocking).
    bool holds_frontend() const { return frontend_fd_ >= 0; }

private:
    void release() noexcept;

    std::string admindir_;
    long timeout_ = 0;
    WaitReport on_wait_;
    int frontend_fd_ = -1;
    int inner_fd_ = -1;
    bool no_locking_ = false;
};

}  // namespace aptus::system
