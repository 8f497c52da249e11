#include "aptus/acquire/lists_store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "part_file.hpp"

namespace aptus::acquire {
namespace {

std::string with_slash(std::string dir) {
    if (dir.empty() || dir.back() != '/') dir += '/';
    return dir;
}

std::string process_name(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

}  // namespace

ListsLock::ListsLock(const std::string& lists_dir) {
    const std::string path = with_slash(lists_dir) + "lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0640);
    if (fd_ < 0) throw system_error("Could not open lock file", path, errno);
    struct flock fl{};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (::fcntl(fd_, F_SETLK, &fl) == 0) return;
    int err = errno;
    struct flock who{};
    who.l_type = F_WRLCK;
    who.l_whence = SEEK_SET;
    std::string msg = "Could not get lock " + path;
    if ((err == EAGAIN || err == EACCES) && ::fcntl(fd_, F_GETLK, &who) == 0 && who.l_type != F_UNLCK) {
        msg += ". It is held by process " + std::to_string(who.l_pid);
        std::string name = process_name(who.l_pid);
        if (!name.empty()) msg += " (" + name + ")";
    } else {
        msg += std::string(" - open (") + std::to_string(err) + ": " + std::strerror(err) + ")";
    }
    ::close(fd_);
    fd_ = -1;
    const bool held = (err == EAGAIN || err == EACCES);
    throw Error(msg + "\nUnable to lock directory " + with_slash(lists_dir), held ? ErrorKind::Locked : ErrorKind::Other);
}

ListsLock::~ListsLock() {
    if (fd_ >= 0) ::close(fd_);
}

std::string ensure_partial_dir(const std::string& lists_dir, uid_t sandbox_uid, bool secure) {
    const std::string lists = with_slash(lists_dir);
    const std::string partial = lists + "partial/";
    for (const std::string& d : {lists, partial}) {
        if (::mkdir(d.c_str(), d == partial ? 0700 : 0755) != 0 && errno != EEXIST)
            throw system_error("cannot create directory", d, errno);
    }
    if (secure) secure_partial_dir(partial, sandbox_uid);
    return partial;
}

std::string partial_path(const std::string& lists_dir, const std::string& final_path) {
    return with_slash(lists_dir) + "partial/" + base_name(final_path);
}

void move_into_place(const std::vector<ListsMove>& moves) {
    for (const ListsMove& m : moves) {
        if (m.from.empty()) {
            for (const std::string& old : m.replaces)
                if (::unlink(old.c_str()) != 0 && errno != ENOENT) throw system_error("cannot remove", old, errno);
            continue;
        }
        if (m.mtime) {
            // apt keeps the server's time on the file: the next
            // If-Modified-Since then asks in the server's own terms.
            struct utimbuf t{*m.mtime, *m.mtime};
            ::utime(m.from.c_str(), &t);
        }
        place_part_file(m.from, m.to);
        for (const std::string& old : m.replaces)
            if (old != m.to && ::unlink(old.c_str()) != 0 && errno != ENOENT)
                throw system_error("cannot remove", old, errno);
    }
}

void commit_moves(const std::string& lists_dir, const std::vector<ListsMove>& moves) {
    move_into_place(moves);
    // The files are renamed into place already; a lists dir that cannot be
    // synced (a file system without fsync on directories) is no reason to
    // call the update failed.
    sync_directory(with_slash(lists_dir), SyncFailure::Ignore);
}

void discard_partial(const std::vector<ListsMove>& moves) {
    for (const ListsMove& m : moves)
        if (!m.from.empty()) ::unlink(m.from.c_str());
}

std::vector<std::string> remove_unlisted(const std::string& lists_dir, const std::set<std::string>& keep) {
    const std::string lists = with_slash(lists_dir);
    std::vector<std::string> removed;
    DIR* dir = ::opendir(lists.c_str());
    if (!dir) return removed;
    while (dirent* e = ::readdir(dir)) {
        std::string name = e->d_name;
        if (name == "." || name == ".." || name == "lock" || name == "partial" || name == "auxfiles") continue;
        std::string path = lists + name;
        struct stat st{};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        std::string base = path;
        if (compression_from_path(path) != Compression::None) base = path.substr(0, path.rfind('.'));
        if (keep.count(path) || keep.count(base)) continue;
        removed.push_back(path);
    }
    ::closedir(dir);
    for (const std::string& path : removed) ::unlink(path.c_str());
    return removed;
}

}  // namespace aptus::acquire
