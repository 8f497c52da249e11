#include "aptus/sources/deb822_sources.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

namespace aptus::sources {
namespace {

using Op = SourceOption::Op;

std::string error_of(std::string_view text) {
    try {
        parse_deb822_sources(text, "x.sources");
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(SourcesDeb822, ExpandsTypesUrisSuites) {
    auto v = parse_deb822_sources(
        "# leading comment\n"
        "Types: deb deb-src\n"
        "URIs: http://a/debian http://b/debian\n"
        "Suites: bookworm bookworm-updates\n"
        "Components: main contrib\n",
        "x.sources");
    ASSERT_EQ(v.size(), 8u);
    // Nesting order: type, then URI, then suite.
    EXPECT_EQ(v[0].type, SourceType::Deb);
    EXPECT_EQ(v[0].uri, "http://a/debian");
    EXPECT_EQ(v[0].suite, "bookworm");
    EXPECT_EQ(v[1].suite, "bookworm-updates");
    EXPECT_EQ(v[2].uri, "http://b/debian");
    EXPECT_EQ(v[4].type, SourceType::DebSrc);
    for (const auto& e : v) {
        EXPECT_TRUE(e.deb822);
        EXPECT_TRUE(e.enabled);
        EXPECT_EQ(e.components, (std::vector<std::string>{"main", "contrib"}));
        EXPECT_EQ(e.location.line, 2u);
        EXPECT_EQ(e.location.stanza, 1u);
        EXPECT_EQ(e.location.apt_name(), "x.sources:1");
    }
}

TEST(SourcesDeb822, StanzaNumbersSkipCommentOnlyParagraphs) {
    auto v = parse_deb822_sources(
        "Types: deb\nURIs: http://a\nSuites: b\nComponents: c\n\n"
        "# just a comment\n\n"
        "Types: deb\nURIs: http://a\nSuites: d\nComponents: c\nEnabled: no\n\n"
        "Types: deb\nURIs: http://a\nSuites: e\nComponents: c\n",
        "x.sources");
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[1].location.stanza, 2u);
    EXPECT_EQ(v[1].location.line, 8u);
    EXPECT_FALSE(v[1].enabled);
    EXPECT_EQ(v[2].location.stanza, 3u);
    EXPECT_EQ(v[2].location.line, 14u);
}

TEST(SourcesDeb822, Options) {
    auto v = parse_deb822_sources(
        "Types: deb\nURIs: http://a\nSuites: b\nComponents: c\n"
        "Architectures: amd64,i386\n"
        "Architectures-Add: armel\n"
        "architectures-remove: i386\n"
        "Languages: de en\n"
        "Targets-Remove: Contents-deb\n"
        "Signed-By: /usr/share/keyrings/a.gpg\n /usr/share/keyrings/b.gpg\n"
        "Trusted: yes\nCheck-Valid-Until: no\nValid-Until-Min: 1\nValid-Until-Max: 2\n"
        "Date-Max-Future: 3\nBy-Hash: force\nPDiffs: no\nAllow-Insecure: yes\nAllow-Weak: yes\n"
        "Allow-Downgrade-To-Insecure: yes\nX-Repolib-Name: ignored\n",
        "x.sources");
    ASSERT_EQ(v.size(), 1u);
    const SourceEntry& e = v[0];
    ASSERT_EQ(e.options.size(), 16u);
    EXPECT_EQ(e.options[0].key, "arch");
    EXPECT_EQ(e.options[0].values, (std::vector<std::string>{"amd64", "i386"}));
    EXPECT_EQ(e.options[1].op, Op::Add);
    EXPECT_EQ(e.options[2].op, Op::Remove);
    EXPECT_EQ(e.option_values("arch", {}), (std::vector<std::string>{"amd64", "armel"}));
    EXPECT_EQ(e.option("lang")->values, (std::vector<std::string>{"de", "en"}));
    EXPECT_EQ(e.option("target")->op, Op::Remove);
    EXPECT_EQ(e.option("signed-by")->values,
              (std::vector<std::string>{"/usr/share/keyrings/a.gpg", "/usr/share/keyrings/b.gpg"}));
    EXPECT_EQ(e.option("by-hash")->values, (std::vector<std::string>{"force"}));
    EXPECT_EQ(e.option("allow-downgrade-to-insecure")->values, (std::vector<std::string>{"yes"}));
}

TEST(SourcesDeb822, InlineSignedByKeyIsOneValue) {
    auto v = parse_deb822_sources(
        "Types: deb\nURIs: http://a\nSuites: b\nComponents: c\n"
        "Signed-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n mQINBGP\n =abcd\n"
        " -----END PGP PUBLIC KEY BLOCK-----\n",
        "x.sources");
    ASSERT_EQ(v.size(), 1u);
    const SourceOption* sb = v[0].option("signed-by");
    ASSERT_NE(sb, nullptr);
    ASSERT_EQ(sb->values.size(), 1u);
    EXPECT_NE(sb->values[0].find("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGP\n=abcd\n"), std::string::npos);
}

TEST(SourcesDeb822, FlatRepository) {
    auto v = parse_deb822_sources("Types: deb\nURIs: file:/srv/repo\nSuites: ./\n", "x.sources");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_TRUE(v[0].is_flat());
    EXPECT_TRUE(v[0].components.empty());
}

TEST(SourcesDeb822, DisabledStanzaIsNotChecked) {
    EXPECT_TRUE(parse_deb822_sources("Types: deb\nEnabled: no\n", "x.sources").empty());
    auto v = parse_deb822_sources("Types: deb\nURIs: http://a\nSuites: b\nComponents: c\nEnabled: false\n", "f");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_FALSE(v[0].enabled);
    // apt treats any value but a "no" word as enabled.
    EXPECT_TRUE(parse_deb822_sources("Types: deb\nURIs: http://a\nSuites: b\nComponents: c\nEnabled: maybe\n", "f")[0]
                    .enabled);
}

TEST(SourcesDeb822, Errors) {
    EXPECT_EQ(error_of("URIs: http://a\nSuites: b\nComponents: c\n"),
              "Malformed entry 1 in sources file x.sources (type)");
    EXPECT_EQ(error_of("Types: deb\n"), "Malformed entry 1 in sources file x.sources (URI)");
    EXPECT_EQ(error_of("Types: deb\nURIs: http://a\nComponents: c\n"),
              "Malformed entry 1 in sources file x.sources (Suite)");
    EXPECT_EQ(error_of("Types: deb\nURIs: http://a\nSuites: b\n"),
              "Malformed entry 1 in sources file x.sources (Component)");
    EXPECT_EQ(error_of("Types: deb\nURIs: http://a\nSuites: b/\nComponents: c\n"),
              "Malformed entry 1 in sources file x.sources (absolute Suite Component)");
    EXPECT_EQ(error_of("\n# c\n\nTypes: debx\nURIs: http://a\nSuites: b\nComponents: c\n"),
              "x.sources:4: Type 'debx' is not known in stanza 1");
    EXPECT_EQ(error_of("Types: deb\nURIs: http://a\nSuites: b\nComponents: c\n\nTypes: deb\nURIs: a/b\nSuites: b\n"
                       "Components: c\n"),
              "Malformed entry 2 in sources file x.sources (URI parse)");
    // Syntax errors come from the tag file reader, located too.
    EXPECT_EQ(error_of("Types: deb\nno colon here\n").rfind("x.sources:2: ", 0), 0u);
}

TEST(SourcesDeb822, OptionFieldNames) {
    EXPECT_EQ(deb822_option_field("Architectures").key, "arch");
    EXPECT_EQ(deb822_option_field("Languages-Add").op, Op::Add);
    EXPECT_EQ(deb822_option_field("targets-remove").key, "target");
    EXPECT_EQ(deb822_option_field("Signed-By-Add").key, "");
    EXPECT_EQ(deb822_option_field("PDiffs").key, "pdiffs");
    EXPECT_EQ(deb822_option_field("Types").key, "");
}

}  // namespace
}  // namespace aptus::sources
