// An index file's text for the cache build, read a piece at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "aptus/base/diagnostics.hpp"
#include "aptus/deb/tagfile.hpp"

namespace aptus::cache::detail {

// Bytes of an index file and where they start in it: the offsets kept in the
// cache are the file's, wherever its bytes were read into.
struct TextPiece {
    std::string_view bytes;
    size_t file_offset = 0;
    uint32_t offset_of(const char* p) const { return uint32_t(file_offset + size_t(p - bytes.data())); }
};

// An uncompressed file is read with pread into a buffer the caller reuses,
// not mapped: on the build machine (a VM) a mapping's page faults and TLB
// misses made a scan of trixie's mapped Packages file (56 MB) take 53-75 ms,
// against 19-20 ms read piece by piece into a buffer that stays in the CPU's
// cache; and the pages read add nothing to the process's memory. A
// compressed file is decompressed whole and its pieces are views of it.
class IndexText {
public:
    explicit IndexText(const std::string& path);
    ~IndexText();
    IndexText(const IndexText&) = delete;
    IndexText& operator=(const IndexText&) = delete;

    size_t size() const { return size_; }
    // `length` bytes from `offset`, fewer only at the end of the file, in
    // `buffer` or in place. Safe to call from several threads at once (each
    // with its own buffer). Throws when the file shrank while being read.
    std::string_view read(size_t offset, size_t length, std::string& buffer) const;

private:
    std::string path_;
    int fd_ = -1;
    size_t size_ = 0;
    std::string data_;  // decompressed text, when the file is compressed
};

// What the tolerant readers of one file skipped or cut (TagFileOptions::
// skip_malformed), as warnings "<file>:<line>: <what>": one for each
// stanza, the first kShown of the file, then one line counting the rest.
// One bad repository or state file must not stop the cache build, nor flood
// the terminal.
class TagProblems {
public:
    static constexpr size_t kShown = 10;
    explicit TagProblems(std::string file) : file_(std::move(file)) {}
    // The problems `reader` met, its lines shifted by `shift` (a chunk read
    // on its own counts its lines from 1).
    void take(const deb::TagFileReader& reader, uint32_t shift = 0) {
        take(reader.problems(), reader.problem_count(), shift);
    }
    void take(const std::vector<deb::TagFileProblem>& kept, size_t count, uint32_t shift) {
        for (const deb::TagFileProblem& p : kept) {
            if (warnings_.size() < kShown)
                warnings_.push_back({Level::Warning, file_ + ":" + std::to_string(p.line + shift) + ": " + p.what});
        }
        total_ += count;
    }
    size_t total() const { return total_; }
    // The warnings, and the count of those not shown, appended to `out`.
    void report(Diagnostics& out) {
        for (Diagnostic& d : warnings_) out.push_back(std::move(d));
        if (total_ > warnings_.size())
            out.push_back({Level::Warning, file_ + ": " + std::to_string(total_ - warnings_.size()) +
                                                " more malformed stanzas or NUL bytes not shown"});
        warnings_.clear();
        total_ = 0;
    }

private:
    std::string file_;
    Diagnostics warnings_;
    size_t total_ = 0;
};

// Pieces are read this large, then cut back to their last blank line: small
// enough to stay in the CPU's cache while parsed.
inline constexpr size_t kPieceBytes = 256 * 1024;

// Every stanza of `text`, in order, with the piece of the file it is in:
// fn(const deb::Stanza&, const TextPiece&). Malformed stanzas are skipped
// and NULs end values (skip_malformed), each noted in `problems`; read
// errors are thrown.
template <class Fn>
void for_each_stanza(const IndexText& text, const std::string& name, TagProblems& problems, Fn fn) {
    std::string buffer;
    deb::Stanza s;
    uint32_t line = 1;
    for (size_t pos = 0; pos < text.size();) {
        std::string_view bytes;
        for (size_t want = kPieceBytes;; want *= 2) {
            bytes = text.read(pos, want, buffer);
            if (pos + bytes.size() == text.size()) break;
            // A blank line ends a stanza wherever it is (Policy 5.1): the
            // piece up to its first '\n' holds whole stanzas.
            size_t blank = bytes.rfind("\n\n");
            if (blank != std::string_view::npos) {
                bytes = bytes.substr(0, blank + 1);
                break;
            }
        }
        deb::TagFileOptions options;
        options.first_line = line;
        options.skip_malformed = true;
        deb::TagFileReader reader(bytes, name, options);
        const TextPiece piece{bytes, pos};
        while (reader.next(s)) fn(s, piece);
        if (reader.problem_count() != 0) [[unlikely]]
            problems.take(reader);
        line = reader.line();
        pos += bytes.size();
    }
}

}  // namespace aptus::cache::detail
