// The glue over a real sandbox: the sources decide the lists files, the
// cache is built from them and reused, and the policy sees apt's priorities.
#include "aptus/system/system.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "aptus/config/init.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/system/candidates.hpp"
#include "support/test_support.hpp"

using namespace aptus;

namespace {

config::Config sandbox_config(const std::string& root, const std::string& cache_dir) {
    config::LoadRequest req;
    req.apt_config = root + "/apt.conf";
    using Item = config::CommandLineItem;
    req.items = {{Item::Kind::Set, "Dir::Cache", cache_dir}};
    Diagnostics diags;
    return config::load(req, diags);
}

const policy::FileFacts* facts_for(const cache::Cache& c, const std::vector<policy::FileFacts>& facts,
                                   std::string_view codename, cache::IndexKind kind) {
    for (size_t i = 0; i < facts.size(); ++i)
        if (facts[i].release.codename == codename && c.index_files()[i].kind == kind) return &facts[i];
    return nullptr;
}

}  // namespace

TEST(SystemGlue, SandboxListsBecomeACacheAndPolicyFacts) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    test::TempDir tmp("system");
    config::Config config = sandbox_config(root, tmp.path() + "/");
    EXPECT_EQ(system::cache_path(config), tmp.path() + "/aptus.bin");

    Diagnostics diags;
    cache::CacheInputs inputs = system::cache_inputs(config, diags);
    ASSERT_EQ(inputs.releases.size(), 2u);  // bookworm and trixie InRelease
    size_t packages = 0, translations = 0;
    for (const auto& i : inputs.indices) {
        if (i.kind == cache::IndexKind::Packages) ++packages;
        if (i.kind == cache::IndexKind::Translation) ++translations;
        EXPECT_EQ(i.site, "archive.example");
        EXPECT_NE(i.release, cache::kNone);
    }
    EXPECT_EQ(packages, 2u);
    EXPECT_EQ(translations, 2u);
    EXPECT_EQ(inputs.indices[0].description, "http://archive.example/debian bookworm/main amd64 Packages");
    EXPECT_EQ(inputs.status_path, root + "/var/lib/dpkg/status");

    cache::OpenResult first = system::open_cache(config, diags);
    EXPECT_EQ(first.origin, cache::CacheOrigin::Rebuilt);
    cache::OpenResult second = system::open_cache(config, diags);
    EXPECT_EQ(second.origin, cache::CacheOrigin::Reused);

    const cache::Cache& c = second.cache;
    std::vector<policy::FileFacts> facts = system::file_facts(c);
    const policy::FileFacts* trixie = facts_for(c, facts, "trixie", cache::IndexKind::Packages);
    ASSERT_NE(trixie, nullptr);
    EXPECT_EQ(trixie->release.archive, "stable");
    EXPECT_EQ(trixie->release.origin, "Debian");
    EXPECT_EQ(trixie->release.version, "13.8");
    EXPECT_EQ(trixie->release.site, "archive.example");

    policy::Policy policy = system::make_policy(config, c, diags);
    EXPECT_EQ(policy.file_priority(*trixie), 500);
}

TEST(SystemGlue, DefaultReleaseIsCheckedAgainstTheReleases) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    test::TempDir tmp("system");
    config::Config config = sandbox_config(root, tmp.path() + "/");
    Diagnostics diags;
    cache::OpenResult opened = system::open_cache(config, diags);
    config.set("APT::Default-Release", "bookworm");
    policy::Policy policy = system::make_policy(config, opened.cache, diags);
    auto facts = system::file_facts(opened.cache);
    EXPECT_EQ(policy.file_priority(*facts_for(opened.cache, facts, "bookworm", cache::IndexKind::Packages)), 990);
    config.set("APT::Default-Release", "foo");
    try {
        system::make_policy(config, opened.cache, diags);
        ADD_FAILURE() << "an unknown target release was accepted";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(),
                     "The value 'foo' is invalid for APT::Default-Release as such a release is not available in the "
                     "sources");
    }
}

TEST(SystemCandidates, AgreeWithAptOnTheServer) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    test::TempDir tmp("system");
    config::Config config = sandbox_config(root, tmp.path() + "/");
    Diagnostics diags;
    cache::OpenResult opened = system::open_cache(config, diags);
    const cache::Cache& c = opened.cache;
    policy::Policy policy = system::make_policy(config, c, diags);
    system::Candidates cand(c, policy);

    // apt-cache policy bash on this sandbox: installed 5.2.15-2+b13 (500),
    // candidate 5.2.37-2+b10 (500).
    const cache::Package* bash = c.find_package("bash", "amd64");
    ASSERT_NE(bash, nullptr);
    const cache::Version* v = cand.candidate(*bash);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(c.str(v->version), "5.2.37-2+b10");
    for (const cache::Version& each : c.versions_of(*bash)) EXPECT_EQ(cand.priority(c.index_of(each)), 500);

    // Every installed package's candidate is at least as new as what is
    // installed: nothing here is pinned, so apt never proposes a downgrade.
    size_t installed = 0;
    for (const cache::Package& p : c.packages()) {
        const cache::Version* cur = c.current_version(p);
        if (!cur) continue;
        ++installed;
        const cache::Version* best = cand.candidate(p);
        ASSERT_NE(best, nullptr) << c.name_of(p);
        EXPECT_GE(deb::compare_versions(c.str(best->version), c.str(cur->version)), 0) << c.name_of(p);
    }
    EXPECT_GT(installed, 200u);
}

// Every relation field reaches the cache: tar (trixie) Breaks dpkg-dev (<< 1.14.26),
// as apt-cache depends tar shows. (Breaks was once lost to a field-name lookup.)
TEST(SystemCandidates, EveryRelationTypeIsKept) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    test::TempDir tmp("system");
    config::Config config = sandbox_config(root, tmp.path() + "/");
    Diagnostics diags;
    cache::OpenResult opened = system::open_cache(config, diags);
    const cache::Cache& c = opened.cache;
    size_t by_type[8] = {};
    for (const cache::Dependency& d : c.dependencies()) ++by_type[size_t(d.type)];
    for (size_t t = 0; t < 8; ++t) EXPECT_GT(by_type[t], 100u) << "dependency type " << t;
    const cache::Package* tar = c.find_package("tar", "amd64");
    ASSERT_NE(tar, nullptr);
    bool breaks_dpkg_dev = false;
    for (const cache::Dependency& d : c.dependencies_of(c.versions_of(*tar)[0]))
        if (d.type == cache::DepType::Breaks && c.str(c.names()[d.target].name) == "dpkg-dev") breaks_dpkg_dev = true;
    EXPECT_TRUE(breaks_dpkg_dev);
}
