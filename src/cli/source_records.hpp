// Which Sources records `showsrc` prints for its arguments, by apt's rules:
// a name matches a record whose Package is the name or whose Binary field
// lists it (only the first with --only-source or a "src:" prefix); records
// come in the order apt reads them (the Sources files in the order of the
// sources, each from top to bottom), not by version; a record whose text was
// already printed for an earlier argument, or earlier for the same one, is
// not printed again, and an argument left with nothing new counts as not
// found.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/system/source_package.hpp"

namespace aptus::cli {

// One Sources file's text; the caller keeps it alive while hits point into it.
struct SourcesText {
    std::string path;         // the file read (labels parse errors)
    std::string description;  // as apt names it: "http://host/debian bookworm/main Sources"
    std::string_view text;
};

using system::binary_names;

struct SourceHit {
    size_t file;            // index into the files searched
    std::string_view text;  // the record as written, up to its last line ending
    bool by_binary;         // matched through the Binary field, not the Package field
};

struct SourceQuery {
    std::string argument;      // as given ("src:bash")
    std::string name;          // what is matched ("bash")
    bool only_source = false;  // --only-source or the "src:" prefix
    std::vector<SourceHit> hits;  // the records to print, in apt's order, duplicates removed
    // Records the name matched before those already printed were dropped:
    // 0 means really not found, not just nothing new to print.
    size_t matched = 0;
};

// One query per argument, in argument order, searching `files` in the order
// given. `only_source` is --only-source (APT::Cache::Only-Source). Throws
// aptus::Error "<path>:<line>: ..." on a malformed file.
std::vector<SourceQuery> find_source_records(std::span<const SourcesText> files,
                                             std::span<const std::string> arguments, bool only_source);

// One Sources record: the file it is in (an index into the caller's
// files), its text as written, its Package and its Binary field as written.
struct SourceRecord {
    size_t file;
    std::string_view text, package, binary;
};

// The same selection over records given in reading order: every record,
// or at least every one whose Package is an argument's name or whose
// Binary lists it (showsrc takes those from the package cache's index of
// the Sources files instead of reading them all).
std::vector<SourceQuery> select_source_records(std::span<const SourceRecord> records,
                                               std::span<const std::string> arguments, bool only_source);

}  // namespace aptus::cli
