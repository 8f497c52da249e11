// The text and JSON of `policy`, as apt-cache policy lays it out, built from
// a read session so the command only has to pick what to print.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::cli {

// Package files as apt lists them: the dpkg status first, then the Packages
// files in the reverse of the order the sources name them (apt prepends each
// file it adds to its list).
std::vector<uint32_t> listed_package_files(const cache::Cache& cache);

// "v=...,o=...,a=...,n=...,l=...,c=...,b=..." with empty fields left out.
std::string release_string(const cache::Cache& cache, const cache::IndexFile& file);

// How apt names a file in a version table or the file list: its description,
// or its path for the status file.
std::string_view file_label(const cache::Cache& cache, const cache::IndexFile& file);

// Packages with a version a specific pin decides, in the order apt 2.6 walks
// its package hash table.
struct PinnedVersion {
    const cache::Package* package;
    const cache::Version* version;
    int priority;
};
std::vector<PinnedVersion> pinned_versions(const cache::Cache& cache, const system::Candidates& candidates);

// The package a command-line word names ("name", "name:arch"), or nullptr;
// `known` says whether the name exists at all (a virtual package).
const cache::Package* resolve_package(const cache::Cache& cache, std::string_view word, bool& known);

std::string format_file_list(const cache::Cache& cache, const system::Candidates& candidates);
// `display_name` is what apt prints before the colon.
std::string format_package(const cache::Cache& cache, const system::Candidates& candidates,
                           const cache::Package* package, std::string_view display_name);

nlohmann::ordered_json json_file_list(const cache::Cache& cache, const system::Candidates& candidates);
nlohmann::ordered_json json_package(const cache::Cache& cache, const system::Candidates& candidates,
                                    const cache::Package* package, std::string_view display_name);

// apt's "pretty" full name: the architecture only when it is neither native nor "all".
std::string pretty_name(const cache::Cache& cache, const cache::Package& p);

}  // namespace aptus::cli
