#include "aptus/base/file.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

#include "aptus/base/error.hpp"

namespace aptus {

namespace {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { if (fd_ >= 0) ::close(fd_); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};


}  // namespace

std::string read_file(const std::string& path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) throw system_error("Could not open", path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw system_error("Could not stat", path, errno);
    std::string content;
    if (S_ISREG(st.st_mode)) content.reserve(size_t(st.st_size));
    char buf[1 << 16];
    for (;;) {
        ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw system_error("Could not read", path, errno);
        }
        if (n == 0) break;
        content.append(buf, size_t(n));
    }
    return content;
}

void remove_abandoned_temps(const std::string& path) {
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".aptus-new.";
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    const time_t now = ::time(nullptr);
    while (dirent* e = ::readdir(d)) {
        if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) != 0) continue;
        const std::string file = dir + "/" + e->d_name;
        int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) continue;
        struct stat st {};
        // A minute's grace: a writer between creating its file and locking it.
        if (::fstat(fd, &st) == 0 && st.st_mtime < now - 60 && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
            ::unlink(file.c_str());
        ::close(fd);
    }
    ::closedir(d);
}

void write_file_atomic(const std::string& path, std::string_view content, unsigned mode) {
    // A name of its own for each writer: two processes writing the same
    // state file (the lock is the caller's business) must not truncate
    // each other's temporary file and rename half of it into place.
    std::string tmp = path + ".aptus-new.XXXXXX";
    {
        Fd fd(::mkostemp(tmp.data(), O_CLOEXEC));
        if (fd.get() < 0) throw system_error("Could not create", tmp, errno);
        if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0 || ::fchmod(fd.get(), mode) != 0) {
            int err = errno;
            ::unlink(tmp.c_str());
            throw system_error("Could not set the mode of", tmp, err);
        }
        size_t done = 0;
        while (done < content.size()) {
            ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
            if (n < 0) {
                if (errno == EINTR) continue;
                int err = errno;
                ::unlink(tmp.c_str());
                throw system_error("Could not write", tmp, err);
            }
            done += size_t(n);
        }
        if (::fsync(fd.get()) != 0) {
            int err = errno;
            ::unlink(tmp.c_str());
            throw system_error("Could not sync", tmp, err);
        }
        if (::close(fd.release()) != 0) {
            int err = errno;
            ::unlink(tmp.c_str());
            throw system_error("Could not close", tmp, err);
        }
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw system_error("Could not rename into place", path, err);
    }
    // Make the rename itself durable; the new content is in place already.
    sync_directory(parent_dir(path), SyncFailure::Ignore);
    remove_abandoned_temps(path);
}

bool sync_directory(const std::string& dir, SyncFailure on_failure) {
    Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) {
        if (on_failure == SyncFailure::Ignore) return false;
        throw system_error("Could not open directory", dir, errno);
    }
    if (::fsync(fd.get()) != 0) {
        if (on_failure == SyncFailure::Ignore) return false;
        throw system_error("Could not sync directory", dir, errno);
    }
    return true;
}

bool path_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

std::string parent_dir(const std::string& path) {
    auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_directory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void create_apt_directory(const std::string& parent, const std::string& path) {
    if (parent.empty() || path.empty() || is_directory(path)) return;
    std::string base = parent;
    if (base.back() != '/') base += '/';
    if (base.size() > 5 && base.ends_with("/apt/")) base.resize(base.size() - 4);
    if (!is_directory(base) || !path.starts_with(base)) return;
    for (size_t at = base.size(); at <= path.size();) {
        size_t slash = path.find('/', at);
        if (slash == std::string::npos) slash = path.size();
        if (slash > at) {
            std::string dir = path.substr(0, slash);
            if (::mkdir(dir.c_str(), 0755) == 0) {
                // 0755 whatever the umask (an image builder's 027): the
                // directories are apt's, every user reads the lists.
                ::chmod(dir.c_str(), 0755);
            } else if (errno != EEXIST) {
                return;
            }
        }
        at = slash + 1;
    }
}

MappedFile::MappedFile(const std::string& path) : path_(path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) throw system_error("Could not open", path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw system_error("Could not stat", path, errno);
    size_ = size_t(st.st_size);
    identity_ = {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                 int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
                 int64_t(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec};
    if (size_ == 0) return;
    data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (data_ == MAP_FAILED) {
        data_ = nullptr;
        throw system_error("Could not map", path, errno);
    }
}

void MappedFile::drop_resident() const {
    if (data_) ::madvise(data_, size_, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(data_, size_);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      identity_(other.identity_) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        if (data_) ::munmap(data_, size_);
        path_ = std::move(other.path_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        identity_ = other.identity_;
    }
    return *this;
}

ScratchDirectory::ScratchDirectory(std::string_view prefix, const std::string& parent) {
    std::string base = parent;
    if (base.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        base = tmp && *tmp ? tmp : "/tmp";
    }
    std::string pattern = base + "/" + std::string(prefix) + ".XXXXXX";
    if (!::mkdtemp(pattern.data())) throw system_error("Could not create a directory in", base, errno);
    path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace aptus
