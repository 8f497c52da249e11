#include "aptus/sources/source_list.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "support/test_support.hpp"

namespace aptus::sources {
namespace {

config::Config sandbox(const test::TempDir& dir) {
    config::Config c;
    c.set("Dir::Etc::sourcelist", dir.file("sources.list"));
    c.set("Dir::Etc::sourceparts", dir.file("sources.list.d"));
    return c;
}

TEST(SourcesList, FilesInAptsOrder) {
    test::TempDir dir("sources");
    dir.write("sources.list", "deb http://main s c\n");
    dir.write("sources.list.d/b.sources", "Types: deb\nURIs: http://b\nSuites: s\nComponents: c\n");
    dir.write("sources.list.d/a.list", "deb http://a s c\n");
    dir.write("sources.list.d/c.list.save", "deb http://ignored s c\n");
    dir.write("sources.list.d/d.foo", "deb http://ignored s c\n");
    dir.write("sources.list.d/noext", "deb http://ignored s c\n");
    dir.mkdir("sources.list.d/sub.list");
    config::Config c = sandbox(dir);
    Diagnostics diags;
    SourceFiles f = find_source_files(c, diags);
    EXPECT_EQ(f.list_files, (std::vector<std::string>{dir.file("sources.list"), dir.file("sources.list.d/a.list")}));
    EXPECT_EQ(f.sources_files, (std::vector<std::string>{dir.file("sources.list.d/b.sources")}));
    EXPECT_EQ(f.all_in_order.size(), 3u);
    EXPECT_TRUE(diags.empty());  // apt 2.6 prints no notice for sources.list.d

    auto entries = read_sources(c, diags);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].uri, "http://main");
    EXPECT_EQ(entries[1].uri, "http://a");
    EXPECT_EQ(entries[2].uri, "http://b");
    EXPECT_TRUE(entries[2].deb822);
}

TEST(SourcesList, MissingFilesAreNoError) {
    test::TempDir dir("sources");
    config::Config c = sandbox(dir);
    Diagnostics diags;
    EXPECT_TRUE(read_sources(c, diags).empty());
}

TEST(SourcesList, ErrorsNameTheFile) {
    test::TempDir dir("sources");
    dir.write("sources.list.d/x.list", "\ndeb http://a\n");
    config::Config c = sandbox(dir);
    Diagnostics diags;
    try {
        read_sources(c, diags);
        FAIL();
    } catch (const Error& e) {
        // apt's words, then apt's second error line.
        EXPECT_EQ(std::string(e.what()), "Malformed entry 2 in list file " + dir.file("sources.list.d/x.list") + " (Suite)");
        ASSERT_EQ(e.followed_by().size(), 1u);
        EXPECT_EQ(e.followed_by()[0], "The list of sources could not be read.");
    }
    EXPECT_THROW(read_source_file(dir.file("nope.list")), Error);
}

std::string read_error(const config::Config& c) {
    Diagnostics diags;
    try {
        read_sources(c, diags);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// apt refuses a relative Signed-By when it reads the sources ("E: Invalid
// value set for option Signed-By regarding source URI SUITE (not a
// fingerprint)", then "The list of sources could not be read", exit 100 for
// every command), not only at update time; the whole list fails.
TEST(SourcesList, RelativeSignedByIsRefusedWhenRead) {
    test::TempDir dir("sources");
    dir.write("sources.list", "deb [signed-by=/k.gpg] http://good s c\n\n"
                              "deb [arch=amd64 signed-by=keys/foo.gpg] http://bad/debian stable main\n");
    config::Config c = sandbox(dir);
    EXPECT_EQ(read_error(c), dir.file("sources.list") +
                                 ":3: Invalid value set for option Signed-By regarding source http://bad/debian/ stable "
                                 "(not a fingerprint): 'keys/foo.gpg' is neither an absolute path to a keyring nor a "
                                 "fingerprint");
    // One bad word among good ones is enough.
    dir.write("sources.list", "deb [signed-by=/k.gpg,foo.gpg] http://bad/ s c\n");
    EXPECT_NE(read_error(c).find(":1: Invalid value set for option Signed-By regarding source http://bad/ s "),
              std::string::npos);
    EXPECT_THROW(read_source_file(dir.file("sources.list")), Error);
}

TEST(SourcesList, RelativeSignedByInDeb822IsRefusedWithTheStanzaLine) {
    test::TempDir dir("sources");
    dir.write("sources.list.d/x.sources",
              "Types: deb\nURIs: http://good\nSuites: s\nComponents: c\n\n"
              "# a comment\nTypes: deb\nURIs: http://bad\nSuites: s\nComponents: c\nSigned-By: keys/foo.gpg\n");
    config::Config c = sandbox(dir);
    std::string err = read_error(c);
    EXPECT_EQ(err.rfind(dir.file("sources.list.d/x.sources") + ":7: Invalid value set for option Signed-By "
                                                               "regarding source http://bad/ s (not a fingerprint)",
                        0),
              0u)
        << err;
}

TEST(SourcesList, SignedByThatAptAcceptsIsAccepted) {
    test::TempDir dir("sources");
    const std::string fpr40(40, 'A'), fpr64(64, 'b');
    dir.write("sources.list", "deb [signed-by=/k.gpg," + fpr40 + "!] http://a s c\n"
                              "deb [signed-by=" + fpr64 + "] http://b s c\n");
    dir.write("sources.list.d/x.sources",
              "Types: deb\nURIs: http://c\nSuites: s\nComponents: c\nSigned-By: /a.gpg\n /b.gpg\n\n"
              "Types: deb\nURIs: http://d\nSuites: s\nComponents: c\nSigned-By:\n\n"
              "Types: deb\nURIs: http://e\nSuites: s\nComponents: c\nSigned-By:\n"
              " -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n mQINBGP\n -----END PGP PUBLIC KEY BLOCK-----\n\n"
              // apt does not read a disabled stanza, so does not judge its Signed-By.
              "Enabled: no\nTypes: deb\nURIs: http://f\nSuites: s\nComponents: c\nSigned-By: rel.gpg\n");
    config::Config c = sandbox(dir);
    Diagnostics diags;
    EXPECT_EQ(read_sources(c, diags).size(), 6u);
}

}  // namespace
}  // namespace aptus::sources
