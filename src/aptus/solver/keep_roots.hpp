// What autoremove and `why` both start from: the installed versions that stay
// for their own sake. One definition, so `why` never names a root that
// autoremove would not keep (or the other way round).
#pragma once

#include <cstdint>
#include <vector>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/why.hpp"

namespace aptus::solver {

// For each version of `selected`, in the same order: why it is a root, or
// std::nullopt. Throws aptus::Error for a bad APT::NeverAutoRemove pattern.
std::vector<std::optional<RootKind>> keep_roots(const Universe& u, const Request& r, const std::vector<uint32_t>& selected);

}  // namespace aptus::solver
