// extended_states written as apt writes it: the expected files below are
// what apt-mark 2.6 wrote for the same input (captured on a sandbox).
#include "aptus/system/auto_marks.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/config/init.hpp"
#include "support/test_support.hpp"

using namespace aptus;
using system::AutoMark;

namespace {

Diagnostics g_diags;  // warnings of the tests that expect none

std::string status_stanza(const std::string& name, const std::string& arch, const std::string& state = "installed") {
    std::string want = state == "installed" ? "install" : "deinstall";
    return "Package: " + name + "\nStatus: " + want + " ok " + state + "\nArchitecture: " + arch + "\nVersion: 1.0\n\n";
}

struct Root {
    test::TempDir dir{"auto-marks"};
    config::Config config;
    Root() {
        config::set_builtin_defaults(config);
        config.set("Dir", dir.path() + "/");
        config.set("APT::Architecture", "amd64");
        config.set("Dir::State::status", dir.file("var/lib/dpkg/status"));
        config::set_derived_defaults(config);
        dir.mkdir("var/lib/apt");
        std::string status;
        for (const char* p : {"nginx", "curl", "git", "bash", "libfoo"}) status += status_stanza(p, "amd64");
        status += status_stanza("tzdata", "all");
        status += status_stanza("hello", "amd64", "not-installed");
        status += status_stanza("oldconf", "amd64", "config-files");
        dir.write("var/lib/dpkg/status", status);
    }
    std::string states() const { return read_file(dir.file("var/lib/apt/extended_states")); }
    void set_states(const std::string& s) const { dir.write("var/lib/apt/extended_states", s); }
};

}  // namespace

TEST(AutoMarks, PathFollowsDirState) {
    Root r;
    EXPECT_EQ(system::extended_states_path(r.config), r.dir.file("var/lib/apt/extended_states"));
}

// apt-mark auto bash on this file wrote exactly the expected text: stanzas of
// packages not installed or unknown are dropped, a missing Architecture is
// appended after Auto-Installed, an extra field keeps its stanza.
TEST(AutoMarks, RewritesAsAptMarkAuto) {
    Root r;
    r.set_states(
        "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
        "Package: hello\nArchitecture: amd64\nAuto-Installed: 1\n\n"
        "Package: nginx\nAuto-Installed: 1\n\n"
        "Package: curl\nArchitecture: amd64\nAuto-Installed: 1\nX-Foo: bar\n\n"
        "Package: nonexistentpkg\nArchitecture: amd64\nAuto-Installed: 1\n\n"
        "Package: git\nArchitecture: amd64\nAuto-Installed: 0\n\n");
    system::write_auto_marks(r.config, {{"bash", "amd64", true}}, g_diags);
    EXPECT_EQ(r.states(),
              "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: nginx\nAuto-Installed: 1\nArchitecture: amd64\n\n"
              "Package: curl\nArchitecture: amd64\nAuto-Installed: 1\nX-Foo: bar\n\n"
              "Package: bash\nArchitecture: amd64\nAuto-Installed: 1\n\n");
}

// apt-mark manual bash: bash's stanza goes, a manual or not installed
// package's stanza with a field of its own stays with Auto-Installed: 0, and
// the missing final blank line is added.
TEST(AutoMarks, RewritesAsAptMarkManual) {
    Root r;
    r.set_states(
        "Package: bash\nArchitecture: amd64\nAuto-Installed: 1\n\n"
        "Package: hello\nArchitecture: amd64\nAuto-Installed: 1\nX-Foo: bar\n\n"
        "Package: git\nArchitecture: amd64\nAuto-Installed: 0\nX-Foo: baz\n");
    system::write_auto_marks(r.config, {{"bash", "amd64", false}}, g_diags);
    EXPECT_EQ(r.states(),
              "Package: hello\nArchitecture: amd64\nAuto-Installed: 0\nX-Foo: bar\n\n"
              "Package: git\nArchitecture: amd64\nAuto-Installed: 0\nX-Foo: baz\n\n");
}

TEST(AutoMarks, RealServerFileKeepsEveryOtherStanza) {
    std::string real = test::real_data_path("extended_states-server");
    std::string status = test::real_data_path("status-server");
    if (real.empty() || status.empty()) GTEST_SKIP() << "real data not found";
    Root r;
    r.config.set("Dir::State::status", status);
    const std::string original = read_file(real);
    r.set_states(original);
    system::write_auto_marks(r.config, {{"bash", "amd64", true}}, g_diags);
    EXPECT_EQ(r.states(), original + "Package: bash\nArchitecture: amd64\nAuto-Installed: 1\n\n");
    system::write_auto_marks(r.config, {{"bash", "", false}}, g_diags);
    EXPECT_EQ(r.states(), original);
    // The first stanza of the real file, made manual: only it goes.
    system::write_auto_marks(r.config, {{"libssh2-1", "amd64", false}}, g_diags);
    std::string first = "Package: libssh2-1\nArchitecture: amd64\nAuto-Installed: 1\n\n";
    ASSERT_EQ(original.substr(0, first.size()), first);
    EXPECT_EQ(r.states(), original.substr(first.size()));
}

TEST(AutoMarks, UnchangedFileIsNotRewritten) {
    Root r;
    r.set_states("Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n");
    struct stat before {}, after {};
    ASSERT_EQ(::stat(r.dir.file("var/lib/apt/extended_states").c_str(), &before), 0);
    system::write_auto_marks(r.config, {{"libfoo", "amd64", true}, {"git", "amd64", false}}, g_diags);
    ASSERT_EQ(::stat(r.dir.file("var/lib/apt/extended_states").c_str(), &after), 0);
    EXPECT_EQ(before.st_ino, after.st_ino);
}

TEST(AutoMarks, MissingFileIsCreated) {
    Root r;
    system::write_auto_marks(r.config, {{"libfoo", "amd64", true}, {"tzdata", "all", true}, {"git", "", false}}, g_diags);
    EXPECT_EQ(r.states(),
              "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: tzdata\nArchitecture: amd64\nAuto-Installed: 1\n\n");
}

TEST(AutoMarks, MissingFileWithoutMarksIsCreatedEmpty) {
    Root r;
    system::write_auto_marks(r.config, {}, g_diags);
    EXPECT_TRUE(path_exists(r.dir.file("var/lib/apt/extended_states")));
    EXPECT_EQ(r.states(), "");
}

TEST(AutoMarks, PackagesNotInstalledGetNoMark) {
    Root r;
    r.set_states("Package: oldconf\nArchitecture: amd64\nAuto-Installed: 1\n\n");
    system::write_auto_marks(r.config, {{"hello", "amd64", true}, {"nosuch", "amd64", true}}, g_diags);
    EXPECT_EQ(r.states(), "");
}

TEST(AutoMarks, ArchitectureOfStanzaIsResolved) {
    Root r;
    // No Architecture: the native one, which apt then writes; "all" as well.
    r.set_states("Package: tzdata\nArchitecture: all\nAuto-Installed: 1\n\nPackage: git\nAuto-Installed: 1\n\n");
    system::write_auto_marks(r.config, {{"git", "amd64", false}}, g_diags);
    EXPECT_EQ(r.states(), "Package: tzdata\nArchitecture: amd64\nAuto-Installed: 1\n\n");
}

TEST(AutoMarks, ForeignArchitectureIsItsOwnPackage) {
    Root r;
    std::string status = read_file(r.dir.file("var/lib/dpkg/status")) + status_stanza("libfoo", "i386");
    r.dir.write("var/lib/dpkg/status", status);
    r.set_states("Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n");
    system::write_auto_marks(r.config, {{"libfoo", "i386", true}}, g_diags);
    EXPECT_EQ(r.states(),
              "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: libfoo\nArchitecture: i386\nAuto-Installed: 1\n\n");
    system::write_auto_marks(r.config, {{"libfoo", "amd64", false}}, g_diags);
    EXPECT_EQ(r.states(), "Package: libfoo\nArchitecture: i386\nAuto-Installed: 1\n\n");
}

// A damaged file is read as far as it goes: the readable stanzas are
// rewritten, the bytes of the whole file are kept in extended_states.damaged
// first (once), and the warning names the file, the line and the copy.
TEST(AutoMarks, DamagedFileKeepsACopyAndTheReadableMarks) {
    Root r;
    const std::string damaged =
        "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
        "Package: curl\nbroken line\nAuto-Installed: 1\n\n"
        "Package: git\nArchitecture: amd64\nAuto-Installed: 1\n\n";
    r.set_states(damaged);
    Diagnostics diags;
    system::write_auto_marks(r.config, {{"bash", "amd64", true}}, diags);
    EXPECT_EQ(r.states(),
              "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: git\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: bash\nArchitecture: amd64\nAuto-Installed: 1\n\n");
    const std::string copy = r.dir.file("var/lib/apt/extended_states.damaged");
    ASSERT_TRUE(path_exists(copy));
    EXPECT_EQ(read_file(copy), damaged);
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].level, Level::Warning);
    EXPECT_NE(diags[0].message.find("extended_states:6: line has no ':'"), std::string::npos) << diags[0].message;
    EXPECT_NE(diags[0].message.find(copy), std::string::npos) << diags[0].message;

    // The file is whole again: the next write warns of nothing and copies nothing.
    diags.clear();
    system::write_auto_marks(r.config, {{"git", "amd64", false}}, diags);
    EXPECT_TRUE(diags.empty());
    EXPECT_FALSE(path_exists(copy + ".1"));

    // Damaged again, otherwise: the first copy stays, the second goes beside it.
    const std::string again = std::string("Package: bash\nArch\0itecture: amd64\nAuto-Installed: 1\n\n", 54);
    r.set_states(again);
    system::write_auto_marks(r.config, {{"git", "amd64", true}}, diags);
    EXPECT_EQ(read_file(copy), damaged);
    ASSERT_TRUE(path_exists(copy + ".1"));
    EXPECT_EQ(read_file(copy + ".1"), again);
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_NE(diags[0].message.find("extended_states:2: NUL byte in line"), std::string::npos) << diags[0].message;
    EXPECT_EQ(r.states(), "Package: git\nArchitecture: amd64\nAuto-Installed: 1\n\n");
}

// A damaged status file: its readable stanzas still say what is installed.
TEST(AutoMarks, DamagedStatusReadAsFarAsItGoes) {
    Root r;
    r.dir.write("var/lib/dpkg/status", status_stanza("nginx", "amd64") +
                                           "Package: curl\nStatus: install ok installed\nbroken\n\n" +
                                           status_stanza("git", "amd64"));
    Diagnostics diags;
    system::write_auto_marks(r.config, {{"git", "amd64", true}, {"curl", "amd64", true}}, diags);
    EXPECT_EQ(r.states(), "Package: git\nArchitecture: amd64\nAuto-Installed: 1\n\n");
}

// The write before dpkg runs: a package about to be installed keeps its new
// mark although the status does not have it yet; one not installing and not
// installed still loses its mark.
TEST(AutoMarks, InstallingCountsAsInstalled) {
    Root r;
    r.set_states("Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n");
    system::write_auto_marks(r.config, {{"hello", "amd64", true, true}, {"newdep", "", true, true},
                                        {"gone", "amd64", true, false}}, g_diags);
    EXPECT_EQ(r.states(),
              "Package: libfoo\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: hello\nArchitecture: amd64\nAuto-Installed: 1\n\n"
              "Package: newdep\nArchitecture: amd64\nAuto-Installed: 1\n\n");
}
