// APT 3.0's snapshots: with -S ID (APT::Snapshot), or an entry's own
// `snapshot=ID`, a repository that offers snapshots is read from the
// snapshot's URI instead of its own, so update, the cache and the archives
// all see the archive as it was then.
#pragma once

#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

// Rewrites the URI of each enabled entry that takes a snapshot. The
// entry's `snapshot` option: "disable"/"no" never; an ID: that snapshot,
// always; "enable"/"yes": APT::Snapshot, and an error when the repository
// offers none; unset: APT::Snapshot where the repository offers one. The
// snapshot URI's template ("http://host/archive/@SNAPSHOTID@/") is
// Acquire::Snapshots::URI::Host::<the URI's host>, else the Snapshots field
// of the Release stored for the entry's own URI.
// With SnapshotUse::AlongOriginal (update), the snapshot's entry is added
// after the entry instead of replacing it: apt's update fetches both, the
// repository's own Release being where the snapshots' URI is found.
enum class SnapshotUse { Replace, AlongOriginal };
void apply_snapshots(const config::Config& config, std::vector<SourceEntry>& entries,
                     SnapshotUse use = SnapshotUse::Replace);

}  // namespace aptus::sources
