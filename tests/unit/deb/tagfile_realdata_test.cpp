// The reader and writer over real Debian archive snapshots (APTUS_DATA_DIR).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "aptus/base/compression.hpp"
#include "support/test_support.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/deb/tagfile_writer.hpp"

using aptus::deb::field_text;
using aptus::deb::Stanza;
using aptus::deb::StanzaEdits;
using aptus::deb::TagFileReader;
using aptus::deb::TagFileWriter;

namespace {

// "grep -c '^Package:'" over the file, decompressed by xz when it is .xz:
// a count that shares no code with the reader.
long independent_count(const std::string& path) {
    std::string cmd = path.ends_with(".xz") ? "xz -dc '" + path + "' | grep -c '^Package:'"
                                            : "grep -c '^Package:' '" + path + "'";
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return -1;
    long n = -1;
    if (std::fscanf(p, "%ld", &n) != 1) n = -1;
    pclose(p);
    return n;
}

struct Summary {
    long stanzas = 0;
    long fields = 0;
    long with_package = 0;
    uint32_t last_line = 0;
};

// Reads every stanza; `each` sees each one.
template <typename Each>
Summary read_every_stanza(const std::string& buffer, const std::string& name, Each each) {
    TagFileReader reader(buffer, name);
    Summary sum;
    Stanza s;
    while (reader.next(s)) {
        ++sum.stanzas;
        sum.fields += static_cast<long>(s.fields.size());
        if (s.find("Package")) ++sum.with_package;
        EXPECT_GT(s.line, sum.last_line) << name;
        sum.last_line = s.line;
        each(s);
    }
    return sum;
}

void expect_packages_file(const std::string& file, long expected_stanzas, std::string_view apt_version) {
    std::string path = aptus::test::real_data_path(file);
    APTUS_REQUIRE_REAL_DATA(path);
    std::string buffer = aptus::read_decompressed(path);
    std::string found_version;
    long missing_core = 0;
    Summary sum = read_every_stanza(buffer, path, [&](const Stanza& s) {
        if (s.value_or_empty("Package").empty() || s.value_or_empty("Version").empty() ||
            s.value_or_empty("Architecture").empty() || field_text(s.value_or_empty("Description")).empty())
            ++missing_core;
        if (s.value_or_empty("Package") == "apt") found_version = s.value_or_empty("Version");
    });
    EXPECT_EQ(sum.stanzas, expected_stanzas);
    EXPECT_EQ(sum.with_package, expected_stanzas);
    EXPECT_EQ(sum.stanzas, independent_count(path));
    EXPECT_EQ(missing_core, 0);
    EXPECT_EQ(found_version, apt_version);
    EXPECT_GT(sum.fields, sum.stanzas * 10);
}

std::string read_plain(const std::string& path) { return aptus::read_decompressed(path); }

// Every stanza written back unchanged gives the file back.
void expect_round_trip(const std::string& file) {
    std::string path = aptus::test::real_data_path(file);
    APTUS_REQUIRE_REAL_DATA(path);
    std::string buffer = read_plain(path);
    TagFileReader reader(buffer, path);
    TagFileWriter writer;
    Stanza s;
    long n = 0;
    while (reader.next(s)) {
        writer.write_stanza(s, StanzaEdits());
        ++n;
    }
    EXPECT_EQ(n, independent_count(path));
    EXPECT_TRUE(writer.str() == buffer) << path << " did not round-trip byte for byte";
}

}  // namespace

TEST(TagFileRealData, BookwormPackages) { expect_packages_file("bookworm-main-amd64-Packages.xz", 63440, "2.6.1"); }

TEST(TagFileRealData, TrixiePackages) { expect_packages_file("trixie-main-amd64-Packages.xz", 68829, "3.0.4"); }

TEST(TagFileRealData, BookwormPackagesRoundTrip) {
    std::string path = aptus::test::real_data_path("bookworm-main-amd64-Packages.xz");
    APTUS_REQUIRE_REAL_DATA(path);
    std::string buffer = aptus::read_decompressed(path);
    TagFileReader reader(buffer, path);
    TagFileWriter writer;
    Stanza s;
    while (reader.next(s)) writer.write_stanza(s);
    EXPECT_TRUE(writer.str() == buffer);
}

TEST(TagFileRealData, BookwormSources) {
    std::string path = aptus::test::real_data_path("bookworm-main-Sources.xz");
    APTUS_REQUIRE_REAL_DATA(path);
    std::string buffer = aptus::read_decompressed(path);
    std::string apt_binary, apt_files;
    Summary sum = read_every_stanza(buffer, path, [&](const Stanza& s) {
        if (s.value_or_empty("Package") == "apt") {
            apt_binary = s.value_or_empty("Binary");
            apt_files = field_text(s.value_or_empty("Files"));
        }
    });
    EXPECT_EQ(sum.stanzas, independent_count(path));
    EXPECT_EQ(sum.with_package, sum.stanzas);
    EXPECT_GT(sum.stanzas, 30000);
    EXPECT_EQ(apt_binary, "apt, libapt-pkg6.0, apt-doc, libapt-pkg-dev, libapt-pkg-doc, apt-utils, apt-transport-https");
    EXPECT_EQ(apt_files.substr(0, 52), "\naf77b8ff8c2dff6354c99ed756161fe8 2933 apt_2.6.1.dsc");
}

TEST(TagFileRealData, TranslationFiles) {
    for (const char* file : {"bookworm-main-i18n-Translation-en.xz", "trixie-main-i18n-Translation-en.xz"}) {
        std::string path = aptus::test::real_data_path(file);
        APTUS_REQUIRE_REAL_DATA(path);
        std::string buffer = aptus::read_decompressed(path);
        std::string apt_short;
        long without_md5 = 0;
        Summary sum = read_every_stanza(buffer, path, [&](const Stanza& s) {
            if (s.value_or_empty("Description-md5").size() != 32) ++without_md5;
            if (s.value_or_empty("Package") == "apt") {
                std::string text = field_text(s.value_or_empty("description-en"));
                apt_short = text.substr(0, text.find('\n'));
            }
        });
        EXPECT_EQ(sum.stanzas, independent_count(path)) << file;
        EXPECT_GT(sum.stanzas, 60000) << file;
        EXPECT_EQ(without_md5, 0) << file;
        EXPECT_EQ(apt_short, "commandline package manager") << file;
    }
}

TEST(TagFileRealData, DpkgStatusFiles) {
    for (auto [file, packages] : {std::pair{"status-minbase", 96}, std::pair{"status-server", 218}}) {
        std::string path = aptus::test::real_data_path(file);
        APTUS_REQUIRE_REAL_DATA(path);
        std::string buffer = read_plain(path);
        long installed = 0;
        std::string adduser_conffiles;
        Summary sum = read_every_stanza(buffer, path, [&](const Stanza& s) {
            if (s.value_or_empty("Status") == "install ok installed") ++installed;
            if (s.value_or_empty("Package") == "adduser") adduser_conffiles = field_text(s.value_or_empty("Conffiles"));
        });
        EXPECT_EQ(sum.stanzas, packages) << file;
        EXPECT_EQ(sum.stanzas, independent_count(path)) << file;
        EXPECT_EQ(installed, packages) << file;
        EXPECT_EQ(adduser_conffiles,
                  "\n/etc/adduser.conf cc3493ecd2d09837ffdcc3e25fdfff18\n/etc/deluser.conf 11a06baf8245fd8d690b99024d228c1f")
            << file;
    }
}

TEST(TagFileRealData, ExtendedStates) {
    std::string path = aptus::test::real_data_path("extended_states-server");
    APTUS_REQUIRE_REAL_DATA(path);
    std::string buffer = read_plain(path);
    long automatic = 0;
    Summary sum = read_every_stanza(buffer, path, [&](const Stanza& s) {
        EXPECT_EQ(s.fields.size(), 3u);
        if (s.value_or_empty("Auto-Installed") == "1") ++automatic;
    });
    EXPECT_EQ(sum.stanzas, 119);
    EXPECT_EQ(sum.stanzas, independent_count(path));
    EXPECT_EQ(automatic, 119);
}

TEST(TagFileRealData, RoundTripStatusServer) { expect_round_trip("status-server"); }
TEST(TagFileRealData, RoundTripStatusMinbase) { expect_round_trip("status-minbase"); }
TEST(TagFileRealData, RoundTripExtendedStates) { expect_round_trip("extended_states-server"); }

TEST(TagFileRealData, ModifyOneFieldOfOneStanza) {
    std::string path = aptus::test::real_data_path("status-server");
    APTUS_REQUIRE_REAL_DATA(path);
    std::string buffer = read_plain(path);
    TagFileReader reader(buffer, path);
    TagFileWriter writer;
    Stanza s;
    size_t status_offset = std::string::npos;
    while (reader.next(s)) {
        StanzaEdits edits;
        if (s.value_or_empty("Package") == "openssh-server") {
            edits.set("Status", "deinstall ok config-files");
            status_offset = static_cast<size_t>(s.find("Status")->value.data() - buffer.data());
        }
        writer.write_stanza(s, edits);
    }
    ASSERT_NE(status_offset, std::string::npos);
    std::string expected = buffer;
    ASSERT_EQ(expected.compare(status_offset, 21, "install ok installed\n"), 0);
    expected.replace(status_offset, 20, "deinstall ok config-files");
    EXPECT_EQ(writer.str().size(), buffer.size() + 5);
    EXPECT_TRUE(writer.str() == expected);

    // And back: the edited file reads as the original with one value changed.
    TagFileReader again(writer.str(), "edited");
    long changed = 0;
    while (again.next(s))
        if (s.value_or_empty("Status") == "deinstall ok config-files") ++changed;
    EXPECT_EQ(changed, 1);
}
