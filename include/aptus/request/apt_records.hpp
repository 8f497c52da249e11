// apt keeps one package record per (name, architecture) that anything in
// its lists names, with or without versions: `apt show maf-data:i386` says
// "not a real package (virtual)" where aptus's cache has no such package,
// because an i386 package depends on maf-data. aptus's cache keeps only
// packages with records of their own, so these helpers answer apt's
// question from the dependencies and provides that name the package.
#pragma once

#include <cstdint>
#include <string_view>

#include "aptus/cache/cache.hpp"

namespace aptus::request {

// The architecture apt files a package under: "all" counts as the native one.
std::string_view apt_architecture(const cache::Cache& cache, const cache::Package& p);

// The package (name, arch) of aptus's cache, "all" packages under the native
// architecture; nullptr when there is none.
const cache::Package* package_for_arch(const cache::Cache& cache, uint32_t name, std::string_view arch);

bool is_negative(cache::DepType t);

// Whether apt has a record for `name` of architecture `arch`: a package of
// that architecture, a dependency without architecture qualifier from a
// package of that architecture, a Provides by one, or an explicit
// "name:arch" in a dependency. apt files a Conflicts/Breaks/Replaces without
// qualifier against the name's existing records of every architecture, and
// creates one of the declaring package's architecture only when the name
// has none yet (the declaring native package is read first).
bool apt_has_record(const cache::Cache& cache, uint32_t name, std::string_view arch);

}  // namespace aptus::request
