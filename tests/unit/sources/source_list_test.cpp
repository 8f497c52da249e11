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
        EXPECT_EQ(std::string(e.what()), dir.file("sources.list.d/x.list") + ":2: Malformed entry in list file (Suite)");
    }
    EXPECT_THROW(read_source_file(dir.file("nope.list")), Error);
}

}  // namespace
}  // namespace aptus::sources
