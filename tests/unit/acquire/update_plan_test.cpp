// Which way update fetches an index: compression order, by-hash paths,
// fallbacks, the name in the lists dir, and when nothing needs fetching.
#include <gtest/gtest.h>

#include "aptus/acquire/update_plan.hpp"
#include "aptus/base/file.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

deb::ReleaseFile release(bool by_hash, const std::string& xz_hash = std::string(64, 'a')) {
    deb::ReleaseFile r;
    r.acquire_by_hash = by_hash;
    r.sha256 = {{"main/binary-amd64/Packages", 1000, std::string(64, 'c')},
                {"main/binary-amd64/Packages.gz", 300, std::string(64, 'b')},
                {"main/binary-amd64/Packages.xz", 200, xz_hash}};
    r.md5 = {{"main/binary-amd64/Packages.xz", 200, std::string(32, 'f')}};
    return r;
}

sources::IndexTarget target(const std::string& lists, bool keep_compressed = false, const std::string& by_hash = "yes") {
    sources::IndexTarget t;
    t.meta_key = "main/binary-amd64/Packages";
    t.description = "http://h/debian s/main amd64 Packages";
    t.filename = lists + "/h_debian_dists_s_main_binary-amd64_Packages";
    t.keep_compressed = keep_compressed;
    t.options["Base-URI"] = "http://h/debian/dists/s/";
    t.options["By-Hash"] = by_hash;
    t.options["CompressionTypes"] = "xz bz2 lzma gz lz4 zst uncompressed";
    t.options["KeepCompressedAs"] = "lz4 zst gz xz bz2 lzma uncompressed";
    return t;
}

TEST(UpdatePlan, BestCompressionThenTheOthers) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path(), false, "no");
    PlanOutcome out = plan_index(t, release(false), nullptr, false, dir.path(), c);
    ASSERT_TRUE(out.plan);
    const auto& ways = out.plan->ways;
    ASSERT_EQ(ways.size(), 3u);
    EXPECT_EQ(ways[0].request.uri, "http://h/debian/dists/s/main/binary-amd64/Packages.xz");
    EXPECT_EQ(ways[1].request.uri, "http://h/debian/dists/s/main/binary-amd64/Packages.gz");
    EXPECT_EQ(ways[2].request.uri, "http://h/debian/dists/s/main/binary-amd64/Packages");
    // Stored decompressed, under the target's name; checked with the strongest hash.
    EXPECT_EQ(ways[0].final_path, t.filename);
    EXPECT_EQ(ways[0].request.decompress, Compression::Xz);
    EXPECT_EQ(ways[0].request.hash, HashAlgo::Sha256);
    EXPECT_EQ(ways[0].request.expected_size, 200u);
    EXPECT_EQ(ways[0].request.max_size, 200u);
    EXPECT_EQ(ways[0].request.destination, dir.path() + "/partial/h_debian_dists_s_main_binary-amd64_Packages");
    EXPECT_EQ(ways[2].request.decompress, Compression::None);
}

// An index whose own (uncompressed) entry has MD5 only is skipped with
// apt's warning even when a compressed form has SHA256; allow-weak takes it.
TEST(UpdatePlan, WeakOnlyIndexSkippedUnlessAllowed) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path(), false, "no");
    deb::ReleaseFile r = release(false);
    r.sha256.erase(r.sha256.begin());  // main/binary-amd64/Packages: SHA256 gone
    r.md5.push_back({"main/binary-amd64/Packages", 1000, std::string(32, 'e')});
    PlanOutcome out = plan_index(t, r, nullptr, false, dir.path(), c, "http://h/debian s InRelease");
    EXPECT_FALSE(out.plan);
    EXPECT_EQ(out.warning, "Skipping acquire of configured file 'main/binary-amd64/Packages' as repository "
                           "'http://h/debian s InRelease' provides only weak security information for it");
    PlanOutcome allowed = plan_index(t, r, nullptr, false, dir.path(), c, "http://h/debian s InRelease", true);
    ASSERT_TRUE(allowed.plan);
    EXPECT_TRUE(allowed.warning.empty());
    // Only MD5 everywhere: taken against MD5 when allowed, never silently otherwise.
    deb::ReleaseFile md5_only;
    md5_only.md5 = {{"main/binary-amd64/Packages", 1000, std::string(32, 'e')}};
    EXPECT_FALSE(plan_index(t, md5_only, nullptr, false, dir.path(), c).plan);
    PlanOutcome weak = plan_index(t, md5_only, nullptr, false, dir.path(), c, "x", true);
    ASSERT_TRUE(weak.plan);
    EXPECT_EQ(weak.plan->ways.at(0).request.hash, HashAlgo::Md5);
}

// As apt: where the Release offers by-hash, each compression is asked for
// by its by-hash path only (no plain path after it).
TEST(UpdatePlan, ByHashOnlyWhereOffered) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path());
    PlanOutcome out = plan_index(t, release(true), nullptr, false, dir.path(), c);
    ASSERT_TRUE(out.plan);
    const auto& ways = out.plan->ways;
    ASSERT_EQ(ways.size(), 3u);
    EXPECT_EQ(ways[0].request.uri, "http://h/debian/dists/s/main/binary-amd64/by-hash/SHA256/" + std::string(64, 'a'));
    EXPECT_TRUE(ways[0].by_hash);
    for (const auto& w : ways) EXPECT_NE(w.request.uri.find("/by-hash/SHA256/"), std::string::npos) << w.request.uri;
    // Without Acquire-By-Hash in the Release, "yes" means plain paths only.
    auto plain = plan_index(t, release(false), nullptr, false, dir.path(), c);
    ASSERT_EQ(plain.plan->ways.size(), 3u);
    EXPECT_FALSE(plain.plan->ways[0].by_hash);
    EXPECT_EQ(plain.plan->ways[0].request.uri, "http://h/debian/dists/s/main/binary-amd64/Packages.xz");
    // "force": by-hash only, whatever the Release says.
    auto forced = target(dir.path(), false, "force");
    auto f = plan_index(forced, release(false), nullptr, false, dir.path(), c);
    ASSERT_EQ(f.plan->ways.size(), 3u);
    EXPECT_NE(f.plan->ways[2].request.uri.find("/by-hash/SHA256/"), std::string::npos);
}

// A hash that is not hex (apt keeps it; it matches no file) never goes into
// a URI: that way is the plain path, where it ends in a hash mismatch.
TEST(UpdatePlan, HashThatIsNotHexIsNoByHashPath) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path(), false, "force");
    auto out = plan_index(t, release(true, "x" + std::string(63, 'a')), nullptr, false, dir.path(), c);
    ASSERT_TRUE(out.plan);
    EXPECT_EQ(out.plan->ways[0].request.uri, "http://h/debian/dists/s/main/binary-amd64/Packages.xz");
    EXPECT_FALSE(out.plan->ways[0].by_hash);
    EXPECT_TRUE(out.plan->ways[1].by_hash);
}

TEST(UpdatePlan, KeptCompressedPrefersFastFormats) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path(), true, "no");
    auto out = plan_index(t, release(false), nullptr, false, dir.path(), c);
    ASSERT_TRUE(out.plan);
    EXPECT_EQ(out.plan->ways[0].final_path, t.filename + ".gz");
    EXPECT_EQ(out.plan->ways[0].request.decompress, Compression::None);
    // The other forms go when it arrives.
    const auto& r = out.plan->ways[0].replaces;
    EXPECT_NE(std::find(r.begin(), r.end(), t.filename), r.end());
    EXPECT_NE(std::find(r.begin(), r.end(), t.filename + ".xz"), r.end());
}

TEST(UpdatePlan, NothingToFetchWhenTheStoredFileIsCurrent) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path(), false, "no");
    deb::ReleaseFile old = release(false);
    // Not stored yet: fetch.
    EXPECT_TRUE(plan_index(t, old, &old, false, dir.path(), c).plan);
    write_file_atomic(t.filename, "stored");
    // Stored, and both Releases agree on it: nothing to do.
    EXPECT_FALSE(plan_index(t, old, &old, false, dir.path(), c).plan);
    // The uncompressed entry is unchanged but the xz one is new: still the same content.
    EXPECT_FALSE(plan_index(t, release(false, std::string(64, 'd')), &old, false, dir.path(), c).plan);
    // A new Release with another uncompressed hash: fetch.
    deb::ReleaseFile fresh = release(false);
    fresh.sha256[0].hash = std::string(64, 'e');
    fresh.sha256[2].hash = std::string(64, 'e');
    EXPECT_TRUE(plan_index(t, fresh, &old, false, dir.path(), c).plan);
    // An unchanged (304) Release never fetches what is stored.
    EXPECT_FALSE(plan_index(t, fresh, nullptr, true, dir.path(), c).plan);
}

TEST(UpdatePlan, NotListedOrOnlyWeakHashes) {
    test::TempDir dir("plan");
    config::Config c;
    auto t = target(dir.path());
    t.meta_key = "contrib/binary-amd64/Packages";
    EXPECT_FALSE(plan_index(t, release(false), nullptr, false, dir.path(), c).plan);
    deb::ReleaseFile weak;
    weak.md5 = {{"main/binary-amd64/Packages.xz", 200, std::string(32, 'f')}};
    auto w = plan_index(target(dir.path()), weak, nullptr, false, dir.path(), c, "http://h/debian s InRelease");
    EXPECT_FALSE(w.plan);
    // apt names the repository by its Release file, not by the index's URI.
    EXPECT_EQ(w.warning, "Skipping acquire of configured file 'main/binary-amd64/Packages' as repository "
                         "'http://h/debian s InRelease' provides only weak security information for it");
}

// An index the Release lists with size 0 is fetched in no form, and the
// stored file, if any, is no longer wanted (apt keeps none).
TEST(UpdatePlan, AnEmptyIndexIsNotFetched) {
    test::TempDir dir("plan");
    config::Config c;
    deb::ReleaseFile r;
    r.sha256 = {{"main/binary-amd64/Packages", 0, std::string(64, 'e')},
                {"main/binary-amd64/Packages.gz", 20, std::string(64, 'b')}};
    PlanOutcome out = plan_index(target(dir.path()), r, nullptr, false, dir.path(), c);
    EXPECT_TRUE(out.empty);
    EXPECT_FALSE(out.plan);
    EXPECT_FALSE(plan_index(target(dir.path()), release(false), nullptr, false, dir.path(), c).empty);
}

}  // namespace
}  // namespace aptus::acquire
