#include "transfer_decompress.hpp"

#include <bzlib.h>
#include <lz4frame.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <string>

#include "aptus/base/error.hpp"

namespace aptus::acquire {
namespace {

constexpr size_t kOut = 1 << 17;

Error corrupt(const std::string& name, std::string_view format, std::string_view detail) {
    std::string msg = "corrupt " + std::string(format) + " data";
    if (!detail.empty()) msg += " (" + std::string(detail) + ")";
    return file_error(name, 0, msg);
}

class Passthrough final : public StreamDecompressor {
public:
    explicit Passthrough(Output out) : out_(std::move(out)) {}
    void write(std::string_view in) override { out_(in); }
    void finish() override {}

private:
    Output out_;
};

class Gzip final : public StreamDecompressor {
public:
    Gzip(std::string name, Output out) : name_(std::move(name)), out_(std::move(out)), buf_(kOut, '\0') {
        // 15 + 32: gzip or zlib header, detected.
        if (inflateInit2(&zs_, 15 + 32) != Z_OK) throw corrupt(name_, "gzip", "init");
    }
    ~Gzip() override { inflateEnd(&zs_); }
    void write(std::string_view in) override {
        zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        zs_.avail_in = uInt(in.size());
        while (zs_.avail_in > 0) {
            if (ended_) {
                // Concatenated members are legal gzip.
                if (inflateReset(&zs_) != Z_OK) throw corrupt(name_, "gzip", "reset");
                ended_ = false;
            }
            zs_.next_out = reinterpret_cast<Bytef*>(buf_.data());
            zs_.avail_out = uInt(buf_.size());
            int rc = inflate(&zs_, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) throw corrupt(name_, "gzip", zs_.msg ? zs_.msg : "");
            size_t n = buf_.size() - zs_.avail_out;
            if (n) out_({buf_.data(), n});
            if (rc == Z_STREAM_END) ended_ = true;
            else if (rc == Z_BUF_ERROR && n == 0) break;
        }
    }
    void finish() override {
        if (!ended_) throw corrupt(name_, "gzip", "truncated");
    }

private:
    std::string name_;
    Output out_;
    std::string buf_;
    z_stream zs_{};
    bool ended_ = false;
};

class Xz final : public StreamDecompressor {
public:
    Xz(std::string name, Output out, bool alone) : name_(std::move(name)), out_(std::move(out)), buf_(kOut, '\0') {
        lzma_ret rc = alone ? lzma_alone_decoder(&s_, UINT64_MAX)
                            : lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED);
        if (rc != LZMA_OK) throw corrupt(name_, "xz", "init");
    }
    ~Xz() override { lzma_end(&s_); }
    void write(std::string_view in) override { run(in, LZMA_RUN); }
    void finish() override {
        if (!ended_) run({}, LZMA_FINISH);
        if (!ended_) throw corrupt(name_, "xz", "truncated");
    }

private:
    void run(std::string_view in, lzma_action action) {
        s_.next_in = reinterpret_cast<const uint8_t*>(in.data());
        s_.avail_in = in.size();
        for (;;) {
            s_.next_out = reinterpret_cast<uint8_t*>(buf_.data());
            s_.avail_out = buf_.size();
            lzma_ret rc = lzma_code(&s_, action);
            size_t n = buf_.size() - s_.avail_out;
            if (n) out_({buf_.data(), n});
            if (rc == LZMA_STREAM_END) {
                ended_ = true;
                if (s_.avail_in) throw corrupt(name_, "xz", "data after the end");
                return;
            }
            if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH) throw corrupt(name_, "xz", "truncated");
            if (rc != LZMA_OK && rc != LZMA_BUF_ERROR) throw corrupt(name_, "xz", "");
            if (s_.avail_in == 0 && s_.avail_out != 0) return;
        }
    }
    std::string name_;
    Output out_;
    std::string buf_;
    lzma_stream s_ = LZMA_STREAM_INIT;
    bool ended_ = false;
};

class Zstd final : public StreamDecompressor {
public:
    Zstd(std::string name, Output out) : name_(std::move(name)), out_(std::move(out)), buf_(kOut, '\0') {
        ctx_ = ZSTD_createDCtx();
        if (!ctx_) throw corrupt(name_, "zstd", "init");
    }
    ~Zstd() override { ZSTD_freeDCtx(ctx_); }
    void write(std::string_view in) override {
        ZSTD_inBuffer ib{in.data(), in.size(), 0};
        while (ib.pos < ib.size) {
            ZSTD_outBuffer ob{buf_.data(), buf_.size(), 0};
            size_t rc = ZSTD_decompressStream(ctx_, &ob, &ib);
            if (ZSTD_isError(rc)) throw corrupt(name_, "zstd", ZSTD_getErrorName(rc));
            if (ob.pos) out_({buf_.data(), ob.pos});
            pending_ = rc != 0;
        }
        // Output may still be buffered inside the context with no input left.
        for (;;) {
            ZSTD_inBuffer none{nullptr, 0, 0};
            ZSTD_outBuffer ob{buf_.data(), buf_.size(), 0};
            size_t rc = ZSTD_decompressStream(ctx_, &ob, &none);
            if (ZSTD_isError(rc)) throw corrupt(name_, "zstd", ZSTD_getErrorName(rc));
            if (ob.pos) out_({buf_.data(), ob.pos});
            if (ob.pos < ob.size) break;
        }
        seen_ = seen_ || !in.empty();
    }
    void finish() override {
        if (pending_ || !seen_) throw corrupt(name_, "zstd", "truncated");
    }

private:
    std::string name_;
    Output out_;
    std::string buf_;
    ZSTD_DCtx* ctx_ = nullptr;
    bool pending_ = false;
    bool seen_ = false;
};

class Bzip2 final : public StreamDecompressor {
public:
    Bzip2(std::string name, Output out) : name_(std::move(name)), out_(std::move(out)), buf_(kOut, '\0') {
        if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) throw corrupt(name_, "bzip2", "init");
    }
    ~Bzip2() override { BZ2_bzDecompressEnd(&s_); }
    void write(std::string_view in) override {
        s_.next_in = const_cast<char*>(in.data());
        s_.avail_in = unsigned(in.size());
        while (s_.avail_in > 0) {
            if (ended_) {
                // Concatenated streams, as bzip2 -d accepts them.
                unsigned left = s_.avail_in;
                BZ2_bzDecompressEnd(&s_);
                s_ = bz_stream{};
                if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) throw corrupt(name_, "bzip2", "init");
                s_.next_in = const_cast<char*>(in.data() + in.size() - left);
                s_.avail_in = left;
                ended_ = false;
            }
            s_.next_out = buf_.data();
            s_.avail_out = unsigned(buf_.size());
            int rc = BZ2_bzDecompress(&s_);
            size_t n = buf_.size() - s_.avail_out;
            if (n) out_({buf_.data(), n});
            if (rc == BZ_STREAM_END) ended_ = true;
            else if (rc != BZ_OK) throw corrupt(name_, "bzip2", "");
        }
    }
    void finish() override {
        if (ended_) return;
        // Drain what the library still holds.
        for (;;) {
            s_.next_out = buf_.data();
            s_.avail_out = unsigned(buf_.size());
            int rc = BZ2_bzDecompress(&s_);
            size_t n = buf_.size() - s_.avail_out;
            if (n) out_({buf_.data(), n});
            if (rc == BZ_STREAM_END) return;
            if (rc != BZ_OK || n == 0) throw corrupt(name_, "bzip2", "truncated");
        }
    }

private:
    std::string name_;
    Output out_;
    std::string buf_;
    bz_stream s_{};
    bool ended_ = false;
};

class Lz4 final : public StreamDecompressor {
public:
    Lz4(std::string name, Output out) : name_(std::move(name)), out_(std::move(out)), buf_(kOut, '\0') {
        if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION))) throw corrupt(name_, "lz4", "init");
    }
    ~Lz4() override { LZ4F_freeDecompressionContext(ctx_); }
    void write(std::string_view in) override {
        const char* p = in.data();
        size_t left = in.size();
        seen_ = seen_ || !in.empty();
        while (left > 0 || more_output_) {
            // After a frame, zero bytes are padding apt's own lz4 writer
            // leaves (apt reads past them), not the start of another frame.
            if (hint_ == 0 && !more_output_) {
                while (left > 0 && *p == 0) ++p, --left;
                if (left == 0) break;
            }
            size_t out_size = buf_.size(), in_size = left;
            size_t rc = LZ4F_decompress(ctx_, buf_.data(), &out_size, p, &in_size, nullptr);
            if (LZ4F_isError(rc)) throw corrupt(name_, "lz4", LZ4F_getErrorName(rc));
            if (out_size) out_({buf_.data(), out_size});
            p += in_size;
            left -= in_size;
            hint_ = rc;
            more_output_ = out_size == buf_.size();
            if (in_size == 0 && out_size == 0) break;
        }
    }
    void finish() override {
        // 0: a frame ended and nothing more is expected.
        if (hint_ != 0 || !seen_) throw corrupt(name_, "lz4", "truncated");
    }

private:
    std::string name_;
    Output out_;
    std::string buf_;
    LZ4F_dctx* ctx_ = nullptr;
    size_t hint_ = 1;
    bool more_output_ = false;
    bool seen_ = false;
};

}  // namespace

std::unique_ptr<StreamDecompressor> make_stream_decompressor(Compression c, std::string name,
                                                             StreamDecompressor::Output out) {
    switch (c) {
        case Compression::None: return std::make_unique<Passthrough>(std::move(out));
        case Compression::Gzip: return std::make_unique<Gzip>(std::move(name), std::move(out));
        case Compression::Xz: return std::make_unique<Xz>(std::move(name), std::move(out), false);
        case Compression::Lzma: return std::make_unique<Xz>(std::move(name), std::move(out), true);
        case Compression::Zstd: return std::make_unique<Zstd>(std::move(name), std::move(out));
        case Compression::Bzip2: return std::make_unique<Bzip2>(std::move(name), std::move(out));
        case Compression::Lz4: return std::make_unique<Lz4>(std::move(name), std::move(out));
    }
    throw Error("unknown compression");
}

}  // namespace aptus::acquire
