// Writing apt's extended_states (Dir::State::extended_states): which
// packages were installed only as dependencies. The reader is the cache's
// (cache/extended_states.cpp); this is the one place that writes the file,
// as apt does before dpkg runs and after it succeeded, and as `aptus mark`
// does.
#pragma once

#include <string>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"

namespace aptus::system {

struct AutoMark {
    std::string package;
    std::string architecture;  // "amd64"; "" or "all" mean the native architecture
    bool automatic = false;
    // About to be installed: counts as installed for this write. apt writes
    // the marks of the packages it installs before dpkg runs, so a dpkg
    // that fails or a front end killed meanwhile does not lose them.
    bool installing = false;
};

// Sets or clears the automatic mark of each (package, architecture) in
// `marks` and rewrites the file as apt rewrites it (checked against apt-mark
// and apt-get 2.6):
// - every stanza is kept in place, its other fields byte for byte, with
//   Architecture and Auto-Installed set ("1" or "0"; appended in that order
//   when missing);
// - a package that is not installed now (by Dir::State::status, which the
//   caller has let dpkg update first) and not `installing` loses its mark,
//   as apt's writes do: that is how the stanzas of removed packages go away;
// - a stanza whose package is not automatic is dropped when it holds no
//   field but Package, Architecture and Auto-Installed;
// - a newly automatic, installed package not in the file is appended as
//   "Package: x\nArchitecture: amd64\nAuto-Installed: 1\n\n", in the order
//   of `marks` (apt appends in its cache's hash order: a caller that wants
//   apt's bytes sorts by cli/apt_hash_order.hpp's key first).
// A stanza without Architecture counts as the native architecture's. apt
// also drops stanzas, whatever their fields, of packages no list knows;
// this function does not see the lists, so a stanza with fields of its own
// for such a package is kept (with Auto-Installed: 0). The file is replaced
// atomically, created when missing, and left alone when its content would
// not change.
// A damaged extended_states (a stanza that cannot be read: a line that is
// not "Field: value", a NUL in a field name, ...) is read as far as it goes:
// the readable stanzas are rewritten as above, the damaged ones cannot be,
// so before the file is replaced its bytes are kept in
// "<path>.damaged" (or "<path>.damaged.N", the first name free or holding
// the same bytes), written as a state file is (temp file, fsync, rename),
// and a warning naming the file, the first bad line and the copy goes to
// `diags`. A damaged status file is read as far as it goes too. Throws
// aptus::Error naming the file when a file cannot be read or written.
void write_auto_marks(const config::Config& config, const std::vector<AutoMark>& marks, Diagnostics& diags);

// Dir::State::extended_states resolved as apt resolves it.
std::string extended_states_path(const config::Config& config);

}  // namespace aptus::system
