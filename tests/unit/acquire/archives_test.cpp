// fetch_archives(): .deb files from the loopback server into an archives
// directory through partial/, checked before they land; files already there
// and right are not asked for again, wrong ones are replaced, a file whose
// hash does not match never lands, and the directory's lock is apt's.
#include "aptus/acquire/archives.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "fetch_test_util.hpp"
#include "loopback_server.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

using test::sha256;

using test::quick;

// A pool file on the server and the item that names it.
ArchiveItem serve(const test::TempDir& root, const test::LoopbackServer& server, const std::string& name,
                  const std::string& version, const std::string& content) {
    ArchiveItem item;
    item.package = name;
    item.version = version;
    item.architecture = "amd64";
    item.file_name = archive_file_name(name, version, "amd64");
    write_file_atomic(root.file(item.file_name), content);
    // The path as apt's http method quotes it: the '%' of "%3a" is "%25".
    std::string quoted;
    for (char c : item.file_name) quoted += c == '%' ? std::string("%25") : std::string(1, c);
    item.uri = server.url() + "/" + quoted;
    item.size = content.size();
    item.hash = HashAlgo::Sha256;
    item.hash_hex = sha256(content);
    item.label = server.url() + " stable/main amd64 " + name + " amd64 " + version;
    return item;
}

std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

struct Recorded {
    std::vector<UpdateLine> lines;
    UpdateObserver observer() {
        UpdateObserver o;
        o.line = [this](const UpdateLine& l) { lines.push_back(l); };
        return o;
    }
};

TEST(Archives, FileNameEscapesTheEpoch) {
    EXPECT_EQ(archive_file_name("hello", "2.10-3", "amd64"), "hello_2.10-3_amd64.deb");
    EXPECT_EQ(archive_file_name("world", "2:2.0~rc1+b1", "all"), "world_2%3a2.0~rc1+b1_all.deb");
}

TEST(Archives, FetchedThroughPartialThenKept) {
    test::TempDir root("pool"), cache("archives");
    test::LoopbackServer server(root.path());
    ASSERT_FALSE(server.url().empty());
    std::vector<ArchiveItem> items = {serve(root, server, "hello", "1.0", std::string(3000, 'h')),
                                      serve(root, server, "world", "2:2.0", std::string(5000, 'w'))};
    const std::string dir = cache.file("archives");
    Recorded rec;
    ArchivesOutcome out = fetch_archives(items, dir, quick(), rec.observer());
    ASSERT_EQ(out.results.size(), 2u);
    ASSERT_FALSE(out.failed) << out.results[0].error << out.results[1].error;
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(out.results[i].status, ArchiveResult::Status::Fetched) << out.results[i].error;
        EXPECT_EQ(out.results[i].path, dir + "/" + items[i].file_name);
        EXPECT_EQ(read_file(out.results[i].path), read_file(root.file(items[i].file_name)));
    }
    EXPECT_EQ(out.fetched_bytes, 8000u);
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"hello_1.0_amd64.deb", "lock", "partial",
                                                       "world_2%3a2.0_amd64.deb"}));
    EXPECT_TRUE(names_in(dir + "/partial").empty());
    ASSERT_EQ(rec.lines.size(), 2u);
    std::set<std::string> labels;
    for (unsigned n = 0; n < 2; ++n) {
        EXPECT_EQ(rec.lines[n].kind, UpdateLine::Get);
        EXPECT_EQ(rec.lines[n].number, n + 1);
        labels.insert(rec.lines[n].description);
    }
    EXPECT_EQ(labels, (std::set<std::string>{items[0].label, items[1].label}));

    // Again: both are there and right, so nothing is asked for or shown.
    server.clear_log();
    Recorded again;
    out = fetch_archives(items, dir, quick(), again.observer());
    EXPECT_FALSE(out.failed);
    for (const auto& r : out.results) EXPECT_EQ(r.status, ArchiveResult::Status::Present);
    EXPECT_TRUE(again.lines.empty());
    EXPECT_EQ(server.log(), "");
    EXPECT_EQ(out.fetched_bytes, 0u);
}

TEST(Archives, WrongFileInPlaceIsReplacedAndStalePartialIgnored) {
    test::TempDir root("pool"), dir("archives");
    test::LoopbackServer server(root.path());
    ArchiveItem item = serve(root, server, "hello", "1.0", std::string(3000, 'h'));
    write_file_atomic(dir.file(item.file_name), std::string(3000, 'x'));  // right size, wrong bytes
    std::filesystem::create_directory(dir.file("partial"));
    write_file_atomic(dir.file("partial/" + item.file_name), "junk an earlier run left");
    ArchivesOutcome out = fetch_archives({item}, dir.path(), quick());
    ASSERT_EQ(out.results[0].status, ArchiveResult::Status::Fetched) << out.results[0].error;
    EXPECT_EQ(read_file(dir.file(item.file_name)), std::string(3000, 'h'));
    EXPECT_TRUE(names_in(dir.file("partial")).empty());
    EXPECT_NE(server.log().find("GET /" + item.file_name + " 200"), std::string::npos);
}

TEST(Archives, HashMismatchLandsNowhere) {
    test::TempDir root("pool"), dir("archives");
    test::LoopbackServer server(root.path());
    ArchiveItem good = serve(root, server, "good", "1", "good content");
    ArchiveItem bad = serve(root, server, "bad", "1", "the real one");
    // Same length, other bytes: only the hash can tell.
    server.misbehave(R"({"/bad_1_amd64.deb": {"body": "a tampered!!"}})");
    Recorded rec;
    ArchivesOutcome out = fetch_archives({good, bad}, dir.path(), quick(), rec.observer());
    EXPECT_TRUE(out.failed);
    EXPECT_EQ(out.results[0].status, ArchiveResult::Status::Fetched);
    ASSERT_EQ(out.results[1].status, ArchiveResult::Status::Failed);
    EXPECT_EQ(out.results[1].path, "");
    // A file that arrived and failed its check names no server (apt).
    EXPECT_EQ(out.results[1].error.rfind("Failed to fetch " + bad.uri + "  Hash Sum mismatch\n", 0), 0u)
        << out.results[1].error;
    EXPECT_NE(out.results[1].error.find("\n   Hashes of expected file:\n    - SHA256:" + bad.hash_hex +
                                        "\n    - Filesize:12 [weak]"),
              std::string::npos)
        << out.results[1].error;
    EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"good_1_amd64.deb", "lock", "partial"}));
    EXPECT_TRUE(names_in(dir.file("partial")).empty());
    // The Err line keeps its Get's number.
    unsigned get_number = 0;
    const UpdateLine* err = nullptr;
    for (const auto& l : rec.lines) {
        if (l.kind == UpdateLine::Get && l.description == bad.label) get_number = l.number;
        if (l.kind == UpdateLine::Err) err = &l;
    }
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(err->number, get_number);
    EXPECT_EQ(err->description, bad.label);
    ASSERT_GE(err->details.size(), 3u);
    EXPECT_EQ(err->details[0], "Hash Sum mismatch");
    EXPECT_EQ(err->details[1], "Hashes of expected file:");
}

TEST(Archives, NotFoundIsApt404) {
    test::TempDir root("pool"), dir("archives");
    test::LoopbackServer server(root.path());
    ArchiveItem item = serve(root, server, "gone", "1", "whatever");
    std::filesystem::remove(root.file(item.file_name));
    ArchivesOutcome out = fetch_archives({item}, dir.path(), quick());
    ASSERT_EQ(out.results[0].status, ArchiveResult::Status::Failed);
    EXPECT_EQ(out.results[0].error.rfind("Failed to fetch " + item.uri + "  404  ", 0), 0u) << out.results[0].error;
    EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"lock", "partial"}));
}

TEST(Archives, LockHeldByAnotherProcess) {
    test::TempDir dir("archives");
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t child = fork();
    if (child == 0) {
        int fd = ::open((dir.path() + "/lock").c_str(), O_RDWR | O_CREAT, 0640);
        struct flock fl {};
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        if (fd < 0 || ::fcntl(fd, F_SETLK, &fl) != 0) _exit(1);
        (void)!write(ready[1], "x", 1);
        pause();
        _exit(0);
    }
    close(ready[1]);
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    close(ready[0]);
    ArchiveItem item;
    item.file_name = "x_1_amd64.deb";
    item.uri = "file:///nonexistent/x_1_amd64.deb";
    try {
        fetch_archives({item}, dir.path(), quick());
        ADD_FAILURE() << "no error with the lock held";
    } catch (const Error& e) {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind("Could not get lock " + dir.path() + "/lock. It is held by process " +
                                std::to_string(child),
                            0),
                  0u)
            << msg;
        EXPECT_NE(msg.find("\nUnable to lock directory " + dir.path() + "/"), std::string::npos) << msg;
    }
    kill(child, SIGTERM);
    waitpid(child, nullptr, 0);
}

TEST(Archives, PlainDirectoryHasNoLockNorPartial) {
    test::TempDir root("pool"), dir("cwd");
    test::LoopbackServer server(root.path());
    ArchiveItem item = serve(root, server, "hello", "1.0", "deb bytes");
    ArchivesOutcome out = fetch_archives({item}, dir.path(), quick(), {}, ArchivesMode::Plain);
    ASSERT_EQ(out.results[0].status, ArchiveResult::Status::Fetched) << out.results[0].error;
    EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"hello_1.0_amd64.deb"});
}

TEST(Archives, FileUriAndMatching) {
    test::TempDir dir("archives");
    write_file_atomic(dir.file("src.deb"), "local archive");
    ArchiveItem item;
    item.file_name = "local_1_all.deb";
    item.uri = "file:" + dir.file("src.deb");
    item.size = 13;
    item.hash = HashAlgo::Sha256;
    item.hash_hex = sha256("local archive");
    ArchivesOutcome out = fetch_archives({item}, dir.file("archives"), quick());
    ASSERT_EQ(out.results[0].status, ArchiveResult::Status::Fetched) << out.results[0].error;
    EXPECT_TRUE(archive_matches(out.results[0].path, 13, HashAlgo::Sha256, item.hash_hex));
    EXPECT_FALSE(archive_matches(out.results[0].path, 12, HashAlgo::Sha256, item.hash_hex));
    EXPECT_FALSE(archive_matches(out.results[0].path, 13, HashAlgo::Sha256, sha256("other")));
    EXPECT_FALSE(archive_matches(out.results[0].path, 13, HashAlgo::None, ""));
    EXPECT_FALSE(archive_matches(dir.file("missing"), 13, HashAlgo::Sha256, item.hash_hex));
}

}  // namespace
}  // namespace aptus::acquire
