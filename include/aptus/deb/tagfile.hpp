// deb822 tag files: Packages, Sources, dpkg status, Release, .sources,
// extended_states. The reader walks a buffer in place: fields are views into
// it, nothing is copied, and one Stanza is reused from call to call.
//
// Rules, following Debian Policy 5.1 and deb822(5):
// - Stanzas are separated by one or more blank lines. A line holding only
//   spaces, tabs or a CR counts as blank, so it ends a stanza even in the
//   middle of a multi-line value (a value's empty line must be written " .").
// - Field names are matched case-insensitively; a name is non-empty, holds no
//   space, control character or colon, and starts with neither '#' nor '-'.
// - LF and CRLF line endings are both accepted; a missing final newline is fine.
// - With allow_comments, a line starting with '#' is skipped wherever it
//   appears, also between fields and between the continuation lines of a value.
// - One line may hold at most TagFileOptions::max_line_length bytes: a longer
//   line is an error, found in time linear in the limit, not in the line.
// - A NUL byte anywhere is an error.
// Every error is an aptus::Error "<name>:<line>: <what>".
//
// With TagFileOptions::skip_malformed (indices and state files: Packages,
// Sources, Translation, dpkg status, extended_states) nothing is thrown: a
// malformed stanza is skipped, from its first line to the blank line after
// it, and a NUL byte inside a field's value ends that value, as apt's C
// strings end it there (apt and dpkg keep such a stanza). Each is recorded
// as one TagFileProblem per stanza, for the caller to warn about.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::deb {

struct Field {
    std::string_view name;  // as written (case preserved)
    // Raw value: from the first non-blank after the colon to the end of the
    // last continuation line, without trailing blanks/CR and the final line
    // ending. Continuation lines keep their "\n " (or "\r\n ") prefixes, and
    // comment lines between them (allow_comments) stay inside the view.
    // Use field_text() to read a multi-line value.
    std::string_view value;
    uint32_t line = 0;  // 1-based line of the field name
};

struct Stanza {
    std::vector<Field> fields;
    uint32_t line = 0;     // 1-based line of the first field
    // The stanza's bytes, from its first field to the line ending of its last
    // line (comment lines inside it included; blank and comment lines before it not).
    std::string_view raw;

    // Case-insensitive lookup; nullptr when absent; the last of a field given twice (as apt).
    const Field* find(std::string_view name) const;
    // The value of a field, or std::nullopt.
    std::optional<std::string_view> get(std::string_view name) const;
    // The value, or "" when absent.
    std::string_view value_or_empty(std::string_view name) const;
};

struct TagFileOptions {
    // '#' lines are comments (deb822 .sources, apt's own files); Packages,
    // Sources and status files have none, there a '#' starts a bad line.
    bool allow_comments = false;
    // The longest real line in a Debian archive is under 100 KiB; 16 MiB
    // leaves room for any honest file and bounds the work on a hostile one.
    size_t max_line_length = size_t{16} << 20;
    // The number of the buffer's first line, when it is a part of a bigger
    // file (a chunk read on its own thread): errors and Stanza/Field lines
    // count from it.
    uint32_t first_line = 1;
    // Tolerant reading (see the top of this file): problems() instead of errors.
    bool skip_malformed = false;
};

// What a tolerant reader skipped or cut, one per stanza at most.
struct TagFileProblem {
    uint32_t line = 0;  // of the bad line (1-based, counted from first_line)
    std::string what;   // "line has no ':' ...; the stanza was skipped"
    bool skipped = false;  // the stanza was skipped (else kept, a value cut at a NUL)
};

class TagFileReader {
public:
    // `name` labels errors ("<name>:<line>: ..."); `buffer` must outlive the reader
    // and every Stanza it fills.
    TagFileReader(std::string_view buffer, std::string name, TagFileOptions options = {});

    // Fills `out` with the next stanza; false at the end. Throws aptus::Error
    // naming the file and line on malformed input, unless skip_malformed.
    bool next(Stanza& out);

    // With skip_malformed: the first kMaxKeptProblems problems met so far,
    // in file order, and how many there were in all.
    static constexpr size_t kMaxKeptProblems = 10;
    const std::vector<TagFileProblem>& problems() const { return problems_; }
    size_t problem_count() const { return problem_count_; }

    const std::string& name() const { return name_; }
    // The line the reader will look at next (1-based).
    uint32_t line() const { return line_; }

private:
    enum class Step { Stanza, End, Skipped };
    Step parse(Stanza& out);
    const char* line_end(const char* p, uint32_t line);
    [[noreturn]] void fail(uint32_t line, std::string_view message) const;
    // A malformed stanza met at `line` (starting at `p`): throws, or with
    // skip_malformed records it and moves past the stanza's end.
    Step malformed(const char* p, uint32_t line, std::string_view message);
    void record(uint32_t line, std::string what, bool skipped);

    std::string_view buf_;
    std::string name_;
    TagFileOptions options_;
    size_t pos_ = 0;
    uint32_t line_ = 1;
    // skip_malformed: what line_end found since the current field (or
    // stanza) began: kNul (the first NUL at nul_, on nul_line_), kTooLong
    // (a line longer than the limit, on long_line_). Checked once a field.
    static constexpr uint8_t kNul = 1, kTooLong = 2;
    uint8_t flags_ = 0;
    const char* nul_ = nullptr;
    uint32_t nul_line_ = 0, long_line_ = 0;
    // The first value of the current stanza cut at a NUL: reported once the
    // stanza is read whole (a stanza skipped later on is reported as skipped).
    uint32_t cut_line_ = 0;
    std::string_view cut_field_;
    std::vector<TagFileProblem> problems_;
    size_t problem_count_ = 0;
};

// A multi-line value joined into text: continuation lines are unfolded into
// lines separated by '\n' with the leading blank removed, a " ." line becomes
// an empty line, CR before LF is dropped, '#' comment lines are skipped.
std::string field_text(std::string_view raw_value);

}  // namespace aptus::deb
