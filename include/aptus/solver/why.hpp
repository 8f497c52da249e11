// `why` and `why-not` as plain values: the chain of relations that keeps an
// installed package on the system, or the facts that keep a package off it.
// The CLI turns them into text or JSON; nothing here prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver {

// Why a version stays for its own sake (the start of every `why` chain).
// Required: the installed version has Priority: required (apt keeps those
// even when they are automatic, Debian bug #583517).
enum class RootKind : uint8_t { Manual, Requested, Essential, Protected, Required, NeverAutoRemove, Held };

std::string_view root_kind_name(RootKind k);  // "manual", "requested", ...

// What autoremove's marking keeps, in the order it reaches it: a root with
// its kind, or (no kind) a version a kept one depends on. apt prints these
// under Debug::pkgAutoRemove.
struct KeepMark {
    uint32_t version;
    std::optional<RootKind> root;
};
std::vector<KeepMark> keep_marks(const Universe& u, const Request& r, const std::vector<uint32_t>& selected);

// One link: `from` has the relation `relation` (of kind `kind`, as written),
// and `to` is the version that meets it (why) or that it collides with
// (why-not). `to` is empty when nothing can meet the relation. `depth`
// nests the facts of why-not: a step at depth d+1 explains the `to` (or,
// when `to` is empty, an alternative) of the step above it at depth d.
struct WhyStep {
    uint32_t from = 0;
    DepKind kind = DepKind::Depends;
    std::string relation;
    std::optional<uint32_t> to;
    uint32_t depth = 0;
};

struct WhyResult {
    enum class Verdict : uint8_t {
        NotInstalled,  // nothing to explain: no version of the package is selected
        Root,          // the package is a root itself (`root`), no steps
        Chain,         // `steps` lead from a root (`root`, the first step's `from`) to `version`
        Unreached,     // installed, automatic, and nothing keeps it: autoremove would take it
    };
    Verdict verdict = Verdict::NotInstalled;
    uint32_t version = 0;           // the selected version of the package (not NotInstalled)
    RootKind root = RootKind::Manual;
    // The weakest relation of the chain: Depends (also for Pre-Depends),
    // Recommends or Suggests; the chain is the shortest of the strongest.
    DepKind strength = DepKind::Depends;
    std::vector<WhyStep> steps;
};

// The strongest chain that keeps `package` installed: from a root (manual,
// requested, essential, protected, APT::NeverAutoRemove as `r` says) through
// Depends/Pre-Depends only if possible, else allowing Recommends, else
// Suggests; the shortest such chain, following every selected way of meeting
// a relation. `selected`: the versions installed (any order).
WhyResult why(const Universe& u, const std::vector<uint32_t>& selected, uint32_t package, const Request& r = {});

struct WhyNotResult {
    enum class Verdict : uint8_t {
        Installed,     // a version of the package is installed (`version`)
        NoCandidate,   // nothing may be installed: no version is the candidate
        KeptOut,       // `steps` are the facts that keep `version` (the candidate) out
        Installable,   // nothing installed keeps the candidate out; it is just not installed
    };
    Verdict verdict = Verdict::Installable;
    uint32_t version = 0;
    std::vector<WhyStep> steps;
    // KeptOut found no direct fact but the solver cannot install it: its
    // explanation (explain.hpp). Empty otherwise.
    std::string solver_message;
};

// Why `package` is not installed, against the installed versions of `u` and
// the candidates it marks (strict pinning): its candidate conflicts with an
// installed version or an installed version breaks it, or one of its
// Depends/Pre-Depends has nothing installable (directly, or because every
// choice is itself kept out, nested by depth). When no such fact exists the
// solver is asked to install it; its failure is reported as `solver_message`.
WhyNotResult why_not(const Universe& u, uint32_t package, const Request& r = {});

}  // namespace aptus::solver
