// The CDCL core: clauses over boolean variables, unit propagation with two
// watched literals, first-UIP clause learning and non-chronological
// backjumping. It has no heuristic of its own: a Brancher (the policy) names
// each decision; when it has none left, every open variable is decided false
// ("not installed"). On failure, core() names the original clauses that the
// final conflict was derived from, so the caller can explain it.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace aptus::solver {

using Lit = uint32_t;  // 2 * variable + (1 if negated)
constexpr Lit no_lit = ~Lit{0};
constexpr Lit pos_lit(uint32_t var) { return var << 1; }
constexpr Lit neg_lit(uint32_t var) { return (var << 1) | 1; }
constexpr uint32_t lit_var(Lit l) { return l >> 1; }
constexpr bool lit_negated(Lit l) { return l & 1; }
constexpr Lit negate(Lit l) { return l ^ 1; }

enum class LBool : int8_t { False = -1, Undef = 0, True = 1 };

class Sat;

class Brancher {
public:
    virtual ~Brancher() = default;
    // The next literal to decide (unassigned), or no_lit to let the core
    // decide the remaining variables false.
    virtual Lit next(const Sat& sat) = 0;
    // Called after every backjump: decisions above `level` were undone.
    virtual void backtracked(uint32_t level) {}
};

class Sat {
public:
    uint32_t new_var();
    uint32_t var_count() const { return uint32_t(assign_.size()); }

    // Adds an original clause before solve(); `tag` is the caller's name for
    // it, returned by core(). Duplicate literals are allowed; a clause holding
    // both x and not-x is dropped. Returns the clause's index.
    uint32_t add_clause(std::span<const Lit> lits, uint32_t tag);

    // True: a model (value()); false: unsatisfiable, see core().
    bool solve(Brancher& brancher);

    LBool value(Lit l) const {
        LBool v = assign_[lit_var(l)];
        return lit_negated(l) ? LBool(-int8_t(v)) : v;
    }
    bool is_true(Lit l) const { return value(l) == LBool::True; }
    bool is_false(Lit l) const { return value(l) == LBool::False; }
    uint32_t level_of(uint32_t var) const { return level_[var]; }
    uint32_t decision_level() const { return uint32_t(trail_lim_.size()); }
    std::span<const Lit> trail() const { return trail_; }

    // The tags of the original clauses the final conflict depends on, in the
    // order their facts were derived (the conflicting clause last).
    std::vector<uint32_t> core() const;
    // The literals of clause `index` (for explanations).
    std::span<const Lit> clause(uint32_t index) const {
        return {lits_.data() + clauses_[index].begin, clauses_[index].size};
    }
    uint32_t clause_tag(uint32_t index) const { return clauses_[index].tag; }
    uint32_t clause_count() const { return uint32_t(clauses_.size()); }

    uint64_t decisions = 0, propagations = 0, conflicts = 0, learnt = 0;
    // Gives up (solve() returns false, timed_out() true) after this many conflicts.
    uint64_t conflict_limit = 1'000'000;
    bool timed_out() const { return timed_out_; }

private:
    static constexpr uint32_t no_clause = ~uint32_t{0};
    struct Clause {
        uint32_t begin, size, tag;
        bool learnt;
    };
    uint32_t attach(uint32_t begin, uint32_t size, uint32_t tag, bool learnt);
    void enqueue(Lit l, uint32_t reason);
    uint32_t propagate();
    void analyze(uint32_t conflict, std::vector<Lit>& learnt, uint32_t& backjump, std::vector<uint32_t>& antecedents);
    void backjump_to(uint32_t level);

    std::vector<LBool> assign_;
    std::vector<uint32_t> level_, reason_, trail_pos_;
    std::vector<uint8_t> seen_;
    std::vector<Lit> trail_;
    std::vector<uint32_t> trail_lim_;
    size_t qhead_ = 0;
    std::vector<Lit> lits_;
    std::vector<Clause> clauses_;
    std::vector<std::vector<uint32_t>> watches_;  // by literal: clauses watching its negation becoming true
    std::vector<uint32_t> units_;                 // original clauses of one literal
    std::vector<uint32_t> empty_;                 // original empty clauses
    std::unordered_map<uint32_t, std::vector<uint32_t>> antecedents_;  // learnt clause -> clauses it came from
    uint32_t final_conflict_ = no_clause;
    uint32_t default_cursor_ = 0;
    bool timed_out_ = false;
};

}  // namespace aptus::solver
