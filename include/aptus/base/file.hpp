// Reading and writing whole files. Writes are atomic: a temporary file in
// the same directory, fsync, rename, fsync of the directory, so a reader or a
// crash sees the old content or the new, never a mix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace aptus {

// The whole file as a string; throws aptus::Error naming the path.
std::string read_file(const std::string& path);

// Replace `path` with `content` atomically: temp file, fsync, rename,
// directory sync. Each writer's temporary file has
// a name of its own ("<path>.aptus-new.XXXXXX") and is flocked while written.
void write_file_atomic(const std::string& path, std::string_view content, unsigned mode = 0644);
// Removes the "<path>.aptus-new.*" files a writer killed mid-way left: those
// more than a minute old that no writer holds locked.
void remove_abandoned_temps(const std::string& path);

// fsync a directory, so the renames and removals in it survive a crash.
// Throw: an aptus::Error naming the directory when it cannot be opened or
// synced. Ignore: return false instead, for callers whose work is already
// done and for whom durability is a best effort.
enum class SyncFailure : unsigned char { Throw, Ignore };
bool sync_directory(const std::string& dir, SyncFailure on_failure = SyncFailure::Throw);

// "/a/b/c" -> "/a/b" ("." without a slash, "/" for "/c"); -> "c".
std::string parent_dir(const std::string& path);
std::string base_name(const std::string& path);

bool path_exists(const std::string& path);
bool is_directory(const std::string& path);

// apt's rule for its own directories (Dir::State::lists, Dir::Cache::archives):
// `path` and every missing directory between it and `parent` are created
// (0755), provided `parent` exists; a parent ending in "/apt/" only needs the
// directory above it (/var/lib/apt/lists is made when /var/lib exists).
// Anything else is left alone, for the caller's own error later.
void create_apt_directory(const std::string& parent, const std::string& path);

// A directory of its own ("<prefix>.XXXXXX" under `parent`, else $TMPDIR,
// else /tmp), removed with all it holds when this goes.
class ScratchDirectory {
public:
    explicit ScratchDirectory(std::string_view prefix, const std::string& parent = "");
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// A read-only memory mapping of a whole file. Empty files map to an empty view.
// What fstat says identifies one version of a file: any change of its
// contents through the file system (a write, a truncation, a file renamed
// over it) changes the inode, the size or the change time, which no
// unprivileged call can set back.
struct FileIdentity {
    uint64_t device = 0, inode = 0, size = 0;
    int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const FileIdentity&) const = default;
};

class MappedFile {
public:
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;

    std::string_view view() const { return {static_cast<const char*>(data_), size_}; }
    const std::string& path() const { return path_; }
    // Takes the pages read so far out of the process's resident memory
    // (madvise MADV_DONTNEED): the mapping and every pointer into it stay
    // valid, a page touched again is mapped again from the page cache. The
    // mapping is read-only, so no page of it holds anything the file does not
    // (pages never written share the page cache's, on Linux, before as after).
    void drop_resident() const;
    // The file as it was when it was mapped.
    const FileIdentity& identity() const { return identity_; }

private:
    std::string path_;
    void* data_ = nullptr;
    size_t size_ = 0;
    FileIdentity identity_;
};

}  // namespace aptus
