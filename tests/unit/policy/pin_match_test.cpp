// Which pins apply to which files and packages. The release data is that of
// the real bookworm and trixie InRelease files; each case was checked with
// apt 2.6's apt-cache policy on a sandbox holding those lists.
#include "aptus/policy/pin_match.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

using aptus::policy::PackageFacts;
using aptus::policy::PackageFileFacts;
using aptus::policy::Pattern;
using aptus::policy::PinMatcher;
using aptus::policy::PinRecord;

namespace {

const PackageFileFacts kTrixie{"stable", "trixie", "13.8", "main", "Debian", "Debian", "amd64", "archive.example"};
const PackageFileFacts kBookworm{"oldstable", "bookworm", "12.15", "main", "Debian", "Debian", "amd64",
                                 "archive.example"};
const PackageFileFacts kStatus{"now", "", "", "", "", "", "", "", true};
const PackageFileFacts kLocal{"local", "", "", "main", "", "", "amd64", ""};

PinMatcher release_pin(std::string text) {
    aptus::Diagnostics diags;
    auto recs = aptus::policy::parse_preferences("Package: bash\nPin: release " + text + "\nPin-Priority: 700\n",
                                                 "prefs", diags);
    return PinMatcher(recs.at(0));
}

PinMatcher package_pin(const std::string& packages) {
    PinRecord r;
    size_t start = 0;
    while (start < packages.size()) {
        size_t space = packages.find(' ', start);
        r.packages.push_back(packages.substr(start, space - start));
        if (space == std::string::npos) break;
        start = space + 1;
    }
    r.kind = PinRecord::Kind::Version;
    r.version = "*";
    r.priority = 1;
    return PinMatcher(r);
}

}  // namespace

TEST(PolicyPattern, ExactGlobRegex) {
    EXPECT_TRUE(Pattern("trixie").matches("trixie"));
    EXPECT_FALSE(Pattern("trixie").matches("trixie2"));
    EXPECT_TRUE(Pattern("trix*").matches("trixie"));
    EXPECT_TRUE(Pattern("5.2.1?-*").matches("5.2.15-2+b13"));
    EXPECT_TRUE(Pattern("/old/").matches("oldstable"));
    EXPECT_FALSE(Pattern("/^old$/").matches("oldstable"));
    EXPECT_THROW(Pattern("/(/"), aptus::Error);  // parse_preferences turns it into a warning
}

TEST(PolicyPinMatch, ReleaseKeys) {
    // a= is the Suite only: "a=trixie" does not match trixie's file.
    EXPECT_FALSE(release_pin("a=trixie").matches_file(kTrixie));
    EXPECT_TRUE(release_pin("a=stable").matches_file(kTrixie));
    // A bare word is the suite or the codename; a bare number the version.
    EXPECT_TRUE(release_pin("trixie").matches_file(kTrixie));
    EXPECT_TRUE(release_pin("stable").matches_file(kTrixie));
    EXPECT_FALSE(release_pin("stable").matches_file(kBookworm));
    EXPECT_TRUE(release_pin("13*").matches_file(kTrixie));
    EXPECT_FALSE(release_pin("13*").matches_file(kBookworm));
    EXPECT_TRUE(release_pin("n=trix*").matches_file(kTrixie));
    EXPECT_TRUE(release_pin("a=/old/").matches_file(kBookworm));
    EXPECT_FALSE(release_pin("a=/old/").matches_file(kTrixie));
    EXPECT_TRUE(release_pin("a=stable, a=oldstable").matches_file(kBookworm));
    EXPECT_FALSE(release_pin("a=stable, a=oldstable").matches_file(kTrixie));
    EXPECT_TRUE(release_pin("o=Debian,n=trixie").matches_file(kTrixie));
    EXPECT_FALSE(release_pin("o=Debian,n=trixie").matches_file(kBookworm));
    EXPECT_TRUE(release_pin("b=amd64").matches_file(kBookworm));
    EXPECT_TRUE(release_pin("l=Debian, c=main").matches_file(kTrixie));
    EXPECT_TRUE(release_pin("v=13.8").matches_file(kTrixie));
    EXPECT_FALSE(release_pin("v=13.8").matches_file(kBookworm));
    // The dpkg status file is never matched by a pin.
    EXPECT_FALSE(release_pin("b=amd64").matches_file(kStatus));
}

TEST(PolicyPinMatch, OriginIsTheSite) {
    aptus::Diagnostics diags;
    auto recs = aptus::policy::parse_preferences(
        "Package: bash\nPin: origin archive.example\nPin-Priority: 700\n\n"
        "Package: bash\nPin: origin \"\"\nPin-Priority: 700\n",
        "prefs", diags);
    PinMatcher site(recs[0]), local(recs[1]);
    EXPECT_TRUE(site.matches_file(kTrixie));
    EXPECT_TRUE(site.matches_file(kBookworm));
    EXPECT_FALSE(site.matches_file(kLocal));
    EXPECT_TRUE(local.matches_file(kLocal));
    EXPECT_FALSE(local.matches_file(kStatus));  // apt: origin "" does not pin the installed version
    EXPECT_FALSE(local.matches_file(kTrixie));
}

TEST(PolicyPinMatch, VersionPins) {
    aptus::Diagnostics diags;
    auto recs = aptus::policy::parse_preferences("Package: bash\nPin: version 5.2.15*\nPin-Priority: 700\n", "p", diags);
    PinMatcher m(recs[0]);
    EXPECT_TRUE(m.matches_version("5.2.15-2+b13"));
    EXPECT_FALSE(m.matches_version("5.2.37-2+b10"));
    EXPECT_TRUE(release_pin("n=trixie").matches_version("anything"));  // release pins do not look at versions
}

TEST(PolicyPinMatch, Packages) {
    const std::string native = "amd64";
    auto pkg = [&](std::string_view name, std::string_view arch, std::string_view source = "") {
        return PackageFacts{name, arch, native, source.empty() ? name : source};
    };
    EXPECT_TRUE(package_pin("bash").matches_package(pkg("bash", "amd64")));
    EXPECT_TRUE(package_pin("bash").matches_package(pkg("bash", "all")));  // all is native
    EXPECT_FALSE(package_pin("bash").matches_package(pkg("bash", "i386")));  // native only by default
    EXPECT_TRUE(package_pin("bash:any").matches_package(pkg("bash", "i386")));
    EXPECT_TRUE(package_pin("bash:i386").matches_package(pkg("bash", "i386")));
    EXPECT_FALSE(package_pin("bash:i386").matches_package(pkg("bash", "amd64")));
    EXPECT_TRUE(package_pin("zsh gnome* /kde/").matches_package(pkg("gnome-shell", "amd64")));
    EXPECT_TRUE(package_pin("zsh gnome* /kde/").matches_package(pkg("libkdecore5", "amd64")));
    EXPECT_FALSE(package_pin("zsh gnome* /kde/").matches_package(pkg("bash", "amd64")));
    EXPECT_TRUE(package_pin("src:apt").matches_package(pkg("libapt-pkg6.0", "amd64", "apt")));
    EXPECT_FALSE(package_pin("src:apt").matches_package(pkg("apt-utils", "amd64", "apt-utils")));
    EXPECT_TRUE(package_pin("src:*apt*:any").matches_package(pkg("libapt-pkg6.0", "i386", "apt")));
}

// apt 3.0 reads "release *" as "every file", the dpkg status included (its
// phasing test pins an installed package so); another release pin matches
// the status file by what apt knows of it, the archive "now".
TEST(PinMatch, ReleaseStarMatchesTheStatusFileToo) {
    EXPECT_TRUE(release_pin("*").matches_file(kStatus));
    EXPECT_TRUE(release_pin("*").matches_file(kTrixie));
    // The status file is the release "a=now" and nothing else (apt's
    // FileMatch on its Archive), which is what makes -t now work.
    EXPECT_TRUE(release_pin("a=*").matches_file(kStatus));
    EXPECT_TRUE(release_pin("a=now").matches_file(kStatus));
    EXPECT_TRUE(release_pin("n*").matches_file(kStatus));
    EXPECT_FALSE(release_pin("n=now").matches_file(kStatus));
    EXPECT_FALSE(release_pin("*, o=Debian").matches_file(kStatus));
}
