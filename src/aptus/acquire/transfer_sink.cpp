#include "transfer_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <limits>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "part_file.hpp"

namespace aptus::acquire {

std::string_view hash_algo_name(HashAlgo algo) {
    switch (algo) {
        case HashAlgo::Md5: return "MD5Sum";
        case HashAlgo::Sha1: return "SHA1";
        case HashAlgo::Sha256: return "SHA256";
        case HashAlgo::Sha512: return "SHA512";
        case HashAlgo::None: break;
    }
    return "";
}

struct Hasher::Impl {
    EVP_MD_CTX* ctx = nullptr;
    std::string hex;  // once ended
};

Hasher::Hasher(HashAlgo algo) : impl_(std::make_unique<Impl>()) {
    const EVP_MD* md = nullptr;
    switch (algo) {
        case HashAlgo::Md5: md = EVP_md5(); break;
        case HashAlgo::Sha1: md = EVP_sha1(); break;
        case HashAlgo::Sha256: md = EVP_sha256(); break;
        case HashAlgo::Sha512: md = EVP_sha512(); break;
        case HashAlgo::None: throw Error("no hash algorithm");
    }
    impl_->ctx = EVP_MD_CTX_new();
    if (!impl_->ctx || EVP_DigestInit_ex(impl_->ctx, md, nullptr) != 1) throw Error("cannot initialise a hash");
}

Hasher::~Hasher() { EVP_MD_CTX_free(impl_->ctx); }

void Hasher::update(std::string_view data) { EVP_DigestUpdate(impl_->ctx, data.data(), data.size()); }

std::string Hasher::hex() {
    // Ending a digest twice gives the hash of nothing: the first answer is kept.
    if (!impl_->hex.empty()) return impl_->hex;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    EVP_DigestFinal_ex(impl_->ctx, md, &len);
    impl_->hex = to_hex({reinterpret_cast<const char*>(md), len});
    return impl_->hex;
}

std::optional<uint64_t> hash_descriptor(int fd, std::span<Hasher* const> hashers) {
    std::unique_ptr<char[]> buf(new char[1 << 16]);
    uint64_t total = 0;
    for (;;) {
        ssize_t n = ::read(fd, buf.get(), 1 << 16);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        if (n == 0) return total;
        total += uint64_t(n);
        for (Hasher* h : hashers) h->update({buf.get(), size_t(n)});
    }
}

namespace {
// Small decompressor outputs are gathered up to this before a write; a chunk
// at least this big (curl hands over 16 KB) is written as it comes. Copying
// every chunk into a buffer that grew past malloc's mmap threshold cost
// fresh zeroed pages for each file: a fifth of the CPU of downloading .debs.
constexpr size_t kWriteBuffer = 1 << 16;
constexpr size_t kDirectWrite = 1 << 13;

// Thrown by the decompressor's output when it passes its bound; caught in
// write(), which then ends the transfer.
struct OutputTooLong {
    uint64_t limit;
};
}

TransferSink::TransferSink(const FetchRequest& request, PartFileHooks hooks)
    : request_(request), hooks_(std::move(hooks)), part_path_(part_path(request)) {
    limit_ = std::numeric_limits<uint64_t>::max();
    if (request.max_size) limit_ = request.max_size;
    // The announced size is the most a hostile mirror may send.
    if (request.expected_size) limit_ = std::min(limit_, *request.expected_size);
    // And what the compressed bytes may become: a few kB of xz can expand
    // to gigabytes, and they are decompressed before their hash is known.
    out_limit_ = std::numeric_limits<uint64_t>::max();
    if (request.max_output_size) out_limit_ = request.max_output_size;
    if (request.expected_output_size) out_limit_ = std::min(out_limit_, *request.expected_output_size);
}

TransferSink::~TransferSink() { discard(); }

void TransferSink::start(bool resume) {
    discard();
    set_aside_ = false;
    bytes_ = 0;
    resumed_ = 0;
    error_.clear();
    decompress_error_.clear();
    out_buf_.clear();
    out_bytes_ = 0;
    resume = resume && request_.resume && request_.decompress == Compression::None && request_.expected_size &&
             request_.hash != HashAlgo::None;
    fd_ = hooks_.open ? hooks_.open(resume) : resume ? open_part_file_to_resume(part_path_) : create_part_file(part_path_);
    hasher_ = request_.hash == HashAlgo::None ? nullptr : std::make_unique<Hasher>(request_.hash);
    if (resume) keep_earlier_bytes();
    decompressor_ = make_stream_decompressor(request_.decompress, request_.uri, [this](std::string_view out) {
        if (out.size() > out_limit_ - out_bytes_) throw OutputTooLong{out_limit_};
        out_bytes_ += out.size();
        if (out_buf_.empty() && out.size() >= kDirectWrite) return write_out(out);
        out_buf_.append(out);
        if (out_buf_.size() >= kWriteBuffer) flush();
    });
}

// The bytes an earlier run left: hashed (they count as much as the new ones
// in the final check), and the transfer goes on after them. More than the
// file may have, or unreadable: start from zero.
void TransferSink::keep_earlier_bytes() {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw system_error("cannot stat", part_path_, errno);
    uint64_t size = uint64_t(st.st_size);
    bool keep = size > 0 && size <= limit_;
    if (keep) {
        std::unique_ptr<char[]> buf(new char[1 << 16]);
        for (uint64_t at = 0; at < size;) {
            ssize_t n = ::pread(fd_, buf.get(), size_t(std::min<uint64_t>(1 << 16, size - at)), off_t(at));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                keep = false;
                break;
            }
            hasher_->update({buf.get(), size_t(n)});
            at += uint64_t(n);
        }
    }
    if (!keep) {
        if (size > 0 && !restart()) throw Error(error_);
        return;
    }
    if (::lseek(fd_, 0, SEEK_END) < 0) throw system_error("cannot seek in", part_path_, errno);
    bytes_ = resumed_ = size;
}

bool TransferSink::whole() const { return resumed_ > 0 && request_.expected_size && resumed_ == *request_.expected_size; }

bool TransferSink::restart() {
    if (fd_ < 0) return false;
    if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) < 0) {
        error_ = system_error("cannot truncate", part_path_, errno).what();
        return false;
    }
    bytes_ = resumed_ = 0;
    hasher_ = request_.hash == HashAlgo::None ? nullptr : std::make_unique<Hasher>(request_.hash);
    return true;
}

void TransferSink::write_out(std::string_view data) {
    size_t off = 0;
    while (off < data.size()) {
        ssize_t n = ::write(fd_, data.data() + off, data.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw system_error("cannot write", part_path_, errno);
        }
        off += size_t(n);
    }
}

void TransferSink::flush() {
    write_out(out_buf_);
    out_buf_.clear();
}

bool TransferSink::write(std::string_view chunk) {
    if (chunk.size() > limit_ - bytes_) {
        error_ = "Writing more data than expected (" + std::to_string(bytes_ + chunk.size()) + " > " +
                 std::to_string(limit_) + ")";
        return false;
    }
    bytes_ += chunk.size();
    if (hasher_) hasher_->update(chunk);
    if (!decompress_error_.empty()) return true;
    try {
        decompressor_->write(chunk);
    } catch (const OutputTooLong& e) {
        error_ = "Decompressed data larger than expected (more than " + std::to_string(e.limit) +
                 " bytes). Mirror sync in progress?";
        return false;
    } catch (const Error& e) {
        // Keep counting and hashing: a wrong hash is the better answer
        // when the data is not what the Release announced.
        decompress_error_ = e.what();
    }
    return true;
}

bool TransferSink::commit() {
    auto fail = [&](std::string why) {
        error_ = std::move(why);
        discard(true);
        return false;
    };
    if (fd_ < 0) return fail("nothing was written");
    if (request_.expected_size && bytes_ != *request_.expected_size)
        return fail("File has unexpected size (" + std::to_string(bytes_) + " != " +
                    std::to_string(*request_.expected_size) + "). Mirror sync in progress?");
    if (hasher_ && hasher_->hex() != request_.hash_hex) {
        received_hex_ = hasher_->hex();
        return fail("Hash Sum mismatch");
    }
    if (!decompress_error_.empty()) return fail(decompress_error_);
    try {
        decompressor_->finish();
    } catch (const OutputTooLong& e) {
        return fail("Decompressed data larger than expected (more than " + std::to_string(e.limit) + " bytes)");
    } catch (const Error& e) {
        return fail(e.what());
    }
    // The decompressed file is not the one the Release describes: apt checks
    // it against the uncompressed entry's hashes (a Filesize among them) and
    // calls that a hash mismatch.
    if (request_.expected_output_size && out_bytes_ != *request_.expected_output_size)
        return fail("Hash Sum mismatch");
    flush();
    // The lists are state: a crash after the rename must not leave an empty file.
    if (request_.durable && ::fsync(fd_) != 0) return fail(system_error("cannot sync", part_path_, errno).what());
    if (hooks_.place) {
        try {
            place_part_file(part_path_, request_.destination, fd_);
        } catch (const Error& e) {
            return fail(e.what());
        }
    }
    ::close(fd_);
    fd_ = -1;
    return true;
}

void TransferSink::discard(bool failed_checks) {
    const bool keep = failed_checks && request_.keep_failed && !set_aside_;
    if (keep && fd_ >= 0) {
        try {
            flush();  // what arrived, whole
        } catch (const Error&) {
        }
    }
    // The sandboxed downloader cannot reach the names; its parent sets aside.
    if (keep && hooks_.place) {
        set_aside_failed(part_path_, request_.destination, fd_);
        set_aside_ = true;
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }
    const bool resumable = request_.resume && !failed_checks && request_.decompress == Compression::None;
    if (resumable && fd_ >= 0) {
        try {
            flush();  // every byte that came can be continued
        } catch (const Error&) {
        }
    }
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
        // Bytes that may be continued stay for the next attempt or run;
        // what failed its checks never does. The sandboxed downloader
        // cannot reach the name; its parent removes it.
        if (hooks_.place && !resumable) ::unlink(part_path_.c_str());
    }
    decompressor_.reset();
    hasher_.reset();
}

}  // namespace aptus::acquire
