#include <gtest/gtest.h>

#include "aptus/solver/sat.hpp"

namespace aptus::solver {
namespace {

// Decides the given literals in order (skipping assigned ones), then stops.
class ListBrancher : public Brancher {
public:
    explicit ListBrancher(std::vector<Lit> order) : order_(std::move(order)) {}
    Lit next(const Sat& sat) override {
        for (Lit l : order_)
            if (sat.value(l) == LBool::Undef) return l;
        return no_lit;
    }
    std::vector<Lit> order_;
};

TEST(Sat, PropagatesUnitsAndDefaultsOpenVariablesToFalse) {
    Sat s;
    uint32_t a = s.new_var(), b = s.new_var(), c = s.new_var();
    Lit unit[] = {pos_lit(a)};
    Lit imp[] = {neg_lit(a), pos_lit(b)};
    s.add_clause(unit, 1);
    s.add_clause(imp, 2);
    ListBrancher none({});
    ASSERT_TRUE(s.solve(none));
    EXPECT_TRUE(s.is_true(pos_lit(a)));
    EXPECT_TRUE(s.is_true(pos_lit(b)));
    EXPECT_TRUE(s.is_false(pos_lit(c)));
    EXPECT_EQ(s.decisions, 1u);  // only c, decided false
}

TEST(Sat, LearnsFromABadDecisionAndBackjumps) {
    // x -> (y | z), y -> w, z -> w, w false: deciding x first must fail and
    // be learnt as "not x" without the brancher's help.
    Sat s;
    uint32_t x = s.new_var(), y = s.new_var(), z = s.new_var(), w = s.new_var();
    Lit c1[] = {neg_lit(x), pos_lit(y), pos_lit(z)};
    Lit c2[] = {neg_lit(y), pos_lit(w)};
    Lit c3[] = {neg_lit(z), pos_lit(w)};
    Lit c4[] = {neg_lit(w)};
    s.add_clause(c1, 1);
    s.add_clause(c2, 2);
    s.add_clause(c3, 3);
    s.add_clause(c4, 4);
    ListBrancher b({pos_lit(x), pos_lit(y)});
    ASSERT_TRUE(s.solve(b));
    EXPECT_TRUE(s.is_false(pos_lit(x)));
}

TEST(Sat, ConflictAfterSearchYieldsACoreOfOriginalClauses) {
    // Pigeonhole: three pigeons, two holes. Needs search and learning.
    Sat s;
    uint32_t p[3][2];
    for (auto& row : p)
        for (auto& v : row) v = s.new_var();
    uint32_t tag = 0;
    for (auto& row : p) {
        Lit c[] = {pos_lit(row[0]), pos_lit(row[1])};
        s.add_clause(c, tag++);
    }
    for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 3; ++i)
            for (int j = i + 1; j < 3; ++j) {
                Lit c[] = {neg_lit(p[i][h]), neg_lit(p[j][h])};
                s.add_clause(c, tag++);
            }
    ListBrancher b({pos_lit(p[0][0]), pos_lit(p[1][1])});
    ASSERT_FALSE(s.solve(b));
    EXPECT_GT(s.conflicts, 0u);
    EXPECT_GT(s.learnt, 0u);
    auto core = s.core();
    EXPECT_FALSE(core.empty());
    for (uint32_t t : core) EXPECT_LT(t, tag);
}

TEST(Sat, TautologiesAreDroppedAndEmptyClausesFail) {
    Sat s;
    uint32_t a = s.new_var();
    Lit taut[] = {pos_lit(a), neg_lit(a)};
    s.add_clause(taut, 1);
    ListBrancher b({});
    EXPECT_TRUE(s.solve(b));
    Sat e;
    e.new_var();
    e.add_clause({}, 7);
    EXPECT_FALSE(e.solve(b));
    EXPECT_EQ(e.core(), std::vector<uint32_t>{7});
}

}  // namespace
}  // namespace aptus::solver
