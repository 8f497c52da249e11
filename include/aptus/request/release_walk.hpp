// apt's SetCandidateRelease walk: a version picked by release (pkg/release,
// a .deb or .dsc named with /release) takes the dependencies its candidates
// cannot meet to that release too, and so on down; if some Depends cannot
// be met from the release, every move of the walk is undone and the solver
// gets the request as it stood.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::request {

struct ReleaseMove {
    uint32_t package, from, to, because;  // universe package, old candidate (or kNone), new one, depender
};

// Walks from `version` (a universe version), changing candidates in `su`.
// `recommends`/`suggests`: those relations are followed too (apt follows
// them as it would install them). The moves made; none when undone.
std::vector<ReleaseMove> follow_release(system::SystemUniverse& su, const cache::Cache& c, uint32_t version,
                                        const std::string& release, bool recommends, bool suggests);

// apt's notes for the moves: "Selected version 'V' (rel [arch]) for 'name'
// because of 'depender'". A depender the cache does not have (build-dep's
// placeholder) is named `placeholder_name`.
std::vector<std::string> release_move_notes(const system::SystemUniverse& su, const cache::Cache& c,
                                            const std::vector<ReleaseMove>& moves,
                                            const std::string& placeholder_name = "");

}  // namespace aptus::request
