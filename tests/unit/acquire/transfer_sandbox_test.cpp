// What a transfer trusts on disk and what it lets a stream become: part
// files made afresh whatever was planted under their name, a rename that
// never moves a link, partial directories others could write refused, the
// decompressed bytes bounded; and, as root, the network transfers run in a
// child as the sandbox user that writes only into descriptors root made.
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/acquire/lists_store.hpp"
#include "aptus/acquire/part_file.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "fetch_test_util.hpp"
#include "loopback_server.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

using test::quick;
using test::sha256;

bool is_link(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

TEST(PartFile, CreateRemovesAPlantedLinkAndLeavesItsTarget) {
    test::TempDir dir("part");
    write_file_atomic(dir.file("victim"), "root's data");
    ASSERT_EQ(::symlink(dir.file("victim").c_str(), dir.file("x.part").c_str()), 0);
    ASSERT_EQ(::symlink(dir.file("missing").c_str(), dir.file("y.part").c_str()), 0);
    for (const char* name : {"x.part", "y.part"}) {
        int fd = create_part_file(dir.file(name));
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::write(fd, "new", 3), 3);
        ::close(fd);
        EXPECT_FALSE(is_link(dir.file(name))) << name;
        EXPECT_EQ(read_file(dir.file(name)), "new");
    }
    EXPECT_EQ(read_file(dir.file("victim")), "root's data");
    EXPECT_FALSE(path_exists(dir.file("missing")));
    // 0644 whatever the umask, as apt's lists and archives.
    mode_t old = ::umask(077);
    ::close(create_part_file(dir.file("z.part")));
    ::umask(old);
    struct stat st {};
    ASSERT_EQ(::stat(dir.file("z.part").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST(PartFile, PlaceNeverMovesALinkOrAnotherFile) {
    test::TempDir dir("part");
    write_file_atomic(dir.file("victim"), "root's data");
    ASSERT_EQ(::symlink(dir.file("victim").c_str(), dir.file("a.part").c_str()), 0);
    EXPECT_THROW(place_part_file(dir.file("a.part"), dir.file("a")), Error);
    EXPECT_FALSE(path_exists(dir.file("a")));
    EXPECT_FALSE(is_link(dir.file("a.part")));

    // Written through fd, then swapped for another file under the same name.
    int fd = create_part_file(dir.file("b.part"));
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::unlink(dir.file("b.part").c_str()), 0);
    write_file_atomic(dir.file("b.part"), "swapped in");
    EXPECT_THROW(place_part_file(dir.file("b.part"), dir.file("b"), fd), Error);
    EXPECT_FALSE(path_exists(dir.file("b")));
    ::close(fd);

    fd = create_part_file(dir.file("c.part"));
    place_part_file(dir.file("c.part"), dir.file("c"), fd);
    ::close(fd);
    EXPECT_TRUE(path_exists(dir.file("c")));
}

TEST(PartFile, PartialDirsOthersCanWriteOrLinksAreRefused) {
    test::TempDir dir("part");
    std::string lists = dir.mkdir("lists");
    ensure_partial_dir(lists);
    ASSERT_EQ(::chmod((lists + "/partial").c_str(), 0777), 0);
    try {
        ensure_partial_dir(lists);
        ADD_FAILURE() << "a world-writable partial dir was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("group or others can write it (mode 0777)"), std::string::npos)
            << e.what();
    }
    std::string other = dir.mkdir("other");
    std::string linked = dir.mkdir("linked");
    ASSERT_EQ(::symlink(other.c_str(), (linked + "/partial").c_str()), 0);
    try {
        ensure_partial_dir(linked);
        ADD_FAILURE() << "a link as the partial dir was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not a directory (a link?)"), std::string::npos) << e.what();
    }
}

TEST(PartFile, RootTakesBackTheSandboxUsersPartialDir) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    const passwd* apt = ::getpwnam("_apt");
    if (!apt) GTEST_SKIP() << "no _apt user";
    test::TempDir dir("part");
    std::string lists = dir.mkdir("lists");
    ensure_partial_dir(lists);
    const std::string partial = lists + "/partial";
    ASSERT_EQ(::chown(partial.c_str(), apt->pw_uid, 0), 0);
    ensure_partial_dir(lists, apt->pw_uid);
    struct stat st {};
    ASSERT_EQ(::stat(partial.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 0u);
    EXPECT_EQ(st.st_mode & 07777, 0700u);
    // Another user's is refused.
    ASSERT_EQ(::chown(partial.c_str(), 65534, 0), 0);
    EXPECT_THROW(ensure_partial_dir(lists, apt->pw_uid), Error);
}

// An xz of `zeros` zero bytes, as a file: URI.
std::string xz_of_zeros(const test::TempDir& dir, size_t zeros) {
    write_file_atomic(dir.file("zeros"), std::string(zeros, '\0'));
    EXPECT_EQ(std::system(("xz -f " + dir.file("zeros")).c_str()), 0);
    return dir.file("zeros.xz");
}

TEST(TransferBounds, DecompressedBytesPastTheAnnouncedSizeStopTheTransfer) {
    test::TempDir dir("bomb");
    std::string packed = read_file(xz_of_zeros(dir, 8 << 20));
    FetchRequest r;
    r.uri = "file:" + dir.file("zeros.xz");
    r.destination = dir.file("out");
    r.expected_size = packed.size();
    r.hash = HashAlgo::Sha256;
    r.hash_hex = sha256(packed);
    r.decompress = Compression::Xz;
    r.expected_output_size = 1000;
    auto results = fetch({r}, quick());
    EXPECT_EQ(results[0].status, FetchStatus::Failed);
    EXPECT_EQ(results[0].error, "Decompressed data larger than expected (more than 1000 bytes). Mirror sync in progress?");
    EXPECT_FALSE(path_exists(dir.file("out")));
    EXPECT_FALSE(path_exists(dir.file("out.part")));

    // Without an announced size, max_output_size bounds it the same way.
    r.expected_output_size.reset();
    r.max_output_size = 1 << 20;
    results = fetch({r}, quick());
    EXPECT_NE(results[0].error.find("more than 1048576 bytes"), std::string::npos) << results[0].error;
    EXPECT_FALSE(path_exists(dir.file("out.part")));

    // Fewer bytes than announced: the size check at the end.
    r.max_output_size = 0;
    r.expected_output_size = (8 << 20) + 1;
    results = fetch({r}, quick());
    EXPECT_EQ(results[0].error, "Hash Sum mismatch");  // apt's word: the uncompressed entry's Filesize
    r.expected_output_size = 8 << 20;
    results = fetch({r}, quick());
    EXPECT_EQ(results[0].status, FetchStatus::Ok) << results[0].error;
}

TEST(TransferSandbox, NetworkTransfersRunAsTheSandboxUserIntoRootsFiles) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    const passwd* apt = ::getpwnam("_apt");
    if (!apt) GTEST_SKIP() << "no _apt user";
    test::TempDir root("sandbox-root");
    test::TempDir out("sandbox-out");
    ASSERT_EQ(::chmod(out.path().c_str(), 0700), 0);  // _apt cannot enter it
    test::LoopbackServer server(root.path());
    std::vector<FetchRequest> requests;
    for (int i = 0; i < 6; ++i) {
        std::string content(size_t(5000 + i), char('a' + i));
        write_file_atomic(root.file("f" + std::to_string(i)), content);
        FetchRequest r;
        r.uri = server.url() + "/f" + std::to_string(i);
        r.destination = out.file("f" + std::to_string(i));
        r.expected_size = content.size();
        r.hash = HashAlgo::Sha256;
        r.hash_hex = sha256(i == 5 ? "other" : content);  // the last one fails its hash
        requests.push_back(r);
    }
    // And a file: request, which stays with root.
    write_file_atomic(root.file("local"), "local data");
    FetchRequest local;
    local.uri = "file:" + root.file("local");
    local.destination = out.file("local");
    requests.push_back(local);

    FetchOptions o = quick();
    o.sandbox = SandboxUser{"_apt", apt->pw_uid, apt->pw_gid};
    size_t started = 0, finished = 0;
    auto results = fetch(requests, o, [&](const FetchEvent& ev) {
        if (ev.kind == FetchEvent::Started) ++started;
        if (ev.kind == FetchEvent::Finished) {
            ++finished;
            EXPECT_LT(ev.index, requests.size());
            EXPECT_EQ(ev.total, requests.size());
        }
    });
    EXPECT_EQ(started, requests.size());
    EXPECT_EQ(finished, requests.size());
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(results[i].status, FetchStatus::Ok) << i << ": " << results[i].error;
        struct stat st {};
        ASSERT_EQ(::lstat(requests[i].destination.c_str(), &st), 0);
        EXPECT_TRUE(S_ISREG(st.st_mode));
        EXPECT_EQ(st.st_uid, 0u) << "root made the file, the child only wrote into it";
        EXPECT_EQ(read_file(requests[i].destination), read_file(root.file("f" + std::to_string(i))));
    }
    EXPECT_EQ(results[5].status, FetchStatus::Failed);
    EXPECT_EQ(results[5].error, "Hash Sum mismatch");
    EXPECT_FALSE(path_exists(out.file("f5")));
    EXPECT_FALSE(path_exists(out.file("f5.part")));
    EXPECT_EQ(results[6].status, FetchStatus::Ok) << results[6].error;
    EXPECT_EQ(read_file(out.file("local")), "local data");

    // A destination directory that does not exist stops the run with an
    // error naming it, as in one process.
    FetchRequest lost = requests[0];
    lost.destination = out.file("no/such/dir/f0");
    EXPECT_THROW(fetch({lost}, o), Error);
}

TEST(TransferSandbox, OptionsFromConfiguration) {
    config::Config c;
    c.set("APT::Sandbox::User", "aptus-no-such-user");
    FetchOptions o = fetch_options(c);
    if (::geteuid() != 0) {
        EXPECT_FALSE(o.sandbox);
        EXPECT_TRUE(o.sandbox_warning.empty());
        return;
    }
    EXPECT_FALSE(o.sandbox);
    EXPECT_EQ(o.sandbox_warning, "No sandbox user 'aptus-no-such-user' on the system, can not drop privileges");
    c.set("APT::Sandbox::User", "root");
    o = fetch_options(c);
    EXPECT_FALSE(o.sandbox);
    EXPECT_TRUE(o.sandbox_warning.empty());
    if (::getpwnam("_apt")) {
        c.set("APT::Sandbox::User", "_apt");
        o = fetch_options(c);
        ASSERT_TRUE(o.sandbox);
        EXPECT_EQ(o.sandbox->name, "_apt");
    }
}

}  // namespace
}  // namespace aptus::acquire
