// Whether what a plan installs can be authenticated: a version is when one
// of the Packages files it is listed in belongs to an authenticated
// repository (cache::kIndexTrusted). apt asks before it installs anything
// that is not, and refuses under -y without --allow-unauthenticated.
#pragma once

#include "aptus/cache/cache.hpp"

namespace aptus::system {

bool is_authenticated(const cache::Cache& cache, const cache::Version& version);

}  // namespace aptus::system
