#include "aptus/base/compression.hpp"

#include <bzlib.h>
#include <lz4frame.h>

#include <algorithm>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <memory>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"

namespace aptus {

namespace {

constexpr size_t kChunk = 1 << 18;

Error bad_data(std::string_view name, std::string_view format, std::string_view detail) {
    std::string msg = "corrupt ";
    msg += format;
    msg += " data";
    if (!detail.empty()) {
        msg += " (";
        msg += detail;
        msg += ')';
    }
    return file_error(name, 0, msg);
}

std::string gunzip(std::string_view in, std::string_view name) {
    z_stream zs{};
    // 15 + 32: zlib or gzip header, detected automatically.
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw bad_data(name, "gzip", "init");
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
    std::string out;
    out.reserve(in.size() * 4);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = uInt(in.size());
    for (;;) {
        size_t old = out.size();
        out.resize(old + kChunk);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + old);
        zs.avail_out = uInt(kChunk);
        int rc = inflate(&zs, Z_NO_FLUSH);
        out.resize(old + kChunk - zs.avail_out);
        if (rc == Z_STREAM_END) {
            // Concatenated gzip members are legal; continue with the next.
            if (zs.avail_in == 0) break;
            if (inflateReset(&zs) != Z_OK) throw bad_data(name, "gzip", "reset");
            continue;
        }
        if (rc != Z_OK) throw bad_data(name, "gzip", zs.msg ? zs.msg : "");
        if (zs.avail_in == 0 && zs.avail_out != 0) throw bad_data(name, "gzip", "truncated");
    }
    return out;
}

std::string unxz(std::string_view in, std::string_view name, bool lzma_alone) {
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret init = lzma_alone ? lzma_alone_decoder(&s, UINT64_MAX)
                               : lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED);
    if (init != LZMA_OK) throw bad_data(name, "xz", "init");
    std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&s, lzma_end);
    std::string out;
    out.reserve(in.size() * 6);
    s.next_in = reinterpret_cast<const uint8_t*>(in.data());
    s.avail_in = in.size();
    for (;;) {
        size_t old = out.size();
        out.resize(old + kChunk);
        s.next_out = reinterpret_cast<uint8_t*>(out.data() + old);
        s.avail_out = kChunk;
        lzma_ret rc = lzma_code(&s, LZMA_FINISH);
        out.resize(old + kChunk - s.avail_out);
        if (rc == LZMA_STREAM_END) break;
        if (rc != LZMA_OK) throw bad_data(name, "xz", rc == LZMA_BUF_ERROR ? "truncated" : "");
    }
    return out;
}

std::string unlz4(std::string_view in, std::string_view name) {
    LZ4F_dctx* ctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) throw bad_data(name, "lz4", "init");
    std::unique_ptr<LZ4F_dctx, size_t (*)(LZ4F_dctx*)> guard(ctx, LZ4F_freeDecompressionContext);
    std::string out;
    out.reserve(in.size() * 4);
    const char* src = in.data();
    size_t left = in.size();
    size_t hint = 1;
    // Until all input is read and nothing is held back: a chunk the output
    // filled may leave decoded bytes inside the context with no input left.
    bool full = false;
    while (left > 0 || full) {
        size_t old = out.size();
        out.resize(old + kChunk);
        size_t dst_size = kChunk;
        size_t src_size = left;
        hint = LZ4F_decompress(ctx, out.data() + old, &dst_size, src, &src_size, nullptr);
        out.resize(old + dst_size);
        if (LZ4F_isError(hint)) throw bad_data(name, "lz4", LZ4F_getErrorName(hint));
        src += src_size;
        left -= src_size;
        full = dst_size == kChunk;
        // A frame ended and only zero bytes follow: padding apt's own lz4
        // writer leaves (and apt reads past), not a truncated frame.
        if (hint == 0 && !full && std::all_of(src, src + left, [](char c) { return c == 0; })) break;
        if (src_size == 0 && dst_size == 0) break;
    }
    if (hint != 0) throw bad_data(name, "lz4", "truncated");
    return out;
}

std::string unzstd(std::string_view in, std::string_view name) {
    ZSTD_DStream* ds = ZSTD_createDStream();
    if (!ds) throw bad_data(name, "zstd", "init");
    std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> guard(ds, ZSTD_freeDStream);
    ZSTD_initDStream(ds);
    std::string out;
    out.reserve(in.size() * 5);
    ZSTD_inBuffer ib{in.data(), in.size(), 0};
    size_t last = 0;
    while (ib.pos < ib.size) {
        size_t old = out.size();
        out.resize(old + kChunk);
        ZSTD_outBuffer ob{out.data() + old, kChunk, 0};
        last = ZSTD_decompressStream(ds, &ob, &ib);
        out.resize(old + ob.pos);
        if (ZSTD_isError(last)) throw bad_data(name, "zstd", ZSTD_getErrorName(last));
        if (ob.pos == 0 && last != 0 && ib.pos == ib.size) break;
    }
    // Flush what the decoder still holds.
    while (last != 0) {
        size_t old = out.size();
        out.resize(old + kChunk);
        ZSTD_outBuffer ob{out.data() + old, kChunk, 0};
        last = ZSTD_decompressStream(ds, &ob, &ib);
        out.resize(old + ob.pos);
        if (ZSTD_isError(last)) throw bad_data(name, "zstd", ZSTD_getErrorName(last));
        if (ob.pos == 0) break;
    }
    if (last != 0) throw bad_data(name, "zstd", "truncated");
    return out;
}

std::string unbzip2(std::string_view in, std::string_view name) {
    bz_stream bz{};
    if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) throw bad_data(name, "bzip2", "init");
    std::unique_ptr<bz_stream, int (*)(bz_stream*)> guard(&bz, BZ2_bzDecompressEnd);
    std::string out;
    out.reserve(in.size() * 5);
    bz.next_in = const_cast<char*>(in.data());
    bz.avail_in = unsigned(in.size());
    for (;;) {
        size_t old = out.size();
        out.resize(old + kChunk);
        bz.next_out = out.data() + old;
        bz.avail_out = unsigned(kChunk);
        int rc = BZ2_bzDecompress(&bz);
        out.resize(old + kChunk - bz.avail_out);
        if (rc == BZ_STREAM_END) break;
        if (rc != BZ_OK) throw bad_data(name, "bzip2", "");
        if (bz.avail_in == 0 && bz.avail_out != 0) throw bad_data(name, "bzip2", "truncated");
    }
    return out;
}

}  // namespace

Compression compression_from_path(std::string_view path) {
    if (ends_with(path, ".gz")) return Compression::Gzip;
    if (ends_with(path, ".xz")) return Compression::Xz;
    if (ends_with(path, ".lzma")) return Compression::Lzma;
    if (ends_with(path, ".lz4")) return Compression::Lz4;
    if (ends_with(path, ".zst")) return Compression::Zstd;
    if (ends_with(path, ".bz2")) return Compression::Bzip2;
    return Compression::None;
}

std::string_view compression_extension(Compression c) {
    switch (c) {
        case Compression::None: return "";
        case Compression::Gzip: return "gz";
        case Compression::Xz: return "xz";
        case Compression::Lzma: return "lzma";
        case Compression::Lz4: return "lz4";
        case Compression::Zstd: return "zst";
        case Compression::Bzip2: return "bz2";
    }
    return "";
}

std::string decompress(std::string_view data, Compression c, std::string_view name) {
    switch (c) {
        case Compression::None: return std::string(data);
        case Compression::Gzip: return gunzip(data, name);
        case Compression::Xz: return unxz(data, name, false);
        case Compression::Lzma: return unxz(data, name, true);
        case Compression::Lz4: return unlz4(data, name);
        case Compression::Zstd: return unzstd(data, name);
        case Compression::Bzip2: return unbzip2(data, name);
    }
    return std::string(data);
}

std::string read_decompressed(const std::string& path) {
    Compression c = compression_from_path(path);
    if (c == Compression::None) return read_file(path);
    MappedFile file(path);
    return decompress(file.view(), c, path);
}

}  // namespace aptus
