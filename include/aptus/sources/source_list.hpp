// Which files hold the sources, and all their entries: Dir::Etc::sourcelist
// if it exists, then the *.list and *.sources of Dir::Etc::sourceparts in
// apt's order (bytewise by name, apt's file-name rules). A file is read as
// deb822 when its name ends in ".sources", else as one-line.
#pragma once

#include <string>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "aptus/sources/snapshot.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

struct SourceFiles {
    std::vector<std::string> list_files;     // one-line format, in reading order
    std::vector<std::string> sources_files;  // deb822 format, in reading order
    // Both kinds in the order apt reads them (sourcelist first, then the parts).
    std::vector<std::string> all_in_order;
};

// Other names in the parts directory are skipped silently: apt 2.6 prints no
// notice for sources.list.d (it does for apt.conf.d). A missing file or
// directory is no error, as for apt.
SourceFiles find_source_files(const config::Config& config, Diagnostics& diags);

// Every entry, enabled or not, in reading order. An unreadable or malformed
// file throws aptus::Error naming the file (and line), and so does an
// enabled entry whose Signed-By is neither absolute paths, fingerprints nor
// a key block (apt refuses "signed-by=keys/foo.gpg" when it reads the
// sources, for every command).
// Entries that take a snapshot (-S, snapshot=) are read from its URI
// (sources/snapshot.hpp; `snapshots` says whether beside their own).
std::vector<SourceEntry> read_sources(const config::Config& config, Diagnostics& diags,
                                      SnapshotUse snapshots = SnapshotUse::Replace);

// One file, by its name's format, with the same checks.
std::vector<SourceEntry> read_source_file(const std::string& path);

}  // namespace aptus::sources
