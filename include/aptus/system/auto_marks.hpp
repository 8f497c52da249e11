// Writing apt's extended_states (Dir::State::extended_states): which
// packages were installed only as dependencies. The reader is the cache's
// (cache/extended_states.cpp); this is the one place that writes the file,
// as apt does after dpkg succeeded and as `aptus mark` does.
#pragma once

#include <string>
#include <vector>

#include "aptus/config/config.hpp"

namespace aptus::system {

struct AutoMark {
    std::string package;
    std::string architecture;  // "amd64"; "" means the native architecture
    bool automatic = false;
};

// Sets or clears Auto-Installed for each (package, architecture) in `marks`,
// keeping every other stanza and field byte for byte. As apt writes it, a
// package marked automatic gets "Package:", "Architecture:",
// "Auto-Installed: 1"; a manual package's stanza loses its Auto-Installed
// field and is dropped when nothing else is left in it. A stanza with no
// Architecture field counts as the native architecture's. The file is
// replaced atomically; nothing is written when nothing changes. Throws
// aptus::Error naming the file on a malformed extended_states.
void write_auto_marks(const config::Config& config, const std::vector<AutoMark>& marks);

// Drops the stanzas of (package, architecture) pairs that are no longer
// installed, as apt does on its next write of the file: apt keeps only the
// marks of packages it knows of, and a removed package's mark is cleared.
// `removed` uses the same rules as AutoMark (architecture "" = native).
struct PackageArch {
    std::string package;
    std::string architecture;
};
void forget_removed(const config::Config& config, const std::vector<PackageArch>& removed);

// Dir::State::extended_states resolved as apt resolves it.
std::string extended_states_path(const config::Config& config);

}  // namespace aptus::system
