#include "aptus/install/session.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/test_support.hpp"

namespace aptus::install {
namespace {

// A session on the real server sandbox, its cache in a temporary directory.
struct Opened {
    test::TempDir tmp{"session"};
    std::unique_ptr<Session> session;
    explicit Opened(const std::string& root) {
        SessionOptions where;
        where.config_file = root + "/apt.conf";
        where.settings = {{"Dir::Cache", tmp.path() + "/"}};
        session = Session::open(where);
    }
    bool plans(const Resolution& r, std::string_view name, ChangeKind kind) const {
        const cache::Cache& c = session->cache();
        return std::any_of(r.transaction->plan().changes.begin(), r.transaction->plan().changes.end(),
                           [&](const Change& ch) { return c.name_of(*ch.package) == name && ch.kind == kind; });
    }
};

TEST(Session, ResolvesTheCommandLinesWords) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Opened o(root);
    Resolution r = o.session->resolve(Verb::Install, {"hello=2.10-3"});
    ASSERT_TRUE(r.transaction) << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(o.plans(r, "hello", ChangeKind::Install));
    const Change& first = r.transaction->plan().changes.front();
    EXPECT_FALSE(first.kind == ChangeKind::Install && o.session->cache().name_of(*first.package) == "hello" &&
                 first.automatic);  // the named package is manual
    EXPECT_FALSE(r.transaction->plan().steps.empty());
    // The same goal with the package as a value.
    Resolution typed = o.session->resolve(Verb::Install, std::vector<PackageSpec>{{.name = "hello", .version = "2.10-3"}});
    ASSERT_TRUE(typed.transaction);
    EXPECT_TRUE(o.plans(typed, "hello", ChangeKind::Install));
    // A second goal starts from the system as opened, not from the first.
    Resolution again = o.session->resolve(Verb::Remove, {"hello"});
    EXPECT_TRUE(!again.transaction || again.transaction->plan().changes.empty());
}

TEST(Session, TellsWhyThereIsNoTransaction) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Opened o(root);
    Resolution unknown = o.session->resolve(Verb::Install, {"no-such-package-anywhere"});
    EXPECT_FALSE(unknown.transaction);
    ASSERT_EQ(unknown.errors.size(), 1u);
    EXPECT_EQ(unknown.errors[0], "Unable to locate package no-such-package-anywhere");
    EXPECT_EQ(unknown.error_kind, ErrorKind::Other);

    // libc6 is Essential: removing it cannot be planned, and the facts say so.
    Resolution essential = o.session->resolve(Verb::Remove, {"libc6"});
    EXPECT_FALSE(essential.transaction);
    EXPECT_EQ(essential.error_kind, ErrorKind::Unsolvable);
    ASSERT_FALSE(essential.facts.empty());
    EXPECT_TRUE(std::any_of(essential.facts.begin(), essential.facts.end(), [](const solver::Fact& f) {
        return f.kind == solver::ReasonKind::RequestRemove && f.package.rfind("libc6", 0) == 0;
    }));
}

TEST(Session, ReachesATargetState) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Opened o(root);
    // A package that comes back with the mark the log gave it: automatic.
    Resolution r = o.session->reach({{.package = "hello:amd64", .version = "2.10-3", .automatic = true}});
    ASSERT_TRUE(r.transaction) << (r.errors.empty() ? "" : r.errors[0]);
    const cache::Cache& c = o.session->cache();
    const auto& changes = r.transaction->plan().changes;
    auto hello = std::find_if(changes.begin(), changes.end(), [&](const Change& ch) { return c.name_of(*ch.package) == "hello"; });
    ASSERT_NE(hello, changes.end());
    EXPECT_EQ(hello->kind, ChangeKind::Install);
    EXPECT_TRUE(hello->automatic);
    // A version no source has: the error names it, and there is no transaction.
    Resolution gone = o.session->reach({{.package = "hello:amd64", .version = "0.1-nowhere"}});
    EXPECT_FALSE(gone.transaction);
    ASSERT_EQ(gone.errors.size(), 1u);
    EXPECT_EQ(gone.errors[0], "Version 0.1-nowhere of hello is not available any more: no source has it and it is not installed");
    // What already is so is not asked for: nothing to do.
    Resolution nothing = o.session->reach({{.package = "no-such-package-anywhere:amd64"}});
    EXPECT_TRUE(nothing.errors.empty());
    EXPECT_TRUE(!nothing.transaction || nothing.transaction->plan().changes.empty());
}

TEST(Session, RunNeedsTheLock) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Opened o(root);
    Resolution r = o.session->resolve(Verb::Install, {"hello=2.10-3"});
    ASSERT_TRUE(r.transaction);
    try {
        r.transaction->run({});
        FAIL() << "ran without the dpkg lock";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Locked);
    }
}

}  // namespace
}  // namespace aptus::install
