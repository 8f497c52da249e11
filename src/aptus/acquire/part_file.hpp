// The files a transfer writes before they are checked ("<destination>.part")
// and the directories they live in. Nothing already there is trusted: a
// local user who can write the directory may have planted a link or a file
// under the name, so a part file is always made anew (the name removed,
// then created exclusively, never through a link), and the rename that puts
// it in place checks it is still the regular file that was written.
#pragma once

#include <sys/types.h>

#include <string>

namespace aptus::acquire {

// Creates `path` afresh for writing (0644 whatever the umask): whatever had the name (a link,
// a file) is removed first, and the new file is created with O_EXCL and
// O_NOFOLLOW. Throws aptus::Error naming the path.
int create_part_file(const std::string& path);

// The part file an earlier run left at `path`, to be continued: opened for
// reading and writing as it is, when it is a regular file of this user's
// with one link (never through a link); anything else, or nothing there,
// gives a new empty file as create_part_file does. The bytes in it are not
// trusted: whoever continues them hashes them with the rest.
int open_part_file_to_resume(const std::string& path);

// Renames `part` to `destination` once it is still a regular file and,
// when `written_fd` is given, the very file written through it (same
// device and inode): a link or a swapped file is never moved into place.
// Throws aptus::Error.
void place_part_file(const std::string& part, const std::string& destination, int written_fd = -1);

// A file that arrived but failed its checks is set aside as
// "<destination>.FAILED" for the administrator to look at (apt does the
// same): `part` is renamed when it is still the file written through
// `written_fd`, else (nothing was written: the announced length alone was
// refused) an empty marker is made. Never throws: a failure to keep it loses
// nothing, and the part file is removed whatever happens.
void set_aside_failed(const std::string& part, const std::string& destination, int written_fd);

// The files earlier updates set aside in `dir` (*.FAILED) are removed:
// each update starts with only its own.
void remove_failed_files(const std::string& dir);

// A partial directory must be a real directory only its owner can write.
// As root, one owned by root or by `sandbox_uid` (apt leaves its partial
// dirs to its sandbox user) is taken back to root:root 0700, as the
// transfers' files are created by root and only handed to the sandboxed
// downloader as descriptors; any other owner, a link, or a directory group
// or others can write is refused. Not root: refused when group or others
// can write it. Throws aptus::Error naming the directory and what is wrong.
void secure_partial_dir(const std::string& dir, uid_t sandbox_uid = uid_t(-1));

// At the end of a run, as root, a partial directory secure_partial_dir took
// (root:root 0700) is left as apt leaves it: to `sandbox_uid`, group root,
// 0700. Nothing in it is trusted by the next run (secure_partial_dir takes
// it back first, and every part file is made afresh), so this only gives
// back what apt's own layout promises its sandbox user. A link, a changed
// directory or a failed chown leave it as it is; never throws.
void hand_back_partial_dir(const std::string& dir, uid_t sandbox_uid);

}  // namespace aptus::acquire
