// When a cache must be rebuilt. The stamp is a byte string recording every
// input value (paths, kinds, release links, native architecture, the
// configuration fingerprint) and, for every file, stat() data: existence,
// size, mtime in nanoseconds, inode and device. Equal stamps mean nothing the
// cache depends on changed; the file is stamped before its inputs are read,
// so a file changing during a build makes the next run rebuild.
#pragma once

#include <string>

#include "aptus/cache/cache.hpp"
#include "aptus/cache/inputs.hpp"

namespace aptus::cache {

std::string compute_stamp(const CacheInputs& inputs);

bool is_up_to_date(const Cache& cache, const CacheInputs& inputs);

}  // namespace aptus::cache
