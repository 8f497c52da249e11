#include "aptus/base/compression.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"

namespace {

// Compress `text` with the real command-line tool and read it back through aptus.
std::string roundtrip_with_tool(const std::string& text, const std::string& tool, const std::string& ext) {
    char dir_template[] = "/tmp/aptus-compress-XXXXXX";
    std::string dir = mkdtemp(dir_template);
    std::string plain = dir + "/Packages";
    aptus::write_file_atomic(plain, text);
    std::string cmd = tool + " < " + plain + " > " + plain + "." + ext;
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::string out = aptus::read_decompressed(plain + "." + ext);
    std::system(("rm -rf " + dir).c_str());
    return out;
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
    EXPECT_EQ(aptus::compression_from_path("Packages"), aptus::Compression::None);
}

TEST(Compression, RealToolsRoundTrip) {
    const std::string text = sample();
    EXPECT_EQ(roundtrip_with_tool(text, "xz -c", "xz"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "gzip -c", "gz"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "lz4 -q -c", "lz4"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "zstd -q -c", "zst"), text);
    EXPECT_EQ(roundtrip_with_tool(text, "bzip2 -c", "bz2"), text);
}

TEST(Compression, CorruptAndTruncatedDataIsAnError) {
    const std::string text = sample();
    for (auto c : {aptus::Compression::Xz, aptus::Compression::Gzip, aptus::Compression::Lz4,
                   aptus::Compression::Zstd, aptus::Compression::Bzip2}) {
        EXPECT_THROW(aptus::decompress("this is not compressed at all", c, "junk"), aptus::Error)
            << int(c);
    }
    // A truncated real xz stream.
    char dir_template[] = "/tmp/aptus-compress-XXXXXX";
    std::string dir = mkdtemp(dir_template);
    aptus::write_file_atomic(dir + "/P", text);
    ASSERT_EQ(std::system(("xz -c < " + dir + "/P > " + dir + "/P.xz").c_str()), 0);
    std::string xz = aptus::read_file(dir + "/P.xz");
    std::system(("rm -rf " + dir).c_str());
    EXPECT_THROW(aptus::decompress(std::string_view(xz).substr(0, xz.size() / 2), aptus::Compression::Xz, "P.xz"),
                 aptus::Error);
}

TEST(File, AtomicWriteReplacesAndLeavesNoTemp) {
    char dir_template[] = "/tmp/aptus-file-XXXXXX";
    std::string dir = mkdtemp(dir_template);
    aptus::write_file_atomic(dir + "/x", "one");
    aptus::write_file_atomic(dir + "/x", "two");
    EXPECT_EQ(aptus::read_file(dir + "/x"), "two");
    EXPECT_FALSE(aptus::path_exists(dir + "/x.aptus-new"));
    EXPECT_THROW(aptus::read_file(dir + "/missing"), aptus::Error);
    try {
        aptus::read_file(dir + "/missing");
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir + "/missing"), std::string::npos);
    }
    std::system(("rm -rf " + dir).c_str());
}
