// The request, the answer, and solve(): the policy of apt's solver3 (keep what
// is installed, the request first, first working alternative, candidates,
// strict pinning, Recommends when possible) on a CDCL core (sat.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aptus/solver/universe.hpp"

namespace aptus::solver {

struct Request {
    std::vector<uint32_t> install;  // packages to install (at their candidate)
    std::vector<uint32_t> remove;   // packages to remove
    bool purge = false;             // passed through to the plan, no effect on the choice
    bool upgrade_all = false;       // upgrade every installed package where possible
    bool forbid_remove = false;     // `upgrade`: nothing installed may go
    bool forbid_new_install = false;
    bool autoremove = false;        // remove what nothing needs any more, instead of reporting it
    bool strict_pinning = true;     // a version that is neither installed nor candidate is never chosen
    bool remove_manual = false;     // manually installed packages may be removed when needed
    // solver3's stricter rule on a full upgrade: a manually installed package
    // stays even when it is obsolete (what needs its successor is held back).
    bool keep_obsolete_manual = false;
    // apt's classic solver (apt-get's "internal") in an `upgrade`: an
    // upgrade or new package whose Depends or-group nothing installed
    // satisfies takes the group's first alternative that can be had, or is
    // kept back; it never falls to a later one (solver3 and aptus do).
    bool first_alternative_upgrades = false;
    bool allow_remove_essential = false;  // essential/protected packages in `remove` may go (--allow-remove-essential)
    bool install_recommends = true;
    bool install_suggests = false;
    bool recommends_important = true;  // APT::AutoRemove::RecommendsImportant
    bool suggests_important = true;    // APT::AutoRemove::SuggestsImportant
    std::vector<std::string> never_autoremove;  // APT::NeverAutoRemove: extended regexes on package names
    // Autoremove: a relation met by an installed real package of the name it
    // names keeps only that, not its providers (APT 3.1's solver).
    bool autoremove_real_first = false;
};

struct SolveStats {
    uint64_t decisions = 0, propagations = 0, conflicts = 0, learnt = 0;
    uint32_t variables = 0, clauses = 0;
};

// Where a fact of an unsolvable request comes from.
enum class ReasonKind : uint8_t {
    RequestInstall, RequestRemove, Hold, Essential, Protected, NoRemovals, Manual, OneVersion, MultiArchSame, Dependency, Conflict,
    NewEssential, OneArchitecture,
};

// One fact of the conflict that makes a request unsolvable, for a front end
// that shows or acts on it without reading the English (explain.hpp).
struct Fact {
    ReasonKind kind;
    std::string package;  // the package the fact is about ("name" or "name:arch")
    std::string version;  // its version the fact names (empty for a request)
    std::string text;     // the fact as one English sentence
};

struct Solution {
    bool solved = false;
    std::vector<uint32_t> install;     // versions to install (new, upgrade or downgrade)
    std::vector<uint32_t> remove;      // installed versions whose package goes away
    std::vector<uint32_t> autoremove;  // installed, automatic, needed by nothing any more, not upgraded
    std::vector<uint32_t> selected;    // every version installed afterwards, ascending
    std::string error_id;              // ERR_UNSOLVABLE... when !solved
    std::string message;               // first line a summary, then the chain of facts
    std::vector<Fact> facts;           // the same facts as values (empty when the solver gave up)
    // A changed request the solver meets (suggest.hpp), as a command line's
    // words after the program's name; empty when none of the tries worked.
    std::vector<std::string> suggestion;
    SolveStats stats;
};

Solution solve(const Universe& u, const Request& r);

// apt's notion of an obsolete installed package, which a full upgrade may
// remove even when it was installed manually: it has no candidate (no
// repository has it any more), or its candidate is what is installed and
// another binary package of the same source and architecture has a
// candidate of a newer source version (the old half of a library
// transition, libfoo1 -> libfoo1t64). By universe package: kNotObsolete,
// kNoCandidate, or that newer candidate version.
inline constexpr uint32_t kNotObsolete = UINT32_MAX, kNoCandidate = UINT32_MAX - 1;
std::vector<uint32_t> obsolete_packages(const Universe& u);

// Auto-installed packages of `selected` that no manual, essential or
// protected package reaches through Depends/Pre-Depends (and Recommends,
// Suggests as the request's *_important say), as versions, ascending.
// `with_new`: also what is not installed yet (apt-get's "no longer required"
// names a package the same plan installs for an auto package nothing needs).
std::vector<uint32_t> autoremovable(const Universe& u, const Request& r, const std::vector<uint32_t>& selected,
                                    bool with_new = false);

// An independent check of an installation: every Depends/Pre-Depends group of
// a selected version met by a selected version, no Conflicts/Breaks hit, at
// most one version per package. Returns one line per problem; empty when sound.
std::vector<std::string> check_installation(const Universe& u, const std::vector<uint32_t>& selected);

}  // namespace aptus::solver
