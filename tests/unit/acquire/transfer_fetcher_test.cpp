// fetch(): file: URIs and a real HTTP server on loopback (the update tests'
// misbehaving server), checking that a file reaches its destination only
// when size and hash match, that limits cut transfers off, that
// If-Modified-Since leaves files alone, and that many transfers run at once.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/base/file.hpp"
#include "fetch_test_util.hpp"
#include "loopback_server.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

using test::sha256;

using test::quick;

FetchRequest checked(const std::string& uri, const std::string& dest, std::string_view content) {
    FetchRequest r;
    r.uri = uri;
    r.destination = dest;
    r.expected_size = content.size();
    r.hash = HashAlgo::Sha256;
    r.hash_hex = sha256(content);
    return r;
}

TEST(TransferFetcher, FileUriCheckedAndDecompressed) {
    test::TempDir dir("fetch");
    const std::string text = "Package: a\nVersion: 1\n";
    write_file_atomic(dir.file("Packages"), text);
    ASSERT_EQ(std::system(("xz -k " + dir.file("Packages")).c_str()), 0);
    std::string packed = read_file(dir.file("Packages.xz"));
    FetchRequest r = checked("file:" + dir.file("Packages.xz"), dir.file("out"), packed);
    r.decompress = Compression::Xz;
    auto results = fetch({r}, quick());
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, FetchStatus::Ok) << results[0].error;
    EXPECT_EQ(results[0].bytes, packed.size());
    EXPECT_EQ(read_file(dir.file("out")), text);
    EXPECT_FALSE(path_exists(dir.file("out.part")));
}

TEST(TransferFetcher, WrongHashLeavesNothing) {
    test::TempDir dir("fetch");
    write_file_atomic(dir.file("src"), "real content");
    FetchRequest r = checked("file://" + dir.file("src"), dir.file("out"), "fake content");
    auto results = fetch({r}, quick());
    EXPECT_EQ(results[0].status, FetchStatus::Failed);
    EXPECT_EQ(results[0].error, "Hash Sum mismatch");
    EXPECT_FALSE(path_exists(dir.file("out")));
    EXPECT_FALSE(path_exists(dir.file("out.part")));
}

TEST(TransferFetcher, NeverMoreThanAnnounced) {
    test::TempDir dir("fetch");
    write_file_atomic(dir.file("src"), std::string(10000, 'x'));
    FetchRequest r;
    r.uri = "copy:" + dir.file("src");
    r.destination = dir.file("out");
    r.max_size = 4096;
    auto results = fetch({r}, quick());
    EXPECT_EQ(results[0].status, FetchStatus::Failed);
    EXPECT_NE(results[0].error.find("Writing more data than expected"), std::string::npos) << results[0].error;
    EXPECT_LE(results[0].bytes, 4096u);
    EXPECT_FALSE(path_exists(dir.file("out")));
}

TEST(TransferFetcher, WrongSizeFails) {
    test::TempDir dir("fetch");
    write_file_atomic(dir.file("src"), "short");
    FetchRequest r;
    r.uri = "file:" + dir.file("src");
    r.destination = dir.file("out");
    r.expected_size = 10;
    auto results = fetch({r}, quick());
    EXPECT_EQ(results[0].status, FetchStatus::Failed);
    EXPECT_EQ(results[0].error, "File has unexpected size (5 != 10). Mirror sync in progress?");
}

// A request that keeps what failed its checks leaves it as .FAILED (what
// arrived, for the administrator); one that did not arrive leaves nothing.
TEST(TransferFetcher, KeepFailedSetsAsideWhatFailedItsChecks) {
    test::TempDir dir("fetch");
    write_file_atomic(dir.file("src"), "not what was announced");
    FetchRequest r;
    r.uri = "copy:" + dir.file("src");
    r.destination = dir.file("out");
    r.hash = HashAlgo::Sha256;
    r.hash_hex = std::string(64, '0');
    r.keep_failed = true;
    FetchRequest missing = r;
    missing.uri = "copy:" + dir.file("nothing");
    missing.destination = dir.file("gone");
    auto results = fetch({r, missing}, quick());
    EXPECT_EQ(results[0].error, "Hash Sum mismatch");
    // What arrived, as apt shows it under "Hashes of received file:".
    EXPECT_EQ(results[0].received_hash_hex, "7b68762bab98b13ab2d4da0f15a3d1b492069d194b645ac3f2e77ce994fdafa1");
    EXPECT_FALSE(path_exists(dir.file("out")));
    EXPECT_FALSE(path_exists(dir.file("out.part")));
    EXPECT_EQ(read_file(dir.file("out.FAILED")), "not what was announced");
    EXPECT_EQ(results[1].status, FetchStatus::Failed);
    EXPECT_FALSE(path_exists(dir.file("gone.FAILED")));
}

TEST(TransferFetcher, FileNotModifiedAndNotFound) {
    test::TempDir dir("fetch");
    write_file_atomic(dir.file("src"), "x");
    write_file_atomic(dir.file("out"), "old");
    FetchRequest r;
    r.uri = "file:" + dir.file("src");
    r.destination = dir.file("out");
    r.if_modified_since = std::time(nullptr) + 60;
    FetchRequest missing;
    missing.uri = "file:" + dir.file("nothing-here");
    missing.destination = dir.file("out2");
    auto results = fetch({r, missing}, quick());
    EXPECT_EQ(results[0].status, FetchStatus::NotModified);
    EXPECT_EQ(read_file(dir.file("out")), "old");
    EXPECT_EQ(results[1].status, FetchStatus::Failed);
    EXPECT_TRUE(results[1].not_found);
}

using Server = test::LoopbackServer;

TEST(TransferFetcher, HttpManyAtOnceWithIfModifiedSince) {
    test::TempDir root("http-root");
    std::vector<FetchRequest> requests;
    test::TempDir out("http-out");
    Server server(root.path());
    ASSERT_FALSE(server.url().empty());
    for (int i = 0; i < 40; ++i) {
        std::string name = "f" + std::to_string(i);
        std::string content = std::string(size_t(1000 + i * 37), char('a' + i % 26));
        write_file_atomic(root.file(name), content);
        requests.push_back(checked(server.url() + "/" + name, out.file(name), content));
    }
    size_t finished = 0;
    auto results = fetch(requests, quick(), [&](const FetchEvent& ev) {
        if (ev.kind == FetchEvent::Finished) ++finished;
    });
    EXPECT_EQ(finished, requests.size());
    for (size_t i = 0; i < results.size(); ++i) {
        EXPECT_EQ(results[i].status, FetchStatus::Ok) << i << ": " << results[i].error;
        EXPECT_EQ(read_file(requests[i].destination), read_file(root.file("f" + std::to_string(i))));
        EXPECT_NE(results[i].peer.find("[IP: 127.0.0.1 "), std::string::npos);
        ASSERT_TRUE(results[i].last_modified);
    }
    // Asked again with the server's own time: 304, files untouched.
    for (size_t i = 0; i < requests.size(); ++i) requests[i].if_modified_since = results[i].last_modified;
    write_file_atomic(out.file("f0"), "kept");
    auto again = fetch(requests, quick());
    for (const auto& r : again) EXPECT_EQ(r.status, FetchStatus::NotModified) << r.error;
    EXPECT_EQ(read_file(out.file("f0")), "kept");
}

TEST(TransferFetcher, HttpFailuresAreResults) {
    test::TempDir root("http-root");
    test::TempDir out("http-out");
    write_file_atomic(root.file("a"), "hello");
    Server server(root.path());
    server.misbehave(R"({"/a": {"status": 404}, "/b": {"endless": true}, "/c": {"redirect": "/c"}})");
    FetchRequest a = checked(server.url() + "/a", out.file("a"), "hello");
    FetchRequest b;
    b.uri = server.url() + "/b";
    b.destination = out.file("b");
    b.max_size = 100000;
    FetchRequest c = checked(server.url() + "/c", out.file("c"), "hello");
    auto results = fetch({a, b, c}, quick());
    EXPECT_TRUE(results[0].not_found);
    EXPECT_EQ(results[0].error, "404  Not Found");
    EXPECT_NE(results[1].error.find("Writing more data than expected"), std::string::npos) << results[1].error;
    EXPECT_NE(results[2].error.find("redirects followed"), std::string::npos) << results[2].error;
    for (const char* name : {"a", "b", "c"}) EXPECT_FALSE(path_exists(out.file(name))) << name;
}

TEST(TransferFetcher, TransientErrorsAreRetried) {
    test::TempDir root("http-root");
    test::TempDir out("http-out");
    write_file_atomic(root.file("a"), "hello");
    Server server(root.path());
    server.misbehave(R"({"/a": {"status": 503}})");
    FetchOptions o = quick();
    o.retries = 2;
    o.retry_delay = false;
    auto results = fetch({checked(server.url() + "/a", out.file("a"), "hello")}, o);
    EXPECT_EQ(results[0].status, FetchStatus::Failed);
    EXPECT_EQ(results[0].attempts, 3u);
    std::string log = server.log();
    size_t count = 0;
    for (size_t p = 0; (p = log.find("GET /a 503", p)) != std::string::npos; ++p) ++count;
    EXPECT_EQ(count, 3u);
}

TEST(TransferFetcher, OptionsFromConfiguration) {
    config::Config c;
    c.set("Acquire::Retries", "5");
    c.set("Acquire::http::Proxy", "http://proxy.invalid:3128");
    c.set("Acquire::https::Proxy", "DIRECT");
    c.set("Aptus::Acquire::Max-Per-Host", "2");
    FetchOptions o = fetch_options(c);
    EXPECT_EQ(o.retries, 5u);
    EXPECT_EQ(o.max_per_host, 2u);
    EXPECT_EQ(o.http_proxy.value_or("unset"), "http://proxy.invalid:3128");
    EXPECT_EQ(o.https_proxy.value_or("unset"), "");
    c.set("Acquire::Queue-Mode", "access");
    EXPECT_EQ(fetch_options(c).max_total, 1u);
}

TEST(TransferFetcher, TlsOptionsPerHost) {
    config::Config c;
    EXPECT_TRUE(fetch_options(c).tls.verify_peer);
    EXPECT_TRUE(fetch_options(c).tls.verify_host);
    EXPECT_EQ(fetch_options(c).tls.ca_info, "");
    c.set("Acquire::https::CAInfo", "/all.pem");
    c.set("Acquire::https::Verify-Host", "false");
    c.set("Acquire::https::Mirror.Example::CaInfo", "/one.pem");  // apt's keys ignore case
    c.set("Acquire::https::other.example::Verify-Peer", "no");
    c.set("Acquire::https::Proxy", "DIRECT");  // an option, not a host
    FetchOptions o = fetch_options(c);
    EXPECT_EQ(o.tls_by_host.size(), 2u);
    EXPECT_EQ(o.tls_for("mirror.example").ca_info, "/one.pem");
    EXPECT_FALSE(o.tls_for("mirror.example").verify_host);  // the general setting where the host says nothing
    EXPECT_TRUE(o.tls_for("mirror.example").verify_peer);
    EXPECT_EQ(o.tls_for("other.example").ca_info, "/all.pem");
    EXPECT_FALSE(o.tls_for("other.example").verify_peer);
    EXPECT_EQ(o.tls_for("third.example").ca_info, "/all.pem");
    EXPECT_TRUE(o.tls_for("third.example").verify_peer);
}

}  // namespace
}  // namespace aptus::acquire
