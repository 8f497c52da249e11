// Reading the Packages files in two parts on two threads (build.cpp,
// merge.cpp) must give the bytes one thread gives, wherever the cut falls:
// inside a file, at a file boundary, where a version met in the first part
// comes again, and with warnings keeping their file and line.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/cache/build.hpp"
#include "support/test_support.hpp"

using namespace aptus::cache;

namespace {

// `n` stanzas of filler, then packages that also appear in the second file.
std::string first_file(int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += "Package: fill" + std::to_string(i) + "\nVersion: " + std::to_string(i % 3) +
               "\nArchitecture: " + (i % 2 ? "all" : "amd64") + "\nDepends: dep" + std::to_string(i % 5) +
               " (>= 1), alt" + std::to_string(i) + " | libc6:any\nProvides: virt" + std::to_string(i % 4) +
               "\nSection: s" + std::to_string(i % 7) + "\nDescription: filler " + std::to_string(i) + "\n\n";
    out +=
        "Package: shared\nVersion: 1\nArchitecture: amd64\nSection: first\nDepends: only-in-first-copy\n"
        "Description: shared one\n\n"
        "Package: noversion\nArchitecture: amd64\n\n";
    return out;
}

const char* kSecond =
    "Package: shared\nVersion: 1\nArchitecture: amd64\nSection: second\nDepends: only-in-second-copy\n"
    "Description: shared one, as the second file says\n\n"
    "Package: shared\nVersion: 2\nArchitecture: amd64\nDepends: new-name (<< 3) [amd64]\n\n"
    "Package: broken\nVersion: 1\nArchitecture: amd64\nDepends: a (>= \n\n"
    "Package: foreign\nVersion: 1\nArchitecture: i386\nDepends: x:native\n";

const char* kThird = "Package: third\nVersion: 1\nArchitecture: arm64\nDepends: shared (= 2)\n";

class SplitBuild : public ::testing::Test {
protected:
    CacheInputs inputs_with(int n) {
        CacheInputs in;
        in.native_architecture = "amd64";
        in.indices.push_back({dir.write("a_Packages", first_file(n)), IndexKind::Packages, kNone, "main", "amd64", "",
                              "site", ""});
        in.indices.push_back({dir.write("b_Packages", kSecond), IndexKind::Packages, kNone, "main", "amd64", "", "site", ""});
        in.indices.push_back({dir.write("c_Packages", kThird), IndexKind::Packages, kNone, "main", "arm64", "", "site", ""});
        in.status_path = dir.write("status", "Package: shared\nStatus: install ok installed\nVersion: 2\n"
                                             "Architecture: amd64\n");
        return in;
    }
    aptus::test::TempDir dir{"cache-split"};
};

TEST_F(SplitBuild, SameBytesAsOneThreadWhereverTheCutFalls) {
    BuildOptions split, one;
    split.split_min_bytes = 0;
    one.split_min_bytes = SIZE_MAX;
    for (int n : {0, 1, 2, 3, 5, 8, 13, 21, 40, 80}) {
        CacheInputs in = inputs_with(n);
        BuildResult a = build_cache(in, one);
        BuildResult b = build_cache(in, split);
        EXPECT_EQ(a.image, b.image) << n << " filler stanzas";
        ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size()) << n;
        for (size_t i = 0; i < a.diagnostics.size(); ++i) EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
        // The split build reads into a second state and merges: the same
        // version seen in both parts keeps the first file's data.
        Cache c = Cache::from_image(std::move(b.image));
        const Package* shared = c.find_package("shared", "amd64");
        ASSERT_NE(shared, nullptr);
        ASSERT_EQ(shared->version_count, 2u);
        const Version& v1 = c.versions_of(*shared)[1];
        EXPECT_EQ(c.str(v1.section), "first");
        EXPECT_EQ(v1.file_count, 2u);
        EXPECT_EQ(c.str(c.names()[c.dependencies_of(v1)[0].target].name), "only-in-first-copy");
        EXPECT_FALSE(c.find_name("only-in-second-copy").has_value()) << n;
        EXPECT_NE(c.find_package("third", "arm64"), nullptr);
    }
}

TEST_F(SplitBuild, WarningsNameTheLineInEitherPart) {
    BuildOptions split;
    split.split_min_bytes = 0;
    for (int n : {0, 40}) {
        BuildResult r = build_cache(inputs_with(n), split);
        bool found = false;
        for (const auto& d : r.diagnostics)
            if (d.message.find("b_Packages:16:") != std::string::npos) found = true;
        EXPECT_TRUE(found) << n;
    }
}

TEST_F(SplitBuild, MalformedSecondPartIsReportedWithItsLine) {
    // A reader error in the second part sends the build back to one thread,
    // which reports the first error in file order with its exact line.
    BuildOptions split;
    split.split_min_bytes = 0;
    CacheInputs in = inputs_with(3);
    in.indices[1].path = dir.write("b_Packages", std::string(kSecond) + "\nPackage b\n");
    try {
        build_cache(in, split);
        FAIL() << "no error";
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find("b_Packages:23"), std::string::npos) << e.what();
    }
}

}  // namespace
