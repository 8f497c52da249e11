// The dpkg lock against a real second process holding it (a forked child
// with an fcntl lock, as apt or dpkg would hold it), and apt's check for an
// interrupted dpkg.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "aptus/base/error.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "support/test_support.hpp"

namespace aptus::system {
namespace {

config::Config sandbox_config(const test::TempDir& dir) {
    dir.mkdir("var/lib/dpkg/updates");
    dir.write("var/lib/dpkg/status", "");
    config::Config c;
    c.set("Dir::State::status", dir.file("var/lib/dpkg/status"));
    return c;
}

// A child process that holds a write lock on `path` until it is told to
// let go (or for `hold_ms`), like another apt or dpkg would.
class Holder {
public:
    Holder(const std::string& path, int hold_ms = -1) {
        int ready[2];
        if (::pipe(ready) != 0 || ::pipe(release_) != 0) throw std::runtime_error("pipe");
        pid_ = ::fork();
        if (pid_ == 0) {
            // Only the parent's copy of the write end may keep the child waiting.
            ::close(release_[1]);
            ::close(ready[0]);
            int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0640);
            struct flock fl {};
            fl.l_type = F_WRLCK;
            fl.l_whence = SEEK_SET;
            char ok = ::fcntl(fd, F_SETLK, &fl) == 0 ? '1' : '0';
            (void)::write(ready[1], &ok, 1);
            if (hold_ms >= 0) {
                ::usleep(static_cast<useconds_t>(hold_ms) * 1000);
            } else {
                char c;
                (void)::read(release_[0], &c, 1);
            }
            ::_exit(0);
        }
        ::close(ready[1]);
        ::close(release_[0]);
        char ok = 0;
        (void)::read(ready[0], &ok, 1);
        ::close(ready[0]);
        if (ok != '1') throw std::runtime_error("holder could not lock " + path);
    }
    ~Holder() {
        ::close(release_[1]);
        ::waitpid(pid_, nullptr, 0);
    }
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int release_[2] = {-1, -1};
};

// Whether another process could take a write lock on `path` now.
bool lockable_by_other(const std::string& path) {
    pid_t pid = ::fork();
    if (pid == 0) {
        int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0640);
        struct flock fl {};
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        ::_exit(::fcntl(fd, F_SETLK, &fl) == 0 ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(DpkgLock, AdmindirIsTheStatusFilesDirectory) {
    config::Config c;
    c.set("Dir::State::status", "/srv/root/var/lib/dpkg/status");
    EXPECT_EQ(dpkg_admindir(c), "/srv/root/var/lib/dpkg/");
}

TEST(DpkgLock, InterruptedOnlyForNumberedJournalEntries) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    ::unsetenv("SUDO_USER");
    EXPECT_EQ(dpkg_interrupted(c), std::nullopt);
    dir.write("var/lib/dpkg/updates/tmp.i", "");  // dpkg's temporary file is no journal entry
    EXPECT_EQ(dpkg_interrupted(c), std::nullopt);
    dir.write("var/lib/dpkg/updates/0001", "");
    auto message = dpkg_interrupted(c);
    ASSERT_TRUE(message.has_value());
    EXPECT_EQ(*message, "dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem. ");
}

TEST(DpkgLock, TakesBothLocksAndLetsGoWhenDestroyed) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    std::string frontend = dir.file("var/lib/dpkg/lock-frontend"), inner = dir.file("var/lib/dpkg/lock");
    {
        DpkgLock lock(c);
        EXPECT_TRUE(lock.holds_frontend());
        EXPECT_FALSE(lockable_by_other(frontend));
        EXPECT_FALSE(lockable_by_other(inner));
        // dpkg must get the inner lock while it runs; the frontend lock stays.
        lock.release_inner();
        EXPECT_TRUE(lockable_by_other(inner));
        EXPECT_FALSE(lockable_by_other(frontend));
        lock.reacquire_inner();
        EXPECT_FALSE(lockable_by_other(inner));
        DpkgLock moved = std::move(lock);
        EXPECT_FALSE(lockable_by_other(frontend));
    }
    EXPECT_TRUE(lockable_by_other(frontend));
    EXPECT_TRUE(lockable_by_other(inner));
}

TEST(DpkgLock, HeldFrontendLockGivesAptsTwoErrors) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    std::string frontend = dir.file("var/lib/dpkg/lock-frontend");
    Holder holder(frontend);
    try {
        DpkgLock lock(c);
        FAIL() << "locked although another process holds " << frontend;
    } catch (const Error& e) {
        std::string comm;
        {
            std::ifstream f("/proc/" + std::to_string(holder.pid()) + "/comm");
            std::getline(f, comm);
        }
        EXPECT_EQ(std::string(e.what()), "Could not get lock " + frontend + ". It is held by process " +
                                             std::to_string(holder.pid()) + " (" + comm +
                                             ")\nE: Unable to acquire the dpkg frontend lock (" + frontend +
                                             "), is another process using it?");
    }
    // The inner lock was never touched.
    EXPECT_TRUE(lockable_by_other(dir.file("var/lib/dpkg/lock")));
}

TEST(DpkgLock, HeldInnerLockNamesTheAdministrationDirectory) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    Holder holder(dir.file("var/lib/dpkg/lock"));
    try {
        DpkgLock lock(c);
        FAIL() << "locked although another process holds the inner lock";
    } catch (const Error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("Could not get lock " + dir.file("var/lib/dpkg/lock") + ". It is held by process " +
                            std::to_string(holder.pid())),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("\nE: Unable to lock the administration directory (" + dir.file("var/lib/dpkg/") +
                            "), is another process using it?"),
                  std::string::npos)
            << what;
    }
    // The frontend lock taken first is given back.
    EXPECT_TRUE(lockable_by_other(dir.file("var/lib/dpkg/lock-frontend")));
}

TEST(DpkgLock, WaitsUpToTheTimeoutAndGetsTheLockWhenTheHolderLetsGo) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    c.set("DPkg::Lock::Timeout", "3");
    Holder holder(dir.file("var/lib/dpkg/lock-frontend"), 1000);
    std::vector<std::string> reasons;
    auto start = std::chrono::steady_clock::now();
    DpkgLock lock(c, [&](std::string_view reason, long, long timeout) {
        reasons.emplace_back(reason);
        EXPECT_EQ(timeout, 3);
    });
    auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(lock.holds_frontend());
    ASSERT_FALSE(reasons.empty());
    EXPECT_EQ(reasons[0].rfind("Could not get lock " + dir.file("var/lib/dpkg/lock-frontend"), 0), 0u);
    EXPECT_LT(waited, std::chrono::seconds(4));
}

TEST(DpkgLock, GivesUpAfterTheTimeoutWithAptsConclusion) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    c.set("DPkg::Lock::Timeout", "1");
    std::string frontend = dir.file("var/lib/dpkg/lock-frontend");
    Holder holder(frontend);
    int reports = 0;
    try {
        DpkgLock lock(c, [&](std::string_view, long, long) { ++reports; });
        FAIL() << "locked although the holder never let go";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "Unable to acquire the dpkg frontend lock (" + frontend + "), is another process using it?");
    }
    EXPECT_EQ(reports, 1);
}

TEST(DpkgLock, NoLockingTakesNothing) {
    test::TempDir dir("dpkglock");
    auto c = sandbox_config(dir);
    c.set("Debug::NoLocking", "true");
    Holder holder(dir.file("var/lib/dpkg/lock-frontend"));
    DpkgLock lock(c);
    EXPECT_FALSE(lock.holds_frontend());
}

}  // namespace
}  // namespace aptus::system
