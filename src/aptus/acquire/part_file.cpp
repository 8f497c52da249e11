#include "part_file.hpp"

#include <dirent.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"

namespace aptus::acquire {
namespace {

std::string octal(mode_t mode) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04o", unsigned(mode & 07777));
    return buf;
}

}  // namespace

int create_part_file(const std::string& path) {
    const std::string dir = parent_dir(path), name = base_name(path);
    int dirfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) throw system_error("cannot open directory", dir, errno);
    // unlinkat never follows a link: a planted one goes, its target stays.
    if (::unlinkat(dirfd, name.c_str(), 0) != 0 && errno != ENOENT) {
        int err = errno;
        ::close(dirfd);
        throw system_error("cannot remove", path, err);
    }
    int fd = ::openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int err = errno;
    ::close(dirfd);
    if (fd < 0) throw system_error("cannot create", path, err);
    // apt's mode for lists and archives whatever the umask: a root with
    // umask 077 must not leave lists other users' read commands cannot read.
    if (::fchmod(fd, 0644) != 0) {
        err = errno;
        ::close(fd);
        throw system_error("cannot set the mode of", path, err);
    }
    return fd;
}

int open_part_file_to_resume(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == ::geteuid()) {
            int flags = ::fcntl(fd, F_GETFL);
            if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
            return fd;
        }
        ::close(fd);
    }
    return create_part_file(path);
}

void place_part_file(const std::string& part, const std::string& destination, int written_fd) {
    struct stat st {};
    if (::lstat(part.c_str(), &st) != 0) throw system_error("cannot rename", part, errno);
    bool ours = S_ISREG(st.st_mode);
    if (ours && written_fd >= 0) {
        struct stat w {};
        ours = ::fstat(written_fd, &w) == 0 && w.st_dev == st.st_dev && w.st_ino == st.st_ino;
    }
    if (!ours) {
        ::unlink(part.c_str());
        throw Error("Refusing to move " + part + " into place: it is not the file that was downloaded");
    }
    if (::rename(part.c_str(), destination.c_str()) != 0) throw system_error("cannot rename", part, errno);
}

void set_aside_failed(const std::string& part, const std::string& destination, int written_fd) {
    const std::string failed = destination + ".FAILED";
    struct stat st {}, w {};
    if (written_fd >= 0 && ::lstat(part.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::fstat(written_fd, &w) == 0 &&
        w.st_dev == st.st_dev && w.st_ino == st.st_ino) {
        ::unlink(failed.c_str());
        if (::rename(part.c_str(), failed.c_str()) == 0) return;
    }
    ::unlink(part.c_str());
    try {
        ::close(create_part_file(failed));
    } catch (const Error&) {
        // Only a marker for the administrator: nothing depends on it.
    }
}

void remove_failed_files(const std::string& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    while (dirent* e = ::readdir(d)) {
        std::string_view name = e->d_name;
        if (name.size() > 7 && name.ends_with(".FAILED")) ::unlinkat(::dirfd(d), e->d_name, 0);
    }
    ::closedir(d);
}

void secure_partial_dir(const std::string& dir, uid_t sandbox_uid) {
    // A trailing slash would make open() follow a link despite O_NOFOLLOW.
    std::string path = dir;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        if (err == ELOOP || err == ENOTDIR)
            throw Error("Refusing to use the partial directory " + dir + ": it is not a directory (a link?)");
        throw system_error("cannot open directory", dir, err);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        throw system_error("cannot stat", dir, err);
    }
    std::string wrong;
    const bool root = ::geteuid() == 0;
    if (st.st_mode & 022) {
        wrong = "group or others can write it (mode " + octal(st.st_mode) + ")";
    } else if (root && st.st_uid != 0 && st.st_uid != sandbox_uid) {
        wrong = "it belongs to uid " + std::to_string(st.st_uid) + ", not root or the sandbox user";
    } else if (root && (st.st_uid != 0 || st.st_gid != 0 || (st.st_mode & 07777) != 0700)) {
        // fchown/fchmod act on the directory opened above, never on a
        // link swapped in under its name since.
        if (::fchown(fd, 0, 0) != 0 || ::fchmod(fd, 0700) != 0) {
            int err = errno;
            ::close(fd);
            throw system_error("cannot take back", dir, err);
        }
    }
    ::close(fd);
    if (!wrong.empty())
        throw Error("Refusing to use the partial directory " + dir + ": " + wrong +
                    ". Remove it and it is made again as it should be.");
}

void hand_back_partial_dir(const std::string& dir, uid_t sandbox_uid) {
    if (::geteuid() != 0 || sandbox_uid == uid_t(-1) || sandbox_uid == 0) return;
    std::string path = dir;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    // Only the directory this run secured: root's, mode 0700.
    if (::fstat(fd, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0700) {
        if (::fchown(fd, sandbox_uid, 0) != 0) {
            // Nothing depends on it: the directory stays root's.
        }
    }
    ::close(fd);
}

}  // namespace aptus::acquire
