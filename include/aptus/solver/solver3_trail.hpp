// A replay of APT 3.0's solver3 on a universe, kept only to explain a
// request that cannot be met in solver3's own words ("Reached two
// conflicting decisions"): those words name solver3's variables (a package,
// or one version of it), the clause that set each one and the order it set
// them in, none of which aptus's own solver has. So this walks the request
// as solver3 does — its facts first, then unit propagation of what each
// selected package or version needs or excludes, then the open or-groups by
// its priority, first choice first, going back on a choice that fails —
// and records why each variable got its value, until it reaches the
// conflict solver3 reports. Nothing here prints: solver3_words.cpp says it.
//
// It is a model of solver3, not a second solver: no learning beyond
// solver3's own "not this choice", and a step limit after which it gives up
// (the caller then explains in aptus's words).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "aptus/solver/solver.hpp"
#include "aptus/solver/universe.hpp"

namespace aptus::solver::solver3 {

// solver3's clause groups, in the order it works on them.
enum class Group : uint8_t {
    HoldOrDelete, SatisfyNew, Satisfy, SatisfyObsolete, SelectVersion,
    UpgradeManual, InstallManual, ObsoleteManual, UpgradeAuto, KeepAuto, ObsoleteAuto, SatisfySuggests,
};

enum class Decision : uint8_t { None, Must, MustNot };

// A variable: a package (0 .. packages-1) or a version (packages + index).
using Var = int32_t;
constexpr Var kNoVar = -1;
constexpr int32_t kNoClause = -1;

struct Clause {
    Var reason = kNoVar;  // the variable whose choice brings the clause in
    Group group = Group::Satisfy;
    bool optional = false;
    bool negative = false;
    // The relation as written (for its words), when the clause is one; an
    // implicit Multi-Arch Conflicts/Breaks names its targets' architectures
    // in `Target::arch` and sets `implicit`.
    std::optional<Dependency> dep;
    bool implicit = false;
    uint32_t dep_from = 0;  // the version whose relation it is
    std::vector<Var> solutions;
};

struct VarState {
    Decision decision = Decision::None;
    int32_t reason = kNoClause;  // the clause that set it; none for a fact or a choice
    uint32_t depth = 0;
    bool discovered = false;
    std::vector<int32_t> clauses;   // clauses this variable brings in
    std::vector<int32_t> rclauses;  // clauses it is a solution of
};

// The two decisions solver3 reports: the one it holds (`first_*`) and the
// one it tried (`second_*`), both about `var`.
struct Conflict {
    Var var = kNoVar;
    bool first_decision = false;
    int32_t first_reason = kNoClause;
    bool second_decision = false;
    int32_t second_reason = kNoClause;
};

class Trail {
public:
    Trail(const Universe& u, const Request& r);
    // Runs the replay; the conflict solver3 ends with, or nullopt when the
    // replay finds a solution or gives up.
    std::optional<Conflict> run();

    const Universe& universe() const { return u_; }
    bool is_package(Var v) const { return v >= 0 && uint32_t(v) < u_.packages.size(); }
    uint32_t package_of(Var v) const { return is_package(v) ? uint32_t(v) : u_.versions[version_of(v)].package; }
    uint32_t version_of(Var v) const { return uint32_t(v) - uint32_t(u_.packages.size()); }
    Var package_var(uint32_t p) const { return Var(p); }
    Var version_var(uint32_t v) const { return Var(u_.packages.size() + v); }
    std::optional<uint32_t> installed(uint32_t package) const;
    const VarState& state(Var v) const { return states_[size_t(v)]; }
    const Clause& clause(int32_t c) const { return clauses_[size_t(c)]; }

private:
    struct Work {
        int32_t clause;
        uint32_t depth;
        size_t size = 0;
        bool erased = false;
    };
    struct Solved {
        Var assigned = kNoVar;
        std::optional<Work> work;
    };
    bool work_less(const Work& a, const Work& b) const;
    bool enqueue(Var v, bool decision, int32_t reason);
    bool assume(Var v, bool decision);
    bool propagate();
    bool add_work(Work w);
    void push(Var v, const Work& w);
    void undo_one();
    bool pop();
    bool solve();
    bool facts();
    void discover(Var v);
    int32_t register_clause(Clause c);
    Clause translate(uint32_t from, const Dependency& d, Var reason, bool implicit);
    std::vector<Dependency> implicit_deps(uint32_t version) const;
    bool compare_versions(uint32_t a, uint32_t b, std::optional<uint32_t> target) const;
    bool compare_vars(Var a, Var b, std::optional<uint32_t> target) const;
    std::optional<uint32_t> candidate(uint32_t package) const;
    bool important(DepKind k) const;
    // A Conflicts of a package on a name it provides lists the package too.
    bool itself(const Clause& c, Var s) const;
    uint32_t depth() const { return uint32_t(choices_.size()); }

    const Universe& u_;
    const Request& r_;
    std::vector<VarState> states_;
    std::vector<Clause> clauses_;
    std::vector<Work> work_;
    std::vector<Solved> solved_;
    std::vector<size_t> choices_;
    std::vector<Var> prop_queue_;
    size_t prop_head_ = 0;
    std::optional<Conflict> last_;
    size_t steps_ = 0;
    bool gave_up_ = false;
};

}  // namespace aptus::solver::solver3
