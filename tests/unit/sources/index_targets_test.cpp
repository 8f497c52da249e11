#include "aptus/sources/index_targets.hpp"

#include <gtest/gtest.h>

#include "aptus/config/init.hpp"
#include "aptus/sources/deb822_sources.hpp"
#include "aptus/sources/one_line.hpp"

namespace aptus::sources {
namespace {

// Expected names taken from apt-get indextargets (apt 2.6) on the same URIs.
TEST(SourcesUriFilename, AptMangling) {
    EXPECT_EQ(uri_to_list_filename("http://mirror.example/debian/dists/bookworm/InRelease"),
              "mirror.example_debian_dists_bookworm_InRelease");
    EXPECT_EQ(uri_to_list_filename("http://user:pw@mirror.example/debian/dists/b/main/binary-amd64/Packages"),
              "mirror.example_debian_dists_b_main_binary-amd64_Packages");
    EXPECT_EQ(uri_to_list_filename("https://u:p@h.example:8080/deb x/~me/dists/b/c"),
              "h.example:8080_deb%20x_%7eme_dists_b_c");
    EXPECT_EQ(uri_to_list_filename("http://a/p_q=r!s@t/s/Packages"), "a_p%5fq%3dr%21s%40t_s_Packages");
    EXPECT_EQ(uri_to_list_filename("http://a/u$v^w&x*y"), "a_u%24v%5ew%26x%2ay");
    EXPECT_EQ(uri_to_list_filename("http://a/z{1}2|3\\4<5>6\"7"), "a_z%7b1%7d2%7c3%5c4%3c5%3e6%227");
    EXPECT_EQ(uri_to_list_filename("http://a/b%41c+,;"), "a_b%2541c+,;");
    EXPECT_EQ(uri_to_list_filename("http://h/\xc3\xa4"), "h_%c3%a4");
    EXPECT_EQ(uri_to_list_filename("file:/srv/repo/./Packages"), "_srv_repo_._Packages");
    EXPECT_EQ(uri_to_list_filename("file:///srv/r/x"), "_srv_r_x");
    EXPECT_EQ(uri_to_list_filename("cdrom://Debian 12/dists/b"), "Debian%2012_dists_b");
    EXPECT_EQ(uri_to_list_filename("http://[::1]:80/x"), "::1:80_x");
    EXPECT_EQ(uri_to_list_filename("mirror+file:/srv/m.txt/s/Packages"), "_srv_m.txt_s_Packages");
    EXPECT_EQ(uri_to_list_filename("http://a/x//dists"), "a_x__dists");
    EXPECT_EQ(uri_to_list_filename("http://a/x?y"), "a_x?y");
}

// apt's built-in defaults (Acquire::IndexTargets among them), then a fixed
// host: two architectures, English, two compressors.
config::Config test_config() {
    config::Config c;
    config::set_builtin_defaults(c);
    c.set("Dir::State::lists", "/lists/");
    c.set("APT::Architecture", "amd64");
    c.set("APT::Architectures::", "amd64");
    c.set("APT::Architectures::", "i386");
    c.set("Acquire::Languages::", "en");
    c.set("Acquire::Languages::", "none");
    for (auto [k, v] : std::initializer_list<std::pair<const char*, const char*>>{
             {"Acquire::CompressionTypes::xz", "xz"},
             {"Acquire::CompressionTypes::gz", "gzip"},
         })
        c.set(k, v);
    return c;
}

std::vector<std::string> keys(const std::vector<IndexTarget>& ts) {
    std::vector<std::string> out;
    for (const auto& t : ts) out.push_back(t.option("Sourcesentry").substr(2) + " " + t.meta_key);
    return out;
}

TEST(SourcesIndexTargets, OrderAndFields) {
    auto entries = parse_one_line_file("deb http://u:p@a.example/d b main\ndeb-src http://a.example/d/ b main\n", "f");
    config::Config c = test_config();
    Diagnostics diags;
    auto ts = index_targets(entries, c, diags);
    EXPECT_TRUE(diags.empty());
    // deb-src before deb inside one repository; archs in order, then "all"; "none" is no language.
    EXPECT_EQ(keys(ts), (std::vector<std::string>{"2 main/source/Sources", "1 main/binary-amd64/Packages",
                                                  "1 main/binary-i386/Packages", "1 main/binary-all/Packages",
                                                  "1 main/i18n/Translation-en"}));
    const IndexTarget& p = ts[1];
    EXPECT_EQ(p.short_desc, "Packages");
    EXPECT_EQ(p.description, "http://a.example/d b/main amd64 Packages");
    EXPECT_EQ(p.uri, "http://u:p@a.example/d/dists/b/main/binary-amd64/Packages");
    EXPECT_EQ(p.filename, "/lists/a.example_d_dists_b_main_binary-amd64_Packages");
    EXPECT_FALSE(p.optional);
    EXPECT_TRUE(ts[3].optional);  // binary-all
    EXPECT_EQ(p.option("Repo-URI"), "http://u:p@a.example/d/");
    EXPECT_EQ(p.option("Site"), "http://a.example/d");
    EXPECT_EQ(p.option("CompressionTypes"), "xz gz uncompressed");
    EXPECT_EQ(p.option("KeepCompressedAs"), "gz xz uncompressed");
    EXPECT_EQ(p.option("Target-Of"), "deb");
    EXPECT_EQ(p.option("Sourcesentry"), "f:1");
}

TEST(SourcesIndexTargets, EntryOptions) {
    config::Config c = test_config();
    Diagnostics diags;
    auto ts = index_targets(
        parse_one_line_file("deb [arch=armel,all lang=de target-=Translations pdiffs=no by-hash=force] http://a s c\n",
                            "f"),
        c, diags);
    ASSERT_EQ(ts.size(), 2u);
    EXPECT_EQ(ts[0].option("Architecture"), "armel");
    EXPECT_EQ(ts[1].option("Architecture"), "all");
    EXPECT_FALSE(ts[1].optional);  // "all" named explicitly
    EXPECT_EQ(ts[1].option("Force-support-for-all"), "yes");
    EXPECT_EQ(ts[0].option("PDiffs"), "no");
    EXPECT_EQ(ts[0].option("By-Hash"), "force");
}

TEST(SourcesIndexTargets, FlatRepository) {
    config::Config c = test_config();
    Diagnostics diags;
    auto ts = index_targets(parse_one_line_file("deb file:///srv/repo ./\n", "f"), c, diags);
    ASSERT_EQ(ts.size(), 2u);
    EXPECT_EQ(ts[0].meta_key, "Packages");
    EXPECT_EQ(ts[0].uri, "file:/srv/repo/./Packages");
    EXPECT_EQ(ts[0].filename, "/lists/_srv_repo_._Packages");
    EXPECT_EQ(ts[0].description, "file:/srv/repo ./ Packages");
    EXPECT_EQ(ts[0].option("Architecture"), "");
    EXPECT_EQ(ts[0].option("Component"), "");
    EXPECT_EQ(ts[1].meta_key, "en");
    EXPECT_EQ(ts[1].short_desc, "Translation-en");
}

// "deb URI /": the repository is the URI itself, as apt's
// constructMetaIndexURI has it: no double slash, no suite in the lines.
TEST(SourcesIndexTargets, FlatRepositoryAtTheUriItself) {
    config::Config c = test_config();
    Diagnostics diags;
    auto entries = parse_one_line_file("deb http://h:8080/ /\ndeb http://h:8080/ sub/\n", "f");
    auto ts = index_targets(entries, c, diags);
    ASSERT_EQ(ts.size(), 4u);
    EXPECT_EQ(ts[0].uri, "http://h:8080/Packages");
    EXPECT_EQ(ts[0].filename, "/lists/h:8080_Packages");
    EXPECT_EQ(ts[0].description, "http://h:8080  Packages");
    EXPECT_EQ(ts[0].option("Base-URI"), "http://h:8080/");
    EXPECT_EQ(ts[2].uri, "http://h:8080/sub/Packages");
    EXPECT_EQ(ts[2].description, "http://h:8080 sub/ Packages");
    auto rs = release_files(entries, c);
    ASSERT_EQ(rs.size(), 2u);
    EXPECT_EQ(rs[0].inrelease_uri, "http://h:8080/InRelease");
    EXPECT_EQ(rs[0].release_gpg_uri, "http://h:8080/Release.gpg");
    EXPECT_EQ(rs[0].inrelease_file, "/lists/h:8080_InRelease");
    EXPECT_EQ(rs[1].release_uri, "http://h:8080/sub/Release");
}

TEST(SourcesIndexTargets, DuplicatesWarnOnce) {
    config::Config c = test_config();
    Diagnostics diags;
    auto entries = parse_one_line_file("deb http://a/ s c\ndeb [arch=amd64] http://a s c d\n", "f");
    auto more = parse_deb822_sources("Types: deb\nURIs: http://a\nSuites: s\nComponents: c\nEnabled: no\n", "g");
    entries.insert(entries.end(), more.begin(), more.end());  // disabled: no targets, no warning
    auto ts = index_targets(entries, c, diags);
    EXPECT_EQ(ts.size(), 4u + 3u);
    ASSERT_EQ(diags.size(), 3u);
    EXPECT_EQ(diags[0].level, Level::Warning);
    EXPECT_EQ(diags[0].message,
              "Target Packages (c/binary-amd64/Packages) is configured multiple times in f:1 and f:2");
    EXPECT_EQ(diags[2].message,
              "Target Translations (c/i18n/Translation-en) is configured multiple times in f:1 and f:2");
}

TEST(SourcesIndexTargets, ConfiguredTargetsDriveTheList) {
    config::Config c = test_config();
    c.set("Acquire::IndexTargets::deb::DEP-11::MetaKey", "$(COMPONENT)/dep11/Components-$(NATIVE_ARCHITECTURE).yml");
    c.set("Acquire::IndexTargets::deb::DEP-11::ShortDescription", "Components-$(NATIVE_ARCHITECTURE)");
    c.set("Acquire::IndexTargets::deb::DEP-11::DefaultEnabled", "false");
    Diagnostics diags;
    EXPECT_EQ(index_targets(parse_one_line_file("deb http://a s c\n", "f"), c, diags).size(), 4u);
    auto ts = index_targets(parse_one_line_file("deb [target+=DEP-11] http://a s c\n", "f"), c, diags);
    ASSERT_EQ(ts.size(), 6u);
    EXPECT_EQ(ts[4].meta_key, "c/dep11/Components-amd64.yml");
    EXPECT_EQ(ts[4].option("Native-Architecture"), "amd64");
    EXPECT_EQ(ts[5].meta_key, "c/dep11/Components-all.yml");
}

TEST(SourcesIndexTargets, ReleaseFiles) {
    config::Config c = test_config();
    auto rs = release_files(parse_one_line_file("deb http://a/d s c\ndeb-src http://a/d s c\ndeb file:/r ./\n", "f"), c);
    ASSERT_EQ(rs.size(), 2u);
    EXPECT_EQ(rs[0].inrelease_uri, "http://a/d/dists/s/InRelease");
    EXPECT_EQ(rs[0].release_gpg_file, "/lists/a_d_dists_s_Release.gpg");
    EXPECT_EQ(rs[1].release_uri, "file:/r/./Release");
    EXPECT_EQ(rs[1].inrelease_file, "/lists/_r_._InRelease");
}

TEST(SourcesIndexTargets, FormatIsAptsRecord) {
    IndexTarget t;
    t.meta_key = "m";
    t.short_desc = "s";
    t.description = "d";
    t.uri = "u";
    t.filename = "f";
    t.optional = false;
    t.options = {{"Site", "x"}, {"Base-URI", "y"}};
    EXPECT_EQ(format_index_target(t),
              "MetaKey: m\nShortDesc: s\nDescription: d\nURI: u\nFilename: f\nOptional: no\nKeepCompressed: no\n"
              "Base-URI: y\nSite: x\n");
}

}  // namespace
}  // namespace aptus::sources
