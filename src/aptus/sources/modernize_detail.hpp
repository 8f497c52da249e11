// Pieces of modernize shared by its .cpp files. Private to sources/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::sources::detail {

// One line of a .list file that became an entry (enabled or "# deb ...").
struct ListLine {
    SourceEntry entry;
    std::vector<std::string> comments;  // comment lines before it, and its own "# ..." tail
};

struct ListFile {
    std::vector<ListLine> lines;
    std::vector<std::string> trailing_comments;  // after the last entry
};

// Every entry and comment of a one-line file, in order. A "# deb ..." line
// that parses as an entry (and deb822 can hold) is a disabled entry; any
// other '#' line is a comment, kept verbatim.
ListFile read_list_file(std::string_view text, const std::string& file);

// Entries that fold into one deb822 stanza.
struct StanzaDraft {
    bool enabled = true;
    bool has_deb = false, has_deb_src = false;
    std::string uri;  // with a trailing '/', as apt normalises it
    std::string suite;
    std::vector<std::string> components;
    std::vector<SourceOption> options;  // canonical: see canonical_options
    std::vector<std::string> comments;
    unsigned line = 0;  // first line it came from
};

// apt's meaning of repeated options: per key and operator the last one wins,
// and "=" applies before "+=" before "-=". Keys keep their first-seen order.
std::vector<SourceOption> canonical_options(const std::vector<SourceOption>& options);

// Folds lines into stanzas: same enabled state, URI, suite and options, and
// only as far as the stanza still expands to exactly the lines' entries
// (deb and deb-src share a stanza only with the same set of components).
std::vector<StanzaDraft> fold_lines(const std::vector<ListLine>& lines);

// The stanza's text, comments first. `signed_by` is written when the draft
// has no signed-by of its own.
std::string stanza_text(const StanzaDraft& draft, const std::optional<std::string>& signed_by);

// The Origin of the Release/InRelease apt already downloaded for this URI and
// suite (Dir::State::lists), if any.
std::optional<std::string> release_origin(const config::Config& config, const std::string& uri,
                                          const std::string& suite);

// The keyring APT 3.0 would pick, without an explicit signed-by: a
// trusted.gpg.d file named after the list file (.asc before .gpg), else the
// archive keyring named after the Origin.
std::optional<std::string> derived_signed_by(const config::Config& config, const std::optional<std::string>& origin,
                                             const std::string& list_path);

}  // namespace aptus::sources::detail
