#include "index_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"

namespace aptus::cache::detail {

IndexText::IndexText(const std::string& path) : path_(path) {
    if (compression_from_path(path) != Compression::None) {
        data_ = read_decompressed(path);
        size_ = data_.size();
        return;
    }
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw system_error("Could not open", path, errno);
    struct stat sb {};
    if (::fstat(fd_, &sb) != 0) {
        int err = errno;
        ::close(fd_);
        throw system_error("Could not stat", path, err);
    }
    size_ = size_t(sb.st_size);
    // Read ahead of the parser: the whole file is read once, in order.
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
}

IndexText::~IndexText() {
    if (fd_ >= 0) ::close(fd_);
}

std::string_view IndexText::read(size_t offset, size_t length, std::string& buffer) const {
    if (offset >= size_) return {};
    length = std::min(length, size_ - offset);
    if (fd_ < 0) return std::string_view(data_).substr(offset, length);
    if (buffer.size() < length) buffer.resize(length);
    size_t got = 0;
    while (got < length) {
        ssize_t n = ::pread(fd_, buffer.data() + got, length - got, off_t(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw system_error("Could not read", path_, errno);
        if (n == 0) throw file_error(path_, 0, "the file shrank while it was read");
        got += size_t(n);
    }
    return std::string_view(buffer.data(), length);
}

}  // namespace aptus::cache::detail
