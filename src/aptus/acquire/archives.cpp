// .deb files into an archives directory. The order of things is apt's: lock
// the directory, keep what is already there and checks out, fetch the rest
// into partial/ (all at once, through fetch()), and move each file into the
// directory the moment fetch() has matched its size and hash, so an
// interrupted run loses none that finished. What an interrupted transfer
// left in partial/ is continued (an HTTP Range request) and the whole file
// checked as any other; a file that failed its checks leaves nothing.
#include "aptus/acquire/archives.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "aptus/acquire/lists_store.hpp"
#include "aptus/base/error.hpp"
#include "part_file.hpp"
#include "transfer_sink.hpp"
#include "updater.hpp"

namespace aptus::acquire {
namespace {

std::string with_slash(std::string dir) {
    if (dir.empty() || dir.back() != '/') dir += '/';
    return dir;
}

void make_directory(const std::string& dir, mode_t mode) {
    if (::mkdir(dir.c_str(), mode) == 0) {
        ::chmod(dir.c_str(), mode);  // the mode asked for, whatever the umask
        return;
    }
    if (errno == EEXIST) return;
    throw system_error("Unable to create directory", dir, errno);
}

// Under a size or hash failure apt says what it expected, as the E: line
// shows it (the Err: lines indent one step less).
bool is_content_failure(const FetchResult& r) {
    return r.error.rfind("Hash Sum mismatch", 0) == 0 || r.error.rfind("File has unexpected size", 0) == 0;
}

// The name an item is stored under must stay one entry of the directory:
// it is made from the Package, Version and Architecture fields of an index,
// outside data that could otherwise climb out with "/" and "..".
bool is_plain_file_name(std::string_view name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
           name.find('\0') == std::string_view::npos;
}

}  // namespace

std::string archive_file_name(std::string_view package, std::string_view version, std::string_view arch) {
    std::string name(package);
    name += '_';
    for (char c : version) {
        if (c == ':')
            name += "%3a";
        else
            name += c;
    }
    name += '_';
    name += arch;
    name += ".deb";
    return name;
}

bool archive_matches(const std::string& path, uint64_t size, HashAlgo hash, std::string_view hash_hex) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || uint64_t(st.st_size) != size) {
        ::close(fd);
        return false;
    }
    // A file nothing vouches for is never kept: without a hash to compare,
    // it is fetched again.
    if (hash == HashAlgo::None) {
        ::close(fd);
        return false;
    }
    Hasher hasher(hash);
    Hasher* const hashers[] = {&hasher};
    const bool read = hash_descriptor(fd, hashers).has_value();
    ::close(fd);
    return read && hasher.hex() == hash_hex;
}

ArchivesOutcome fetch_archives(const std::vector<ArchiveItem>& items, const std::string& directory,
                               const FetchOptions& options, const UpdateObserver& observer,
                               ArchivesMode mode) {
    const std::string dir = with_slash(directory);
    const bool staged = mode == ArchivesMode::Archives;
    std::optional<ListsLock> lock;
    std::string partial;
    if (staged) {
        make_directory(dir, 0755);
        lock.emplace(dir);
        partial = ensure_partial_dir(dir, options.sandbox ? options.sandbox->uid : uid_t(-1));
    }

    ArchivesOutcome out;
    out.results.resize(items.size());
    std::vector<FetchRequest> requests;
    std::vector<size_t> item_of;  // request index -> item index
    for (size_t i = 0; i < items.size(); ++i) {
        const ArchiveItem& item = items[i];
        ArchiveResult& r = out.results[i];
        if (!is_plain_file_name(item.file_name)) {
            r.status = ArchiveResult::Status::Failed;
            r.error = "Failed to fetch " + item.uri + "  Refusing to store the archive as '" + item.file_name +
                      "': not a plain file name in " + dir;
            out.failed = true;
            continue;
        }
        const std::string final_path = dir + item.file_name;
        // A local repository's .deb is read again each time, as apt reads
        // it in place each time (its Get: line is there on every run); the
        // copy in archives/ is what dpkg gets, so it cannot change under it.
        if (!is_local_uri(item.uri) && archive_matches(final_path, item.size, item.hash, item.hash_hex)) {
            r.status = ArchiveResult::Status::Present;
            r.path = final_path;
            continue;
        }
        FetchRequest req;
        req.uri = item.uri;
        req.destination = final_path;
        if (staged) {
            req.partial = partial + item.file_name;
            req.resume = true;
        }
        req.expected_size = item.size;
        req.hash = item.hash;
        req.hash_hex = item.hash_hex;
        // archive_matches() hashes a .deb again before any later run uses it.
        req.durable = false;
        requests.push_back(std::move(req));
        item_of.push_back(i);
    }
    if (requests.empty()) return out;

    // apt numbers an archive's line when its transfer starts; a failure
    // later is reported under the same number.
    std::vector<unsigned> number(requests.size(), 0);
    unsigned last = 0;
    auto emit = [&](UpdateLine line) {
        if (observer.line) observer.line(line);
    };
    auto callback = [&](const FetchEvent& ev) {
        if (ev.kind == FetchEvent::Started) {
            const ArchiveItem& item = items[item_of[ev.index]];
            number[ev.index] = ++last;
            emit({UpdateLine::Get, number[ev.index], item.label, item.size, {}});
        } else if (ev.kind == FetchEvent::Progress && observer.progress) {
            // A package's name says more than its file's.
            FetchEvent named = ev;
            for (ActiveTransfer& a : named.active) a.name = items[item_of[a.index]].package;
            observer.progress(named);
        }
    };
    const auto started = std::chrono::steady_clock::now();
    std::vector<FetchResult> fetched = fetch(requests, options, callback);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    for (size_t k = 0; k < requests.size(); ++k) {
        const size_t i = item_of[k];
        const ArchiveItem& item = items[i];
        const FetchRequest& req = requests[k];
        const FetchResult& f = fetched[k];
        ArchiveResult& r = out.results[i];
        r.bytes = f.bytes;
        out.fetched_bytes += f.bytes;
        if (f.status == FetchStatus::Ok) {
            r.status = ArchiveResult::Status::Fetched;
            r.path = dir + item.file_name;
            continue;
        }
        r.status = ArchiveResult::Status::Failed;
        r.transient = f.transient;
        out.failed = true;
        std::vector<std::string> details = failure_details(f);
        r.error = failed_to_fetch(item.uri, f);
        if (is_content_failure(f)) {
            r.verification = true;
            // apt's order for an archive: the hash, then the size.
            details.push_back("Hashes of expected file:");
            details.push_back(" - " + std::string(hash_algo_name(req.hash)) + ":" + req.hash_hex);
            details.push_back(" - Filesize:" + std::to_string(item.size) + " [weak]");
            for (size_t d = 1; d < details.size(); ++d) r.error += "\n   " + details[d];
        }
        emit({UpdateLine::Err, number[k] ? number[k] : ++last, item.label, 0, std::move(details)});
    }
    return out;
}

}  // namespace aptus::acquire
