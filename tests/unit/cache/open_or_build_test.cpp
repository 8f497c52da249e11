// Reuse, staleness, corruption and the read-only fallback of open_or_build.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <fstream>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/cache/build.hpp"
#include "aptus/cache/hash.hpp"  // src/: the checksum, to forge a well-summed bad file
#include "aptus/cache/staleness.hpp"
#include "support/test_support.hpp"

using namespace aptus::cache;

namespace {

struct FileId {
    ino_t inode;
    int64_t mtime_ns;
    bool operator==(const FileId&) const = default;
};

FileId file_id(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return {st.st_ino, int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

class CacheOpen : public ::testing::Test {
protected:
    void SetUp() override {
        inputs.native_architecture = "amd64";
        inputs.indices.push_back({dir.write("lists/p_Packages",
                                            "Package: a\nVersion: 1\nArchitecture: amd64\nDepends: b\n\n"
                                            "Package: b\nVersion: 2\nArchitecture: all\n"),
                                  IndexKind::Packages, kNone, "main", "amd64", "", "site", ""});
        inputs.status_path = dir.write("status", "Package: a\nStatus: install ok installed\nVersion: 1\nArchitecture: amd64\n");
        inputs.extended_states_path = dir.file("extended_states");  // missing: nothing auto
        inputs.fingerprint = "fp1";
        cache_path = dir.mkdir("cache") + "/aptus.bin";
    }
    void corrupt_at(size_t offset, char value) {
        std::fstream f(cache_path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(std::streamoff(offset));
        f.put(value);
    }

    aptus::test::TempDir dir{"cache-open"};
    CacheInputs inputs;
    std::string cache_path;
};

TEST_F(CacheOpen, BuildsThenReuses) {
    OpenResult first = open_or_build(inputs, cache_path);
    EXPECT_EQ(first.origin, CacheOrigin::Rebuilt);
    EXPECT_EQ(first.rebuild_reason, "no cache file");
    EXPECT_FALSE(first.cache.in_memory());
    EXPECT_EQ(first.cache.packages().size(), 2u);
    FileId id = file_id(cache_path);
    OpenResult second = open_or_build(inputs, cache_path);
    EXPECT_EQ(second.origin, CacheOrigin::Reused);
    EXPECT_EQ(file_id(cache_path), id);  // not rewritten
    EXPECT_TRUE(is_up_to_date(second.cache, inputs));
    EXPECT_EQ(second.cache.path(), cache_path);
    // No temporary file left beside it (their names are unique per writer).
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(cache_path).parent_path()))
        EXPECT_EQ(e.path().filename().string().find(".aptus-new"), std::string::npos) << e.path();
}

// The build's warnings (a damaged stanza skipped) are kept in the cache
// file: a run that reuses it says the same, a run after the file is fixed
// says nothing.
TEST_F(CacheOpen, ReuseRepeatsTheBuildWarnings) {
    std::string damaged = "Package: a\nVersion: 1\nArchitecture: amd64\n\nPackage: c\nbroken\n\n"
                          "Package: b\nVersion: 2\nArchitecture: all\nMaintainer: x";
    damaged += '\0';
    damaged += "y\n";
    dir.write("lists/p_Packages", damaged);
    OpenResult first = open_or_build(inputs, cache_path);
    ASSERT_EQ(first.origin, CacheOrigin::Rebuilt);
    ASSERT_EQ(first.diagnostics.size(), 2u);
    EXPECT_EQ(first.diagnostics[0].level, aptus::Level::Warning);
    EXPECT_NE(first.diagnostics[0].message.find("p_Packages:6: line has no ':'"), std::string::npos);
    EXPECT_NE(first.diagnostics[1].message.find("p_Packages:11: NUL byte in field 'Maintainer'"), std::string::npos);
    EXPECT_EQ(first.cache.packages().size(), 2u);
    OpenResult second = open_or_build(inputs, cache_path);
    ASSERT_EQ(second.origin, CacheOrigin::Reused);
    ASSERT_EQ(second.diagnostics.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(second.diagnostics[i].level, first.diagnostics[i].level);
        EXPECT_EQ(second.diagnostics[i].message, first.diagnostics[i].message);
    }
    // The show command reads b's stanza back from the file, NUL and all.
    const Package* b = second.cache.find_package("b", "amd64");
    ASSERT_NE(b, nullptr);
    EXPECT_NE(second.cache.stanza(second.cache.files_of(second.cache.versions_of(*b)[0])[0]).find("Maintainer: x"),
              std::string_view::npos);

    dir.write("lists/p_Packages", "Package: a\nVersion: 1\nArchitecture: amd64\n");
    struct timespec later[2] = {{std::time(nullptr) + 5, 0}, {std::time(nullptr) + 5, 0}};
    ::utimensat(AT_FDCWD, inputs.indices[0].path.c_str(), later, 0);
    OpenResult third = open_or_build(inputs, cache_path);
    EXPECT_EQ(third.origin, CacheOrigin::Rebuilt);
    EXPECT_TRUE(third.diagnostics.empty());
    EXPECT_TRUE(open_or_build(inputs, cache_path).diagnostics.empty());
}

TEST_F(CacheOpen, RemovesTheTempFilesOfKilledWriters) {
    // A writer killed mid-build left its temp file an hour ago (no lock on
    // it any more): the next build removes it. A file as old whose writer
    // still holds its lock, and a fresh one, stay.
    auto temp = [&](const char* suffix, time_t age) {
        std::string p = cache_path + ".aptus-new." + suffix;
        std::ofstream(p) << "half a cache";
        struct timespec times[2] = {{std::time(nullptr) - age, 0}, {std::time(nullptr) - age, 0}};
        EXPECT_EQ(::utimensat(AT_FDCWD, p.c_str(), times, 0), 0);
        return p;
    };
    std::string abandoned = temp("AAAAAA", 3600), busy = temp("BBBBBB", 3600), fresh = temp("CCCCCC", 0);
    int held = ::open(busy.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_EQ(::flock(held, LOCK_EX), 0);
    open_or_build(inputs, cache_path);
    EXPECT_FALSE(aptus::path_exists(abandoned));
    EXPECT_TRUE(aptus::path_exists(busy));
    EXPECT_TRUE(aptus::path_exists(fresh));
    ::close(held);
}

TEST_F(CacheOpen, WrittenFileIsTheBuiltImage) {
    // The file is streamed section by section; it must be byte for byte the
    // image build_cache lays out, checksum included.
    OpenResult r = open_or_build(inputs, cache_path);
    ASSERT_EQ(r.origin, CacheOrigin::Rebuilt);
    EXPECT_EQ(std::string(r.cache.image()), build_cache(inputs).image);
}

TEST_F(CacheOpen, TouchingAnInputRebuilds) {
    open_or_build(inputs, cache_path);
    FileId id = file_id(cache_path);
    for (const std::string& input : {inputs.indices[0].path, inputs.status_path}) {
        struct timespec times[2] = {{0, UTIME_NOW}, {1, 0}};  // a different mtime, same content
        ASSERT_EQ(::utimensat(AT_FDCWD, input.c_str(), times, 0), 0);
        OpenResult r = open_or_build(inputs, cache_path);
        EXPECT_EQ(r.origin, CacheOrigin::Rebuilt) << input;
        EXPECT_EQ(r.rebuild_reason, "inputs changed");
        EXPECT_NE(file_id(cache_path), id);
        id = file_id(cache_path);
        EXPECT_EQ(open_or_build(inputs, cache_path).origin, CacheOrigin::Reused);
    }
}

TEST_F(CacheOpen, NewFileFingerprintOrInputListRebuilds) {
    open_or_build(inputs, cache_path);
    dir.write("extended_states", "Package: a\nArchitecture: amd64\nAuto-Installed: 1\n");  // appears
    OpenResult r = open_or_build(inputs, cache_path);
    EXPECT_EQ(r.origin, CacheOrigin::Rebuilt);
    EXPECT_TRUE(r.cache.find_package("a", "amd64")->flags & kPackageAuto);
    inputs.fingerprint = "fp2";
    EXPECT_EQ(open_or_build(inputs, cache_path).origin, CacheOrigin::Rebuilt);
    inputs.indices[0].component = "contrib";
    EXPECT_EQ(open_or_build(inputs, cache_path).origin, CacheOrigin::Rebuilt);
    inputs.native_architecture = "arm64";
    EXPECT_EQ(open_or_build(inputs, cache_path).origin, CacheOrigin::Rebuilt);
    EXPECT_EQ(open_or_build(inputs, cache_path).origin, CacheOrigin::Reused);
}

TEST_F(CacheOpen, CorruptionIsDetectedAndRebuilt) {
    OpenResult good = open_or_build(inputs, cache_path);
    std::string original(good.cache.image());
    size_t size = original.size();
    struct Case {
        const char* what;
        std::function<void()> damage;
        const char* reason;
    };
    std::vector<Case> cases = {
        {"truncated", [&] { ASSERT_EQ(::truncate(cache_path.c_str(), off_t(size / 2)), 0); }, "truncated"},
        {"short", [&] { ASSERT_EQ(::truncate(cache_path.c_str(), 10), 0); }, "too short"},
        {"empty", [&] { ASSERT_EQ(::truncate(cache_path.c_str(), 0), 0); }, "too short"},
        {"magic", [&] { corrupt_at(0, 'X'); }, "bad magic"},
        {"version", [&] { corrupt_at(offsetof(Header, format_version), 99); }, "format version"},
        {"section table", [&] { corrupt_at(offsetof(Header, sections) + 3, 0x7f); }, "checksum"},
        {"middle", [&] { corrupt_at(size / 2, char(original[size / 2] ^ 0x40)); }, "checksum"},
        {"last byte", [&] { corrupt_at(size - 1, char(original[size - 1] ^ 1)); }, "checksum"},
    };
    for (const Case& c : cases) {
        aptus::write_file_atomic(cache_path, original);
        c.damage();
        OpenResult r = open_or_build(inputs, cache_path);
        EXPECT_EQ(r.origin, CacheOrigin::Rebuilt) << c.what;
        EXPECT_NE(r.rebuild_reason.find(c.reason), std::string::npos) << c.what << ": " << r.rebuild_reason;
        EXPECT_EQ(r.cache.image(), original) << c.what;
        EXPECT_EQ(open_or_build(inputs, cache_path).origin, CacheOrigin::Reused) << c.what;
    }
}

// The file open_or_build has just written is neither summed nor walked again
// (its header carries the sum the writer computed); any other sum in the
// header, as in a file replaced since, and the file is checked as on any open.
TEST_F(CacheOpen, JustWrittenFileSkipsOnlyTheSum) {
    std::string original(open_or_build(inputs, cache_path).cache.image());
    uint64_t sum = reinterpret_cast<const Header*>(original.data())->checksum;
    corrupt_at(original.size() - 1, char(original.back() ^ 1));
    EXPECT_NO_THROW(Cache::open_written(cache_path, sum));
    EXPECT_THROW(Cache::open_written(cache_path, sum + 1), aptus::Error);
    EXPECT_THROW(Cache::open(cache_path), aptus::Error);
    corrupt_at(offsetof(Header, format_version), 99);  // the header is still checked
    EXPECT_THROW(Cache::open_written(cache_path, sum), aptus::Error);
}

// A file checked in full once gets a note beside it, and the next open
// checks only its header; any change to the file through the file system
// (here one byte, the modification time put back) makes it a stranger
// again, checked in full and refused.
TEST_F(CacheOpen, AFileCheckedInFullIsNotCheckedAgainUntilItChanges) {
    std::string original(open_or_build(inputs, cache_path).cache.image());
    const std::string note = verified_mark_path(cache_path);
    EXPECT_FALSE(std::filesystem::exists(note)) << "the builder's own word writes no note";
    EXPECT_NO_THROW(Cache::open(cache_path));
    ASSERT_TRUE(std::filesystem::exists(note));
    const std::string noted = aptus::read_file(note);
    EXPECT_NO_THROW(Cache::open(cache_path));
    EXPECT_EQ(aptus::read_file(note), noted) << "a matching note is not rewritten";

    struct stat before {};
    ASSERT_EQ(::stat(cache_path.c_str(), &before), 0);
    corrupt_at(original.size() - 1, char(original.back() ^ 1));
    const timespec times[2] = {before.st_atim, before.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, cache_path.c_str(), times, 0), 0);
    EXPECT_THROW(Cache::open(cache_path), aptus::Error);
}

// A note about another file, or one that is not the writer's text, is no
// reason to skip anything.
TEST_F(CacheOpen, ANoteThatDoesNotMatchIsIgnored) {
    std::string original(open_or_build(inputs, cache_path).cache.image());
    ASSERT_NO_THROW(Cache::open(cache_path));
    const std::string note = verified_mark_path(cache_path);
    std::string text = aptus::read_file(note);
    corrupt_at(original.size() - 1, char(original.back() ^ 1));
    // The old note put back word for word: it names the file as it was.
    aptus::write_file_atomic(note, text);
    EXPECT_THROW(Cache::open(cache_path), aptus::Error);
    aptus::write_file_atomic(note, text + "extra\n");
    EXPECT_THROW(Cache::open(cache_path), aptus::Error);
    aptus::write_file_atomic(note, "garbage");
    EXPECT_THROW(Cache::open(cache_path), aptus::Error);
}

// A checksum that matches but an index pointing outside its array: a file
// crafted (or written by a buggy builder) is refused all the same.
TEST_F(CacheOpen, OutOfRangeIndexIsRefusedEvenWithAGoodChecksum) {
    std::string original = build_cache(inputs).image;
    auto forge = [&](auto patch) {
        std::string img = original;
        Header h;
        std::memcpy(&h, img.data(), sizeof h);
        patch(img, h);
        h.checksum = 0;
        uint64_t sum = detail::checksum(reinterpret_cast<const char*>(&h), sizeof h);
        h.checksum = detail::checksum(img.data() + sizeof h, img.size() - sizeof h, sum);
        std::memcpy(img.data(), &h, sizeof h);
        return img;
    };
    auto reason = [](const std::string& img) -> std::string {
        try {
            Cache::from_image(img);
        } catch (const aptus::Error& e) {
            return e.what();
        }
        return "accepted";
    };
    EXPECT_EQ(reason(forge([](std::string&, Header&) {})), "accepted");
    auto at = [](std::string& img, const Header& h, SectionId id) {
        return img.data() + h.sections[uint32_t(id)].offset;
    };
    EXPECT_NE(reason(forge([&](std::string& img, Header& h) {
                  reinterpret_cast<Package*>(at(img, h, SectionId::Packages))[0].first_version = 1000;
              })).find("range out of bounds in packages"),
              std::string::npos);
    EXPECT_NE(reason(forge([&](std::string& img, Header& h) {
                  reinterpret_cast<Dependency*>(at(img, h, SectionId::Dependencies))[0].target = 77;
              })).find("index out of range in dependencies"),
              std::string::npos);
    EXPECT_NE(reason(forge([&](std::string& img, Header& h) {
                  reinterpret_cast<Version*>(at(img, h, SectionId::Versions))[0].section = 1u << 30;
              })).find("string id out of range"),
              std::string::npos);
    EXPECT_NE(reason(forge([&](std::string&, Header& h) { h.sections[uint32_t(SectionId::Versions)].count = 1u << 30; }))
                  .find("out of bounds"),
              std::string::npos);
    EXPECT_NE(reason(forge([&](std::string& img, Header& h) {
                  reinterpret_cast<uint32_t*>(at(img, h, SectionId::StringOffsets))[1] = 1u << 31;
              })).find("bad string table"),
              std::string::npos);
}

TEST_F(CacheOpen, UnwritableDirectoryBuildsInMemory) {
    if (::geteuid() == 0) {
        // root writes anywhere: use a path whose directory does not exist
        // instead. That is a choice (apt's clean leaves a removed Dir::Cache
        // gone), so it is silent, as in apt.
        OpenResult r = open_or_build(inputs, dir.file("no/such/dir/aptus.bin"));
        EXPECT_EQ(r.origin, CacheOrigin::InMemory);
        EXPECT_TRUE(r.cache.in_memory());
        EXPECT_EQ(r.cache.packages().size(), 2u);
        EXPECT_TRUE(r.diagnostics.empty());
        // A "directory" that is a file cannot be written either: that is said.
        std::string not_dir = dir.file("plain-file");
        { std::ofstream(not_dir) << "x"; }
        OpenResult f = open_or_build(inputs, not_dir + "/aptus.bin");
        EXPECT_EQ(f.origin, CacheOrigin::InMemory);
        ASSERT_FALSE(f.diagnostics.empty());
        EXPECT_EQ(f.diagnostics.back().level, aptus::Level::Notice);
        return;
    }
    std::string ro = dir.mkdir("ro");
    ASSERT_EQ(::chmod(ro.c_str(), 0555), 0);
    OpenResult r = open_or_build(inputs, ro + "/aptus.bin");
    EXPECT_EQ(r.origin, CacheOrigin::InMemory);
    EXPECT_EQ(r.cache.packages().size(), 2u);
    ::chmod(ro.c_str(), 0755);
}

TEST_F(CacheOpen, MissingIndexFileIsAnErrorNamingIt) {
    inputs.indices[0].path = dir.file("lists/missing_Packages");
    try {
        open_or_build(inputs, cache_path);
        FAIL();
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find("missing_Packages"), std::string::npos);
    }
}

TEST_F(CacheOpen, EmptyPackagesFileGivesNoPackagesFromIt) {
    // An empty list (an empty component) has no stanza to cut a chunk from.
    inputs.indices.push_back({dir.write("lists/empty_Packages", ""), IndexKind::Packages, kNone, "contrib", "amd64",
                              "", "site", ""});
    OpenResult r = open_or_build(inputs, cache_path);
    EXPECT_EQ(r.cache.packages().size(), 2u);
    EXPECT_EQ(Cache::from_image(build_cache(inputs).image).packages().size(), 2u);
}

TEST_F(CacheOpen, UnreadableTranslationFileIsAnErrorAndLeavesNoTempFile) {
    // Translation files are still being read while the cache is laid out
    // and written: an error reading one stops the build, names the file,
    // and takes the half-written temp file with it (it is not "a cache in
    // memory").
    inputs.indices.push_back({dir.write("lists/bad_Translation-en.xz", "not xz at all"), IndexKind::Translation,
                              kNone, "main", "", "en", "site", ""});
    try {
        open_or_build(inputs, cache_path);
        FAIL() << "no error";
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find("bad_Translation-en.xz"), std::string::npos) << e.what();
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir.file("cache")))
        ADD_FAILURE() << "left behind: " << entry.path();
}

TEST_F(CacheOpen, MalformedTranslationStanzaIsAWarning) {
    // A malformed stanza of a Translation file read during the layout: a
    // warning naming the file and line, the cache is built and written.
    inputs.indices.push_back({dir.write("lists/bad_Translation-en", "Package: a\nDescription-md5 x\n"),
                              IndexKind::Translation, kNone, "main", "", "en", "site", ""});
    OpenResult r = open_or_build(inputs, cache_path);
    EXPECT_EQ(r.origin, CacheOrigin::Rebuilt);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_NE(r.diagnostics[0].message.find("bad_Translation-en:2: line has no ':'"), std::string::npos)
        << r.diagnostics[0].message;
    EXPECT_EQ(r.cache.packages().size(), 2u);
}

TEST(CacheInputs, FindListFilePrefersTheCheapestCompression) {
    aptus::test::TempDir dir("cache-inputs");
    dir.write("x_Packages.xz", "");
    dir.write("x_Packages.lz4", "");
    dir.write("y_Packages.gz", "");
    dir.write("z_Packages", "");
    dir.write("z_Packages.zst", "");
    EXPECT_EQ(find_list_file(dir.path(), "x_Packages"), dir.file("x_Packages.lz4"));
    EXPECT_EQ(find_list_file(dir.path() + "/", "y_Packages"), dir.file("y_Packages.gz"));
    EXPECT_EQ(find_list_file(dir.path(), "z_Packages"), dir.file("z_Packages"));
    EXPECT_EQ(find_list_file(dir.path(), "w_Packages"), std::nullopt);
    EXPECT_EQ(find_list_files(dir.path(), {"w_Packages", "y_Packages", "x_Packages"}),
              (std::vector<std::string>{dir.file("y_Packages.gz"), dir.file("x_Packages.lz4")}));
}

}  // namespace
