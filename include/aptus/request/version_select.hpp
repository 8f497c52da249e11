// How apt's read commands turn the words of the command line ("bash",
// "bash:amd64", "bash=5.2-1", "bash/trixie") into versions, with the notices
// apt gives for the words that name none.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/deb/package_word.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::request {

using deb::PackageWord;
using deb::parse_package_word;

enum class Select { Candidate, All };

// Does `v` come from the release named `rel` (its suite or codename; "now"
// names the dpkg status, as apt has it)?
bool in_release(const cache::Cache& cache, const cache::Version& v, std::string_view rel);

struct Selection {
    std::vector<const cache::Version*> versions;
    // Words that name a package without a version to show (apt: "virtual").
    std::vector<const cache::Package*> virtuals;
    std::vector<std::string> virtual_names;  // names without any package record
    std::vector<std::string> virtual_order;  // both, as shown, in the order they were found
};

// The package a word names: its architecture, else the native one, else
// the only one there is. nullptr when none.
const cache::Package* find_word_package(const cache::Cache& cache, const PackageWord& w);

// Adds apt's notices for unmatched words to `notices` (apt prints them only
// at quiet 0, so the caller decides).
void select_versions(const cache::Cache& cache, const system::Candidates& candidates, std::string_view word,
                     Select how, Selection& out, std::vector<std::string>& notices);

// Name as apt's FullName(true): ":arch" only for a foreign architecture.
std::string full_name(const cache::Cache& cache, const cache::Package& p);

// The file a version's record is read from: the first archive file, the
// dpkg status only when no archive has the version.
const cache::VersionFile* record_file(const cache::Cache& cache, const cache::Version& v);

}  // namespace aptus::request
