// Request::allow_remove_essential (--allow-remove-essential): an essential or
// protected package the request names may go; without it solver3 keeps it.
#include <gtest/gtest.h>

#include "aptus/solver/solver.hpp"
#include "solver_test_util.hpp"

namespace aptus::solver {
namespace {

using V = std::vector<std::string>;

const char* kSystem =
    "Package: shell\nVersion: 1\nEssential: yes\nInstalled: yes\n\n"
    "Package: guard\nVersion: 1\nProtected: yes\nInstalled: yes\n\n"
    "Package: tool\nVersion: 1\nInstalled: yes\nDepends: shell\n\n"
    "Package: core\nVersion: 1\nEssential: yes\nInstalled: yes\n";

TEST(AllowRemoveEssential, NamedEssentialPackageStaysWithoutIt) {
    auto sc = test::scenario("Remove: shell\n", kSystem);
    Solution s = solve(sc.universe, sc.request);
    EXPECT_FALSE(s.solved);
    EXPECT_NE(s.message.find("shell"), std::string::npos) << s.message;
}

TEST(AllowRemoveEssential, NamedEssentialAndProtectedPackagesGoWithIt) {
    auto sc = test::scenario("Remove: shell guard tool\n", kSystem);
    sc.request.allow_remove_essential = true;
    Solution s = solve(sc.universe, sc.request);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_EQ(test::names_of(sc.universe, s.remove), (V{"guard=1", "shell=1", "tool=1"}));
    // Only what is named: the other essential package stays.
    EXPECT_EQ(test::selected(sc.universe, s), (V{"core=1"}));
}

TEST(AllowRemoveEssential, WhatNeedsTheEssentialPackageStillHolds) {
    // tool is manual and depends on shell: removing shell alone is refused.
    auto sc = test::scenario("Remove: shell\n", kSystem);
    sc.request.allow_remove_essential = true;
    Solution s = solve(sc.universe, sc.request);
    EXPECT_FALSE(s.solved);
}

}  // namespace
}  // namespace aptus::solver
