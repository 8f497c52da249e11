#include "aptus/base/compression.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/stat.h>
#include <filesystem>

#include <cstdlib>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace {

// Compress `text` with the real command-line tool and read it back through aptus.
std::string roundtrip_with_tool(const std::string& text, const std::string& tool, const std::string& ext) {
    aptus::test::TempDir tmp("compress");
    std::string plain = tmp.write("Packages", text);
    std::string cmd = tool + " < " + plain + " > " + plain + "." + ext;
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return aptus::read_decompressed(plain + "." + ext);
}

std::string sample() {
    std::string s;
    for (int i = 0; i < 20000; ++i) s += "Package: p" + std::to_string(i) + "\nVersion: 1." + std::to_string(i) + "\n\n";
    return s;
}

}  // namespace

TEST(Compression, FromPath) {
    EXPECT_EQ(aptus::compression_from_path("a/Packages.xz"), aptus::Compression::Xz);
    EXPECT_EQ(aptus::compression_from_path("Packages.lz4"), aptus::Compression::Lz4);
    EXPECT_EQ(aptus::compression_from_path("Packages.zst"), aptus::Compression::Zstd);
    EXPECT_EQ(aptus::compression_from_path("Packages.gz"), aptus::Compression::Gzip);
    EXPECT_EQ(aptus::compression_from_path("Packages.bz2"), aptus::Compression::Bzip2);
    EXPECT_EQ(aptus::compression_from_path("Packages.lzma"), aptus::Compression::Lzma);
    EXPECT_EQ(aptus::compression_from_path("Packages"), aptus::Compression::None);
}

TEST(Compression, RealToolsRoundTrip) {
    const std::string text = sample();
    EXPECT_EQ(roundtrip_with_tool(text, "xz -c", "xz"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "xz --format=lzma -c", "lzma"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "gzip -c", "gz"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "lz4 -q -c", "lz4"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "zstd -q -c", "zst"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "bzip2 -c", "bz2"), text);
}

TEST(Compression, EmptyInputOfEachFormat) {
    EXPECT_EQ(roundtrip_with_tool("", "xz -c", "xz"), "");
    EXPECT_EQ(roundtrip_with_tool("", "gzip -c", "gz"), "");
    EXPECT_EQ(roundtrip_with_tool("", "lz4 -q -c", "lz4"), "");
    EXPECT_EQ(roundtrip_with_tool("", "zstd -q -c", "zst"), "");
    EXPECT_EQ(roundtrip_with_tool("", "bzip2 -c", "bz2"), "");
}

// One lz4 block (the tool's default is 4 MiB) that decodes to more than one
// output chunk, with all of its input read at once: the decoded rest must
// still come out (apt's lz4 lists were read as "truncated").
TEST(Compression, Lz4BlockLargerThanAnOutputChunk) {
    std::string big;
    while (big.size() < (3u << 20)) big += sample();
    EXPECT_EQ(roundtrip_with_tool(big, "lz4 -q -c", "lz4"), big);
}

TEST(Compression, CorruptAndTruncatedDataIsAnError) {
    for (auto c : {aptus::Compression::Xz, aptus::Compression::Gzip, aptus::Compression::Lz4,
                   aptus::Compression::Zstd, aptus::Compression::Bzip2}) {
        EXPECT_THROW(aptus::decompress("this is not compressed at all", c, "junk"), aptus::Error) << int(c);
    }
    // Every format, cut in half: an error naming the file, never a short read.
    aptus::test::TempDir tmp("compress");
    tmp.write("P", sample());
    const struct {
        const char* tool;
        const char* ext;
    } tools[] = {{"xz -c", "xz"}, {"gzip -c", "gz"}, {"lz4 -q -c", "lz4"}, {"zstd -q -c", "zst"}, {"bzip2 -c", "bz2"}};
    for (const auto& t : tools) {
        std::string out = tmp.file(std::string("P.") + t.ext);
        ASSERT_EQ(std::system((std::string(t.tool) + " < " + tmp.file("P") + " > " + out).c_str()), 0);
        std::string data = aptus::read_file(out);
        std::string_view half = std::string_view(data).substr(0, data.size() / 2);
        try {
            aptus::decompress(half, aptus::compression_from_path(out), out);
            ADD_FAILURE() << "truncated " << t.ext << " was accepted";
        } catch (const aptus::Error& e) {
            EXPECT_NE(std::string(e.what()).find(out), std::string::npos) << e.what();
        }
    }
}

TEST(File, AtomicWriteReplacesAndLeavesNoTemp) {
    aptus::test::TempDir tmp("file");
    aptus::write_file_atomic(tmp.file("x"), "one");
    aptus::write_file_atomic(tmp.file("x"), "two");
    EXPECT_EQ(aptus::read_file(tmp.file("x")), "two");
    // Nothing but the file itself is left in the directory, with the mode asked for.
    size_t entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp.file(""))) {
        ++entries;
        EXPECT_EQ(e.path().filename(), "x");
    }
    EXPECT_EQ(entries, 1u);
    aptus::write_file_atomic(tmp.file("y"), "three", 0640);
    struct stat st {};
    ASSERT_EQ(::stat(tmp.file("y").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    ::unlink(tmp.file("y").c_str());
    try {
        aptus::read_file(tmp.file("missing"));
        ADD_FAILURE() << "reading a missing file did not throw";
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find(tmp.file("missing")), std::string::npos);
    }
}

TEST(File, AtomicWriteIntoMissingDirectoryNamesThePath) {
    aptus::test::TempDir tmp("file");
    try {
        aptus::write_file_atomic(tmp.file("no/such/dir/x"), "data");
        ADD_FAILURE() << "write into a missing directory did not throw";
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find(tmp.file("no/such/dir/x")), std::string::npos) << e.what();
    }
}

TEST(File, MappedFileSeesContent) {
    aptus::test::TempDir tmp("file");
    tmp.write("m", "mapped content");
    tmp.write("empty", "");
    aptus::MappedFile m(tmp.file("m"));
    EXPECT_EQ(m.view(), "mapped content");
    aptus::MappedFile e(tmp.file("empty"));
    EXPECT_TRUE(e.view().empty());
    EXPECT_THROW(aptus::MappedFile(tmp.file("missing")), aptus::Error);
}
