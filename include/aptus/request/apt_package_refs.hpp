// apt's package records as the old apt-cache commands (showpkg, madison,
// xvcg, dotty) name them: a (name, architecture) pair whether or not any
// version has it, as apt keeps one record per name and architecture that
// anything in its lists mentions. aptus's cache keeps only the packages
// with versions; `real` is that package when there is one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"

namespace aptus::request {

struct AptPackageRef {
    uint32_t name;                      // index into cache.names()
    std::string arch;                   // "all" packages count as the native architecture
    const cache::Package* real = nullptr;
};

// Name as apt's FullName(true): ":arch" only for a foreign architecture.
std::string ref_full_name(const cache::Cache& cache, const AptPackageRef& ref);

// The records a command-line word names, as apt's PackageList::FromString
// finds them: "name" (the native record, else the only or first other
// one), "name:arch", else a shell glob or regular expression over the
// names. Empty when the word names nothing apt would know.
std::vector<AptPackageRef> apt_packages_for_word(const cache::Cache& cache, const config::Config& config,
                                                 std::string_view word);

// The record a dependency names: unqualified, the declaring package's
// architecture; "name:any" a record of its own (arch "any"); "name:native"
// the native one.
AptPackageRef dependency_target(const cache::Cache& cache, const cache::Dependency& d, const cache::Package& from);

// The dependency's target as apt prints it (FullName(true)).
std::string dependency_target_name(const cache::Cache& cache, const cache::Dependency& d, const cache::Package& from);

}  // namespace aptus::request
