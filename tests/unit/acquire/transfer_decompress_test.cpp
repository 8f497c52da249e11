// The streaming decompressors against the real command-line compressors, fed
// in chunks of every awkward size, and against truncated and corrupt input.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "aptus/acquire/transfer_decompress.hpp"
#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

std::string sample() {
    std::string s;
    for (int i = 0; s.size() < 600000; ++i)
        s += "Package: pkg" + std::to_string(i) + "\nVersion: 1." + std::to_string(i * 7919 % 1000) + "\n\n";
    return s;
}

// Compress with the real tool: `cmd` reads stdin and writes stdout.
std::string compress_with(const std::string& cmd, const std::string& data) {
    test::TempDir dir("decompress");
    write_file_atomic(dir.file("in"), data);
    std::string line = cmd + " < " + dir.file("in") + " > " + dir.file("out");
    EXPECT_EQ(std::system(line.c_str()), 0) << line;
    return read_file(dir.file("out"));
}

std::string run(Compression c, std::string_view in, size_t chunk) {
    std::string out;
    auto d = make_stream_decompressor(c, "test", [&](std::string_view b) { out.append(b); });
    for (size_t i = 0; i < in.size(); i += chunk) d->write(in.substr(i, chunk));
    d->finish();
    return out;
}

struct Case {
    Compression c;
    const char* cmd;
};

const Case cases[] = {
    {Compression::Gzip, "gzip -c"},   {Compression::Xz, "xz -c"},     {Compression::Lzma, "xz --format=lzma -c"},
    {Compression::Zstd, "zstd -q -c"}, {Compression::Lz4, "lz4 -q -c"}, {Compression::Bzip2, "bzip2 -c"},
};

TEST(TransferDecompress, EveryFormatInEveryChunkSize) {
    const std::string data = sample();
    for (const Case& k : cases) {
        std::string packed = compress_with(k.cmd, data);
        for (size_t chunk : {size_t(1) << 20, size_t(4096), size_t(7), size_t(1)}) {
            if (chunk == 1 && packed.size() > 200000) continue;
            EXPECT_EQ(run(k.c, packed, chunk), data) << k.cmd << " chunk " << chunk;
        }
    }
}

TEST(TransferDecompress, TruncatedInputFails) {
    const std::string data = sample();
    for (const Case& k : cases) {
        std::string packed = compress_with(k.cmd, data);
        packed.resize(packed.size() / 2);
        EXPECT_THROW(run(k.c, packed, 4096), Error) << k.cmd;
    }
}

TEST(TransferDecompress, CorruptInputFails) {
    for (const Case& k : cases) {
        std::string packed = compress_with(k.cmd, sample());
        // Past the headers, so the damage is in the compressed data or its check.
        for (size_t i = packed.size() / 3; i < packed.size() / 3 + 64; ++i) packed[i] = char(packed[i] ^ 0x5a);
        EXPECT_THROW(run(k.c, packed, 4096), Error) << k.cmd;
    }
}

TEST(TransferDecompress, ConcatenatedGzipAndBzip2Members) {
    std::string a = "first part\n", b = "second part\n";
    EXPECT_EQ(run(Compression::Gzip, compress_with("gzip -c", a) + compress_with("gzip -c", b), 3), a + b);
    EXPECT_EQ(run(Compression::Bzip2, compress_with("bzip2 -c", a) + compress_with("bzip2 -c", b), 5), a + b);
}

// apt's own lz4 writer may leave zero bytes after the frame's end mark; apt
// reads past them, so must we (whole-file reading and streaming alike) —
// but not past a stream that stops inside a frame.
TEST(TransferDecompress, Lz4ZeroPaddingAfterTheFrame) {
    const std::string text = sample();
    const std::string padded = compress_with("lz4 -q -c", text) + std::string(4, '\0');
    for (size_t chunk : {size_t(1), size_t(3), size_t(4096), padded.size()})
        EXPECT_EQ(run(Compression::Lz4, padded, chunk), text) << chunk;
    EXPECT_EQ(decompress(padded, Compression::Lz4, "test"), text);
    const std::string cut = padded.substr(0, padded.size() / 2) + std::string(4, '\0');
    EXPECT_THROW(run(Compression::Lz4, cut, 4096), Error);
    EXPECT_THROW(decompress(cut, Compression::Lz4, "test"), Error);
}

TEST(TransferDecompress, NonePassesThrough) { EXPECT_EQ(run(Compression::None, "abc", 1), "abc"); }

}  // namespace
}  // namespace aptus::acquire
