// apt-get build-dep: the build relations of source packages, met as
// `satisfy` meets relation lists (install/satisfy.hpp), with a placeholder
// "builddeps:NAME" per source package. A source package is named as
// `source` names one (name, name=version, name/release, a binary package's
// name), or given as a .dsc file or an unpacked source tree (its
// debian/control). Its Build-Depends and Build-Conflicts count, the -Arch
// ones unless APT::Get::Indep-Only, the -Indep ones unless
// APT::Get::Arch-Only, and APT::Build-Essential ("build-essential") is
// added to the relations.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::install {

struct BuildDeps {
    std::string source;               // the source package's name
    std::string placeholder;          // "builddeps:NAME" (a source tree: "builddeps:" and the path, as apt names it)
    std::vector<std::string> words;   // satisfy's words: relation lists, "Conflicts: " lists
    std::vector<std::string> notes;   // apt's: "NAME has no build depends."
    // "name/release", "./foo.dsc/release": the relations are met from that
    // release where the candidates cannot (apt's release walk).
    std::string release;
    bool from_file = false;  // a .dsc or a source tree (apt gives no notes for its walk)
};

// apt's note for an argument that is a file or a directory ("Note, using
// file './foo.dsc' to get the build dependencies"), printed before anything
// is read; nullopt for a source package's name.
std::optional<std::string> build_dep_path_note(std::string_view arg);

// The build relations of each argument, in order. Throws aptus::Error with
// apt's messages ("Unable to find a source package for WORD", a file that
// cannot be read or has no Source field).
std::vector<BuildDeps> read_build_deps(const cache::Cache& cache, const config::Config& config,
                                       std::span<const std::string> args,
                                       const system::Candidates* candidates = nullptr);

}  // namespace aptus::install
