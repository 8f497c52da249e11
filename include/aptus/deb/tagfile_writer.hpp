// Writing deb822 tag files (dpkg status, extended_states, .sources) so that
// what was not changed keeps its bytes: a status file read with TagFileReader
// and written back stanza by stanza comes out identical.
//
// Values are given as text, the way field_text() returns them: lines
// separated by '\n'. A line after the first is written as a continuation
// line " <line>"; an empty (or all-blank) line becomes " .", since a blank
// line would end the stanza. An empty first line gives "Name:" with the text
// on the continuation lines, as dpkg writes Conffiles. New lines end in "\n".
// Comment lines between stanzas belong to no stanza: a rewrite drops them
// (dpkg status and extended_states have none).
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aptus/deb/tagfile.hpp"

namespace aptus::deb {

using FieldPair = std::pair<std::string_view, std::string_view>;  // name, text

// Changes to one existing stanza; names match case-insensitively.
class StanzaEdits {
public:
    // Replace the field where it stands (keeping the original spelling of its
    // name), or append it after the last field when the stanza lacks it.
    StanzaEdits& set(std::string_view name, std::string_view text);
    // Drop the field and its continuation lines.
    StanzaEdits& remove(std::string_view name);

    bool empty() const { return edits_.empty(); }

private:
    friend class TagFileWriter;
    struct Edit {
        std::string name;
        std::optional<std::string> text;  // nullopt: remove
    };
    const Edit* find(std::string_view name) const;
    std::vector<Edit> edits_;
};

class TagFileWriter {
public:
    // Each stanza is followed by one blank line, as dpkg and apt write their
    // files, so consecutive stanzas are separated by exactly one blank line.
    void write_stanza(std::span<const FieldPair> fields);
    void write_stanza(std::initializer_list<FieldPair> fields) {
        write_stanza(std::span<const FieldPair>(fields.begin(), fields.size()));
    }
    // The stanza's bytes as read.
    void write_stanza(const Stanza& stanza);
    // The stanza's bytes as read, except for the edited fields.
    void write_stanza(const Stanza& stanza, const StanzaEdits& edits);
    // "# <line>" for every line of `text`, at the current position.
    void write_comment(std::string_view text);

    const std::string& str() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

// Appends "Name: text\n" formatted as described above. Throws aptus::Error on
// a name that is not a valid field name.
void append_field(std::string& out, std::string_view name, std::string_view text);

}  // namespace aptus::deb
