// The transfer loop (fetcher.cpp) as the two ways of running it see it:
// fetch() in this process, and the sandboxed downloader (fetch_sandbox.cpp),
// a child that dropped to the sandbox user and gets its part files from the
// root parent as descriptors.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "aptus/acquire/fetcher.hpp"
#include "transfer_sink.hpp"

namespace aptus::acquire {

// The part-file hooks of request i; empty: the sink makes its own file.
using PartFileHooksFor = std::function<PartFileHooks(size_t)>;

std::vector<FetchResult> run_transfers(const std::vector<FetchRequest>& requests, const FetchOptions& options,
                                       const FetchCallback& callback, const PartFileHooksFor& hooks);

// fetch() with options.sandbox set: file: and copy: requests here, the
// network ones in the sandboxed child.
std::vector<FetchResult> fetch_sandboxed(const std::vector<FetchRequest>& requests, const FetchOptions& options,
                                         const FetchCallback& callback);

}  // namespace aptus::acquire
