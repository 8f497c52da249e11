#include "aptus/solver/sat.hpp"

#include <algorithm>

namespace aptus::solver {

uint32_t Sat::new_var() {
    uint32_t v = uint32_t(assign_.size());
    assign_.push_back(LBool::Undef);
    level_.push_back(0);
    reason_.push_back(no_clause);
    trail_pos_.push_back(0);
    seen_.push_back(0);
    watches_.emplace_back();
    watches_.emplace_back();
    return v;
}

uint32_t Sat::attach(uint32_t begin, uint32_t size, uint32_t tag, bool learnt) {
    uint32_t index = uint32_t(clauses_.size());
    clauses_.push_back({begin, size, tag, learnt});
    if (size >= 2) {
        watches_[lits_[begin]].push_back(index);
        watches_[lits_[begin + 1]].push_back(index);
    }
    return index;
}

uint32_t Sat::add_clause(std::span<const Lit> in, uint32_t tag) {
    uint32_t begin = uint32_t(lits_.size());
    for (Lit l : in) {
        auto first = lits_.begin() + begin;
        if (std::find(first, lits_.end(), negate(l)) != lits_.end()) {
            lits_.resize(begin);  // x or not-x: always true
            return no_clause;
        }
        if (std::find(first, lits_.end(), l) == lits_.end()) lits_.push_back(l);
    }
    uint32_t size = uint32_t(lits_.size()) - begin;
    uint32_t index = attach(begin, size, tag, false);
    if (size == 1) units_.push_back(index);
    if (size == 0) empty_.push_back(index);
    return index;
}

void Sat::enqueue(Lit l, uint32_t reason) {
    uint32_t v = lit_var(l);
    assign_[v] = lit_negated(l) ? LBool::False : LBool::True;
    level_[v] = decision_level();
    reason_[v] = reason;
    trail_pos_[v] = uint32_t(trail_.size());
    trail_.push_back(l);
}

uint32_t Sat::propagate() {
    while (qhead_ < trail_.size()) {
        Lit p = trail_[qhead_++];
        Lit false_lit = negate(p);
        std::vector<uint32_t>& ws = watches_[false_lit];
        ++propagations;
        size_t i = 0, j = 0;
        uint32_t conflict = no_clause;
        while (i < ws.size()) {
            uint32_t ci = ws[i++];
            Clause& c = clauses_[ci];
            Lit* lits = lits_.data() + c.begin;
            if (lits[0] == false_lit) std::swap(lits[0], lits[1]);
            if (value(lits[0]) == LBool::True) {
                ws[j++] = ci;
                continue;
            }
            bool moved = false;
            for (uint32_t k = 2; k < c.size; ++k)
                if (value(lits[k]) != LBool::False) {
                    std::swap(lits[1], lits[k]);
                    watches_[lits[1]].push_back(ci);
                    moved = true;
                    break;
                }
            if (moved) continue;
            ws[j++] = ci;
            if (value(lits[0]) == LBool::False) {
                conflict = ci;
                while (i < ws.size()) ws[j++] = ws[i++];
            } else {
                enqueue(lits[0], ci);
            }
        }
        ws.resize(j);
        if (conflict != no_clause) return conflict;
    }
    return no_clause;
}

void Sat::analyze(uint32_t conflict, std::vector<Lit>& out, uint32_t& backjump, std::vector<uint32_t>& antecedents) {
    out.clear();
    out.push_back(no_lit);
    int path = 0;
    Lit p = no_lit;
    size_t index = trail_.size();
    uint32_t c = conflict;
    std::vector<uint32_t> to_clear;
    do {
        antecedents.push_back(c);
        const Clause& cl = clauses_[c];
        for (uint32_t k = (p == no_lit ? 0 : 1); k < cl.size; ++k) {
            Lit q = lits_[cl.begin + k];
            uint32_t v = lit_var(q);
            if (seen_[v] || level_[v] == 0) continue;
            seen_[v] = 1;
            to_clear.push_back(v);
            if (level_[v] == decision_level())
                ++path;
            else
                out.push_back(q);
        }
        do --index; while (!seen_[lit_var(trail_[index])]);
        p = trail_[index];
        c = reason_[lit_var(p)];
        seen_[lit_var(p)] = 0;
        --path;
    } while (path > 0);
    out[0] = negate(p);
    for (uint32_t v : to_clear) seen_[v] = 0;

    backjump = 0;
    if (out.size() > 1) {
        size_t best = 1;
        for (size_t k = 2; k < out.size(); ++k)
            if (level_[lit_var(out[k])] > level_[lit_var(out[best])]) best = k;
        std::swap(out[1], out[best]);
        backjump = level_[lit_var(out[1])];
    }
}

void Sat::backjump_to(uint32_t level) {
    if (decision_level() <= level) return;
    size_t keep = trail_lim_[level];
    for (size_t k = trail_.size(); k-- > keep;) {
        uint32_t v = lit_var(trail_[k]);
        assign_[v] = LBool::Undef;
        reason_[v] = no_clause;
    }
    trail_.resize(keep);
    trail_lim_.resize(level);
    qhead_ = keep;
    default_cursor_ = 0;
}

bool Sat::solve(Brancher& brancher) {
    timed_out_ = false;
    if (!empty_.empty()) {
        final_conflict_ = empty_.front();
        return false;
    }
    for (uint32_t ci : units_) {
        Lit l = lits_[clauses_[ci].begin];
        if (value(l) == LBool::False) {
            final_conflict_ = ci;
            return false;
        }
        if (value(l) == LBool::Undef) enqueue(l, ci);
    }
    std::vector<Lit> learnt_lits;
    std::vector<uint32_t> antecedents;
    for (;;) {
        uint32_t conflict = propagate();
        if (conflict != no_clause) {
            ++conflicts;
            if (decision_level() == 0) {
                final_conflict_ = conflict;
                return false;
            }
            if (conflicts > conflict_limit) {
                timed_out_ = true;
                final_conflict_ = no_clause;
                return false;
            }
            uint32_t level = 0;
            antecedents.clear();
            analyze(conflict, learnt_lits, level, antecedents);
            backjump_to(level);
            uint32_t begin = uint32_t(lits_.size());
            lits_.insert(lits_.end(), learnt_lits.begin(), learnt_lits.end());
            uint32_t ci = attach(begin, uint32_t(learnt_lits.size()), 0, true);
            antecedents_[ci] = antecedents;
            ++learnt;
            enqueue(learnt_lits[0], ci);
            brancher.backtracked(level);
            continue;
        }
        Lit d = brancher.next(*this);
        if (d == no_lit) {
            while (default_cursor_ < assign_.size() && assign_[default_cursor_] != LBool::Undef) ++default_cursor_;
            if (default_cursor_ == assign_.size()) return true;
            d = neg_lit(default_cursor_);
        }
        ++decisions;
        trail_lim_.push_back(uint32_t(trail_.size()));
        enqueue(d, no_clause);
    }
}

std::vector<uint32_t> Sat::core() const {
    std::vector<uint32_t> result;
    if (final_conflict_ == no_clause) return result;
    std::vector<uint8_t> done(clauses_.size(), 0);
    std::vector<uint32_t> work{final_conflict_};
    std::vector<uint32_t> originals;
    while (!work.empty()) {
        uint32_t c = work.back();
        work.pop_back();
        if (done[c]) continue;
        done[c] = 1;
        if (clauses_[c].learnt) {
            if (auto it = antecedents_.find(c); it != antecedents_.end())
                for (uint32_t a : it->second) work.push_back(a);
        } else {
            originals.push_back(c);
        }
        // Every fact of level 0 this clause leans on came from somewhere too.
        for (uint32_t k = 0; k < clauses_[c].size; ++k) {
            uint32_t v = lit_var(lits_[clauses_[c].begin + k]);
            if (assign_[v] != LBool::Undef && level_[v] == 0 && reason_[v] != no_clause) work.push_back(reason_[v]);
        }
    }
    // In derivation order: a reason before the facts it implied, the conflict last.
    std::vector<std::pair<uint64_t, uint32_t>> order;
    std::vector<uint64_t> implied_pos(clauses_.size(), ~uint64_t{0} - 1);
    for (size_t k = 0; k < trail_.size(); ++k) {
        uint32_t r = reason_[lit_var(trail_[k])];
        if (r != no_clause && implied_pos[r] == ~uint64_t{0} - 1) implied_pos[r] = k;
    }
    for (uint32_t c : originals)
        order.emplace_back(c == final_conflict_ ? ~uint64_t{0} : implied_pos[c], c);
    std::sort(order.begin(), order.end());
    for (auto& [k, c] : order) result.push_back(clauses_[c].tag);
    return result;
}

}  // namespace aptus::solver
