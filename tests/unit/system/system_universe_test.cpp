// The solver universe from the real server sandbox (bookworm installed,
// bookworm and trixie lists): every cache version is there with the
// policy's facts, and the installed-only scope is the same builder filtered.
#include "aptus/system/system_universe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/edsp/edsp.hpp"
#include "aptus/config/init.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/system.hpp"
#include "support/test_support.hpp"

using namespace aptus;

namespace {

struct Sandbox {
    test::TempDir tmp{"system_universe"};
    config::Config config;
    Diagnostics diags;
    std::optional<cache::OpenResult> opened;
    std::unique_ptr<policy::Policy> policy;
    std::unique_ptr<system::Candidates> candidates;

    explicit Sandbox(const std::string& root, std::vector<config::CommandLineItem> extra = {}) {
        config::LoadRequest req;
        req.apt_config = root + "/apt.conf";
        req.items = {{config::CommandLineItem::Kind::Set, "Dir::Cache", tmp.path() + "/"}};
        req.items.insert(req.items.end(), extra.begin(), extra.end());
        config = config::load(req, diags);
        opened.emplace(system::open_cache(config, diags));
        policy = std::make_unique<policy::Policy>(system::make_policy(config, opened->cache, diags));
        candidates = std::make_unique<system::Candidates>(opened->cache, *policy);
    }
};

}  // namespace

TEST(SystemUniverse, EveryCacheVersionWithThePolicysFacts) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Sandbox sb(root);
    const cache::Cache& c = sb.opened->cache;
    system::SystemUniverse su = system::system_universe(c, *sb.candidates);
    const solver::Universe& u = su.universe;
    EXPECT_EQ(u.versions.size(), c.versions().size());
    ASSERT_EQ(su.cache_version.size(), u.versions.size());
    size_t installed = 0, auto_pkgs = 0;
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        const cache::Version& cv = c.versions()[su.cache_version[v]];
        const cache::Package& cp = c.package_of(cv);
        EXPECT_EQ(su.universe_version[su.cache_version[v]], v);
        EXPECT_EQ(u.versions[v].version, c.str(cv.version));
        EXPECT_EQ(u.name_of_version(v), c.name_of(cp));
        EXPECT_EQ(u.versions[v].installed, c.current_version(cp) == &cv);
        EXPECT_EQ(u.versions[v].candidate, sb.candidates->candidate(cp) == &cv);
        EXPECT_EQ(u.versions[v].pin, sb.candidates->priority(su.cache_version[v]));
        installed += u.versions[v].installed;
    }
    for (const solver::Package& p : u.packages) auto_pkgs += p.automatic;
    EXPECT_GT(installed, 200u);  // the server has 218
    EXPECT_GT(auto_pkgs, 100u);
    // bash: two versions (bookworm installed, trixie candidate), essential, with its relations.
    auto bash = c.find_package("bash", "amd64");
    ASSERT_TRUE(bash);
    auto up = su.package_of(c.index_of(*bash));
    ASSERT_TRUE(up);
    ASSERT_EQ(u.packages[*up].versions.size(), 2u);
    const solver::Version& newest = u.versions[u.packages[*up].versions[0]];
    EXPECT_TRUE(newest.candidate);
    EXPECT_FALSE(newest.installed);
    EXPECT_TRUE(newest.essential);
    EXPECT_FALSE(u.deps(u.packages[*up].versions[0]).empty());
    // The installed system is consistent as the independent check reads it.
    std::vector<uint32_t> selected;
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) selected.push_back(v);
    EXPECT_EQ(solver::check_installation(u, selected), std::vector<std::string>{});
}

TEST(SystemUniverse, InstalledScopeIsTheSameBuilderFiltered) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Sandbox sb(root);
    const cache::Cache& c = sb.opened->cache;
    system::SystemUniverse all = system::system_universe(c, *sb.candidates);
    system::SystemUniverse inst = system::installed_universe(c);
    size_t installed = 0;
    for (const auto& v : all.universe.versions) installed += v.installed;
    ASSERT_EQ(inst.universe.versions.size(), installed);
    for (uint32_t v = 0; v < inst.universe.versions.size(); ++v) {
        const solver::Version& iv = inst.universe.versions[v];
        uint32_t a = *all.version_of(inst.cache_version[v]);
        const solver::Version& av = all.universe.versions[a];
        EXPECT_TRUE(iv.installed && iv.candidate);
        EXPECT_EQ(iv.version, av.version);
        EXPECT_EQ(iv.essential, av.essential);
        EXPECT_EQ(iv.provides.size(), av.provides.size());
        EXPECT_EQ(inst.universe.deps(v).size(), all.universe.deps(a).size());
        EXPECT_EQ(inst.universe.packages[iv.package].automatic, all.universe.packages[av.package].automatic);
    }
}

TEST(SystemUniverse, HoldsComeFromTheDpkgSelection) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    // A private copy of the status with bash on hold.
    test::TempDir tmp("system_universe_hold");
    std::string status = aptus::read_file(root + "/var/lib/dpkg/status");
    size_t at = status.find("Package: bash\n");
    ASSERT_NE(at, std::string::npos);
    size_t st = status.find("Status: install ok installed", at);
    status.replace(st, 28, "Status: hold ok installed");
    std::string path = tmp.write("status", status);
    Sandbox sb(root, {{config::CommandLineItem::Kind::Set, "Dir::State::status", path}});
    const cache::Cache& c = sb.opened->cache;
    system::SystemUniverse su = system::system_universe(c, *sb.candidates);
    auto bash = c.find_package("bash", "amd64");
    ASSERT_TRUE(bash);
    uint32_t held = 0;
    for (uint32_t v : su.universe.packages[*su.package_of(c.index_of(*bash))].versions)
        held += su.universe.versions[v].hold;
    EXPECT_EQ(held, 1u);
    // Held at bookworm's version: a full upgrade keeps it there.
    solver::Request r;
    r.upgrade_all = true;
    solver::Solution s = solver::solve(su.universe, r);
    ASSERT_TRUE(s.solved) << s.message;
    for (uint32_t v : s.install) EXPECT_NE(su.universe.name_of_version(v), "bash");
}

TEST(SystemUniverse, DumpedRequestIsAScenarioThatSolvesTheSameWay) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Sandbox sb(root);
    system::SystemUniverse su = system::system_universe(sb.opened->cache, *sb.candidates);
    const solver::Universe& u = su.universe;
    solver::Request r;
    r.install.push_back(*u.find_package("hello", u.native_arch));
    std::string path = sb.tmp.path() + "/request.edsp";
    system::dump_edsp_request(su, r, path);
    edsp::Scenario back = edsp::read_edsp(read_file(path), path);
    EXPECT_EQ(back.universe.versions.size(), u.versions.size());
    ASSERT_EQ(back.request.install.size(), 1u);
    EXPECT_EQ(back.universe.package_name(back.request.install[0]), "hello:" + u.native_arch);
    auto installs = [](const solver::Universe& x, const solver::Solution& s) {
        std::vector<std::string> out;
        for (uint32_t v : s.install) out.push_back(x.describe(v));
        std::sort(out.begin(), out.end());
        return out;
    };
    solver::Solution direct = solver::solve(u, r), replayed = solver::solve(back.universe, back.request);
    ASSERT_TRUE(direct.solved) << direct.message;
    ASSERT_TRUE(replayed.solved) << replayed.message;
    EXPECT_EQ(installs(back.universe, replayed), installs(u, direct));
    EXPECT_FALSE(installs(u, direct).empty());

    EXPECT_THROW(system::dump_edsp_request(su, r, sb.tmp.path() + "/request.edsp.xz"), Error);
}
