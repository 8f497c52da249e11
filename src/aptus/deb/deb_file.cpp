#include "aptus/deb/deb_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string_view>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"

namespace aptus::deb {
namespace {

// A control member is small (dpkg's own are a few kB; maintainer scripts
// included, rarely above a MB): anything larger is not read into memory.
constexpr uint64_t kControlMemberLimit = 64ull << 20;

// The ar format: an 8-byte magic, then for each member a 60-byte header
// (name 16, date 12, uid 6, gid 6, mode 8, size 10, "`\n"), the member's
// bytes, and a padding byte after an odd size.
constexpr std::string_view kArMagic = "!<arch>\n";
constexpr size_t kArHeader = 60;

const char* const kNoControl = "Internal error, could not locate member control.tar{.zst,.lz4,.gz,.xz,.bz2,.lzma,}";

class FileReader {
public:
    explicit FileReader(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
        if (fd_ < 0) throw system_error("cannot open", path, errno);
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd_);
            throw Error("Invalid archive signature");
        }
        size_ = uint64_t(st.st_size);
    }
    ~FileReader() { ::close(fd_); }
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;

    uint64_t size() const { return size_; }
    // Exactly `length` bytes at `offset`, or nothing when the file is shorter.
    std::optional<std::string> read(uint64_t offset, size_t length) const {
        if (offset > size_ || length > size_ - offset) return std::nullopt;
        std::string out(length, '\0');
        size_t done = 0;
        while (done < length) {
            ssize_t n = ::pread(fd_, out.data() + done, length - done, off_t(offset + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return std::nullopt;
            done += size_t(n);
        }
        return out;
    }

private:
    int fd_;
    uint64_t size_ = 0;
};

std::string_view trim_right(std::string_view s, std::string_view chars) {
    while (!s.empty() && chars.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
    return s;
}

std::optional<uint64_t> parse_number(std::string_view text, int base) {
    text = trim_right(text, std::string_view(" \0", 2));
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    uint64_t value = 0;
    for (char c : text) {
        int digit = c - '0';
        if (digit < 0 || digit >= base) return std::nullopt;
        if (value > (UINT64_MAX - uint64_t(digit)) / uint64_t(base)) return std::nullopt;
        value = value * uint64_t(base) + uint64_t(digit);
    }
    return value;
}

std::optional<Compression> control_member_compression(std::string_view name) {
    name = trim_right(name, " ");
    if (name.ends_with('/')) name.remove_suffix(1);  // GNU ar ends names with '/'
    if (name == "control.tar") return Compression::None;
    if (!name.starts_with("control.tar.")) return std::nullopt;
    Compression c = compression_from_path(name);
    return c == Compression::None ? std::nullopt : std::optional<Compression>(c);
}

// The file ./control of a tar stream (ustar or GNU; only regular members).
std::optional<std::string> control_from_tar(std::string_view tar) {
    constexpr size_t kBlock = 512;
    size_t at = 0;
    std::string long_name;  // a GNU 'L' record names the member after it
    while (at + kBlock <= tar.size()) {
        std::string_view header = tar.substr(at, kBlock);
        if (header.find_first_not_of('\0') == std::string_view::npos) break;  // the end blocks
        auto size = parse_number(header.substr(124, 12), 8);
        if (!size || *size > tar.size()) return std::nullopt;
        const char type = header[156];
        std::string name;
        if (!long_name.empty()) {
            name = std::move(long_name);
            long_name.clear();
        } else {
            std::string_view n = header.substr(0, 100);
            name = std::string(n.substr(0, n.find('\0')));
            if (header.substr(257, 5) == "ustar") {
                std::string_view prefix = header.substr(345, 155);
                prefix = prefix.substr(0, prefix.find('\0'));
                if (!prefix.empty()) name = std::string(prefix) + "/" + name;
            }
        }
        const size_t body = at + kBlock;
        if (body + *size > tar.size()) return std::nullopt;
        std::string_view content = tar.substr(body, size_t(*size));
        if (type == 'L') {
            long_name = std::string(content.substr(0, content.find('\0')));
        } else if ((type == '0' || type == '\0') && (name == "./control" || name == "control")) {
            return std::string(content);
        }
        at = body + (size_t(*size) + kBlock - 1) / kBlock * kBlock;
    }
    return std::nullopt;
}

}  // namespace

std::string read_deb_control(const std::string& path) {
    FileReader file(path);
    auto magic = file.read(0, kArMagic.size());
    if (!magic || *magic != kArMagic) throw Error("Invalid archive signature").add_followup(kNoControl);
    uint64_t at = kArMagic.size();
    while (at + kArHeader <= file.size()) {
        auto header = file.read(at, kArHeader);
        if (!header || header->substr(58, 2) != "`\n") throw Error("Invalid archive member header");
        auto size = parse_number(std::string_view(*header).substr(48, 10), 10);
        if (!size) throw Error("Invalid archive member header");
        const uint64_t body = at + kArHeader;
        if (auto compression = control_member_compression(std::string_view(*header).substr(0, 16))) {
            if (*size > kControlMemberLimit) throw Error("The control member of " + path + " is too large");
            auto bytes = file.read(body, size_t(*size));
            if (!bytes) throw Error("Invalid archive member header");
            std::string tar = *compression == Compression::None ? std::move(*bytes)
                                                                : decompress(*bytes, *compression, path);
            if (auto control = control_from_tar(tar)) return std::move(*control);
            throw Error("The control member of " + path + " holds no control file");
        }
        at = body + *size + (*size & 1);
    }
    throw Error(kNoControl);
}

}  // namespace aptus::deb
