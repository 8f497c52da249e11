// Where the bytes of one transfer go: counted against the most the request
// allows, hashed (OpenSSL EVP), optionally decompressed (the output counted
// against its own bound, and the transfer cut off the moment it passes it),
// and written to "<destination>.part"; commit() checks sizes and hash and
// only then renames the file to its destination. Anything that fails
// leaves no file behind.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aptus/acquire/fetcher.hpp"
#include "transfer_decompress.hpp"

namespace aptus::acquire {

// Incremental hash of one algorithm; hex() ends it (and gives the same
// answer when asked again).
class Hasher {
public:
    explicit Hasher(HashAlgo algo);
    ~Hasher();
    Hasher(const Hasher&) = delete;
    Hasher& operator=(const Hasher&) = delete;
    void update(std::string_view data);
    std::string hex();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Reads `fd` from where it stands to its end, a piece at a time, into every
// hasher (a .deb may be hundreds of MB: never whole in memory). The bytes
// read, or nullopt when a read fails.
std::optional<uint64_t> hash_descriptor(int fd, std::span<Hasher* const> hashers);

// How the part file is made and finished. In one process the sink creates
// it (create_part_file) and renames it once checked; in the sandboxed
// downloader the root parent creates it and hands over the descriptor
// (`open`), and renames it itself when told the file checked out.
// With `resume`, open() gives the part file an earlier run left as it is
// (opened for reading and writing, not truncated) when there is one, else a
// new one.
struct PartFileHooks {
    std::function<int(bool resume)> open;  // empty: open the part file here
    bool place = true;                     // false: commit() stops before the rename
};

class TransferSink {
public:
    explicit TransferSink(const FetchRequest& request, PartFileHooks hooks = {});
    ~TransferSink();
    TransferSink(const TransferSink&) = delete;
    TransferSink& operator=(const TransferSink&) = delete;

    // Opens (or truncates) the partial file; called again for a retry.
    // With `resume` (the request's resume, no decompression, an expected
    // size and hash), the bytes already in the part file are kept and hashed,
    // and the transfer continues after them: resumed_from() says how many.
    void start(bool resume = false);
    // The bytes kept from an earlier run (0: the transfer starts at zero).
    uint64_t resumed_from() const { return resumed_; }
    // Whether the kept bytes are already the whole expected size.
    bool whole() const;
    // The server sent the whole file after all: drop the kept bytes (false
    // with error() set when the file cannot be truncated).
    bool restart();
    // false: the chunk would pass the limit (nothing of it is kept);
    // error() says so. Data that does not decompress fails at commit().
    bool write(std::string_view chunk);
    // The announced length (Content-Length) already exceeds the limit.
    bool accepts_length(uint64_t length) const { return length <= limit_; }
    uint64_t limit() const { return limit_; }
    uint64_t bytes() const { return bytes_; }
    uint64_t output_bytes() const { return out_bytes_; }
    const std::string& error() const { return error_; }
    // After a Hash Sum mismatch: the hash of what arrived (apt shows it).
    const std::string& received_hash_hex() const { return received_hex_; }
    // Checks and renames; on failure returns false with error() set and
    // removes the partial file.
    bool commit();
    // Drops the part file; `failed_checks`: the file failed its checks and
    // is set aside as "<destination>.FAILED" when the request keeps those.
    // A resumable request's file that did not fail its checks is kept for
    // the next attempt or run.
    void discard(bool failed_checks = false);

private:
    const FetchRequest& request_;
    PartFileHooks hooks_;
    uint64_t limit_;
    bool set_aside_ = false;  // this attempt's file is already set aside
    uint64_t bytes_ = 0;
    uint64_t resumed_ = 0;
    uint64_t out_limit_;      // the most decompressed bytes accepted
    uint64_t out_bytes_ = 0;  // decompressed bytes produced so far
    int fd_ = -1;
    std::string part_path_;
    std::string out_buf_;
    std::string error_;
    std::string received_hex_;
    std::string decompress_error_;
    std::unique_ptr<Hasher> hasher_;
    std::unique_ptr<StreamDecompressor> decompressor_;

    void write_out(std::string_view data);
    void flush();
    void keep_earlier_bytes();
};

}  // namespace aptus::acquire
