// `modernize-sources`: turn one-line .list files into deb822 .sources files.
//
// Planning and writing are separate steps so a front end can show the plan,
// ask, and then either write it or print it. Planning reads files and never
// writes; commit writes everything or nothing.
//
// Unlike APT 3.0, nothing the old files said is lost: every option becomes its
// deb822 field, "# deb ..." lines become stanzas with "Enabled: no", other
// comments stay above the stanza they preceded, and an explicit signed-by is
// never replaced. Lines fold into one stanza only when the stanza expands to
// exactly the entries the lines gave, so the index targets stay the same.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

// A .list file to convert, and where it goes.
struct ModernizeInput {
    std::string path;
    std::string backup_path;           // <path>.bak (or <path>.N.bak when that is taken)
    std::vector<std::string> outputs;  // the .sources files that receive its stanzas
    Diagnostics diags;                 // what the user should know about this file
};

// A .sources file to create, or to append to.
struct ModernizeOutput {
    std::string path;
    std::optional<std::string> existing;  // the current content, when the file exists
    std::string added;                    // the stanzas (and comments) aptus adds
    unsigned mode = 0644;                 // an existing file keeps its mode

    // What the file will hold: the old content, one blank line, the new stanzas.
    std::string content() const;
};

struct ModernizePlan {
    std::vector<ModernizeInput> inputs;    // Dir::Etc::sourcelist first, then the parts
    std::vector<ModernizeOutput> outputs;  // in the order they are first written to
    bool empty() const { return inputs.empty(); }
};

// Reads Dir::Etc::sourcelist (when it exists) and every *.list in
// Dir::Etc::sourceparts. Throws aptus::Error (file:line) on a line that does
// not parse or that deb822 cannot express. Warnings about the directory scan
// go to `diags`; warnings about one file go to its ModernizeInput.
ModernizePlan plan_modernize(const config::Config& config, Diagnostics& diags);

// Called with a description before every step that changes the file system;
// throwing from it aborts the commit there. Tests use it to fail at each step.
using CommitHook = std::function<void(std::string_view step)>;

// Writes every output to a temporary file beside it (fsync), then renames them
// into place, then renames each input to its backup path, then syncs the
// directories. On any failure every step already done is undone, the
// temporary files are removed, and an aptus::Error says what failed.
void commit_modernize(const ModernizePlan& plan, const CommitHook& before_step = {});

// The deb822 field for a one-line option: ("arch", Add) -> "Architectures-Add".
// Options apt does not know keep their name, as deb822 fields match any case.
std::string deb822_field_name(std::string_view key, SourceOption::Op op);

// The name APT gives a .sources file for an Origin: lower case, blanks and
// punctuation as '-' ("Debian Ports" -> "debian-ports").
std::string origin_file_stem(std::string_view origin);

}  // namespace aptus::sources
