// apt-get satisfy: relations given as text ("foo (>= 1) [amd64] <!nocheck>",
// "Conflicts: bar") are met by installing a placeholder package that has
// them, "satisfy:command-line" version 1 of the host architecture; the
// placeholder itself is never part of the plan. Arch restrictions are read
// for APT::Get::Host-Architecture (else the native one), build profiles for
// APT::Build-Profiles, as apt does.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::install {

inline constexpr std::string_view kSatisfyPlaceholder = "satisfy:command-line";

// Reads the words as add_satisfy_placeholder does and throws its errors,
// without a universe: apt refuses a bad word before it reads the system.
void check_satisfy_words(std::span<const std::string> words);

// Adds the placeholder of `words` (each a Depends list, or "Conflicts: " and
// a Conflicts list) to `su` and returns its universe package, for the
// request to install. Throws aptus::Error with apt's messages: "Problem
// parsing dependency: WORD" (not a relation list, another field such as
// "Recommends:", an empty word) and "Invalid operator '<' at offset N, did
// you mean '<<' or '<='? - in: WORD" for dpkg's obsolete operators.
uint32_t add_satisfy_placeholder(system::SystemUniverse& su, const config::Config& config,
                                 std::span<const std::string> words, std::string_view name = kSatisfyPlaceholder);

// The packages the solution meets the placeholder's Depends with (the first
// chosen alternative of each group): as apt, they count as asked for (manual
// afterwards), what they pull in as automatic.
std::vector<uint32_t> placeholder_satisfiers(const system::SystemUniverse& su, uint32_t placeholder,
                                             const solver::Solution& solution);

// Takes the placeholder's versions out of a solution (they are in the
// universe only; nothing installs them).
void drop_placeholder(const system::SystemUniverse& su, uint32_t placeholder, solver::Solution& solution);

}  // namespace aptus::install
