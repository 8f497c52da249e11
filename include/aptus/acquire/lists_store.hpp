// The lists directory as update changes it: apt's lock file, the partial/
// directory new files are fetched into, and the moves that replace one
// repository's files at once. apt reads the same directory, so names,
// compression and the lock are apt's.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace aptus::acquire {

// apt's lock on the lists dir: an fcntl write lock on "<lists>/lock",
// held while the object lives. Throws aptus::Error with apt's message when
// another process holds it.
class ListsLock {
public:
    explicit ListsLock(const std::string& lists_dir);
    ~ListsLock();
    ListsLock(const ListsLock&) = delete;
    ListsLock& operator=(const ListsLock&) = delete;

private:
    int fd_ = -1;
};

// "<lists>/partial/", created when missing (mode 0700, as apt's), and
// checked: a link, or a directory group or others can write, or (as root)
// one owned by anyone but root or `sandbox_uid` is refused with an
// aptus::Error; as root, it is taken back to root:root 0700 (part_file.hpp).
// With `secure` false it is only created when missing (update does that
// before its lock, as apt does, and secures it once it holds the lock).
std::string ensure_partial_dir(const std::string& lists_dir, uid_t sandbox_uid = uid_t(-1), bool secure = true);

// The lists-dir name of a file fetched into partial/: "<lists>/partial/<base name>".
std::string partial_path(const std::string& lists_dir, const std::string& final_path);

// One file to move from partial/ into the lists dir.
struct ListsMove {
    std::string from, to;  // both empty: nothing arrives, `replaces` only go
    // Other names that must go when `to` arrives (the same index in another
    // compression, or InRelease replacing Release + Release.gpg).
    std::vector<std::string> replaces;
    std::optional<std::time_t> mtime;  // the server's Last-Modified, for later If-Modified-Since
};

// Renames every file into place (indices before the Release file that
// vouches for them: callers order `moves` so), then removes what they
// replace, then syncs the directory. Throws aptus::Error on a failed rename.
void commit_moves(const std::string& lists_dir, const std::vector<ListsMove>& moves);

// commit_moves without the directory sync, for a caller that moves several
// repositories' files in one burst and syncs once at the end.
void move_into_place(const std::vector<ListsMove>& moves);

// Removes the partial files of a repository that failed.
void discard_partial(const std::vector<ListsMove>& moves);

// Regular files of the lists dir that are not in `keep` (full paths, any
// compression suffix of a kept name counts as kept) and are not the lock:
// lists of sources no longer configured. Removes them and returns their names.
std::vector<std::string> remove_unlisted(const std::string& lists_dir, const std::set<std::string>& keep);

}  // namespace aptus::acquire
