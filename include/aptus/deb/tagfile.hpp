// deb822 tag files: Packages, Sources, dpkg status, Release, .sources,
// extended_states. The reader walks a buffer in place: fields are views into
// it, nothing is copied, and one Stanza is reused from call to call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::deb {

struct Field {
    std::string_view name;   // as written (case preserved)
    // Raw value: from the first non-blank after the colon to the end of the
    // last continuation line, without the final line ending. Continuation
    // lines keep their "\n " (or "\r\n ") prefixes. Use field_text() or
    // field_lines() to read multi-line values.
    std::string_view value;
    uint32_t line = 0;       // 1-based line of the field name
};

struct Stanza {
    std::vector<Field> fields;
    uint32_t line = 0;       // 1-based line of the first field
    std::string_view raw;    // the stanza's bytes, first field to last line ending

    // Case-insensitive lookup; nullptr when absent.
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
};

class TagFileReader {
public:
    // `name` labels errors ("<name>:<line>: ..."); `buffer` must outlive the reader
    // and every Stanza it fills.
    TagFileReader(std::string_view buffer, std::string name, TagFileOptions options = {});

    // Fills `out` with the next stanza; false at the end. Throws aptus::Error
    // naming the file and line on malformed input.
    bool next(Stanza& out);

    const std::string& name() const { return name_; }

private:
    std::string_view buf_;
    std::string name_;
    TagFileOptions options_;
    size_t pos_ = 0;
    uint32_t line_ = 1;
};

// A multi-line value joined into text: continuation lines are unfolded into
// lines separated by '\n' with the leading space removed, a " ." line becomes
// an empty line, CR before LF is dropped.
std::string field_text(std::string_view raw_value);

}  // namespace aptus::deb
