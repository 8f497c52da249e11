// Sources for one run only, as apt has them ("volatile" files): a .deb or
// .ddeb, or a Packages index (any compression), named by --with-source
// (APT::Sources::With) or by a word of install, remove, show and the like
// that is a path. They join the cache (built in memory for the run, the
// cache file left alone) ahead of the configured sources: a .deb as a
// one-package index of archive "local-deb", a Packages file under its own
// path; their files are fetched from beside them.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/cache/inputs.hpp"
#include "aptus/config/config.hpp"

namespace aptus::system {

// apt's rule for a command-line word that names a file rather than a
// package: it starts with '/', "./" or "../" (or is "." or "..").
// "incoming/foo.deb" is a package name, and not found.
bool is_path_word(std::string_view word);

// A path word taken apart: "./foo.deb/experimental" is the file
// "./foo.deb" and the release its dependencies are taken from (apt's
// release walk), when "./foo.deb" is a file and the whole word is not.
struct PathWord {
    std::string path;
    std::string release;  // "" when none
};
PathWord split_path_word(std::string_view word);

// Adds each path word of `words` to APT::Sources::With. Throws apt's
// "Unsupported file X given on commandline" for a path that is neither a
// .deb/.ddeb nor a Packages file.
void add_path_words(config::Config& config, std::span<const std::string> words);

// The inputs of the files in APT::Sources::With (in order) and their
// Release files, to be put before the configured ones: `release_base` is
// the number of releases already in the inputs. Each .deb's control file is
// read now; a file that cannot be read throws apt's lines ending in "The
// package lists or status file could not be parsed or opened.".
struct VolatileInputs {
    std::vector<cache::ReleaseInput> releases;
    std::vector<cache::IndexInput> indices;
};
VolatileInputs volatile_inputs(const config::Config& config, uint32_t release_base);

// The version a path word added (the .deb's package), by the file's
// absolute path; nothing for a word that added none.
const cache::Version* volatile_version(const cache::Cache& cache, std::string_view word);

// The version came from a .deb given on the command line and is installed,
// but the .deb's relations or installed size are not what dpkg recorded for
// it: apt holds them as two versions of the same number, so the .deb is
// installed again.
bool differs_from_installed(const cache::Cache& cache, const cache::Version& v);

// Where the files of a volatile index are fetched from: "file:" and the
// directory of the .deb or Packages file ("" for an index that is not
// volatile).
std::string volatile_base_uri(const cache::Cache& cache, const cache::IndexFile& file);

}  // namespace aptus::system
