// modernize-sources planning: the exact .sources text for every kind of line.
#include <gtest/gtest.h>

#include "aptus/base/error.hpp"
#include "aptus/config/init.hpp"
#include "aptus/sources/deb822_sources.hpp"
#include "aptus/sources/modernize.hpp"
#include "support/test_support.hpp"
#include "modernize_sandbox.hpp"

namespace {

using aptus::sources::ModernizePlan;
using aptus::sources::SourceOption;
using aptus::test::ModernizeSandbox;

std::string messages(const aptus::Diagnostics& diags) {
    std::string out;
    for (const auto& d : diags) out += (d.level == aptus::Level::Warning ? "W: " : "N: ") + d.message + "\n";
    return out;
}

TEST(ModernizePlan, NothingToDoWithoutListFiles) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/keep.sources", "Types: deb\nURIs: http://a.example/\nSuites: s\nComponents: main\n");
    EXPECT_TRUE(sb.plan().empty());
}

TEST(ModernizePlan, EveryOptionBecomesItsField) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/foo.list",
                 "deb [arch=amd64,i386 arch+=armhf arch-=i386 lang=de,en lang+=fr lang-=en target=Contents-deb "
                 "target+=Contents-udeb target-=Packages check-valid-until=no valid-until-min=86400 "
                 "valid-until-max=604800 date-max-future=3600 check-date=no by-hash=force pdiffs=no "
                 "allow-insecure=yes allow-weak=yes allow-downgrade-to-insecure=yes trusted=no snapshot=enable "
                 "signed-by=/usr/share/keyrings/a.gpg,/usr/share/keyrings/b.gpg] "
                 "http://deb.example.org/debian stable main contrib\n");
    ModernizePlan plan = sb.plan();
    ASSERT_EQ(plan.inputs.size(), 1u);
    EXPECT_EQ(plan.inputs[0].path, sb.parts() + "foo.list");
    EXPECT_EQ(plan.inputs[0].backup_path, sb.parts() + "foo.list.bak");
    EXPECT_EQ(messages(plan.inputs[0].diags),
              "W: apt reads Allow-Insecure only from one-line entries, not from .sources files: aptus keeps and "
              "honours it for http://deb.example.org/debian/ stable, apt will ignore it\n"
              "W: apt reads Allow-Weak only from one-line entries, not from .sources files: aptus keeps and "
              "honours it for http://deb.example.org/debian/ stable, apt will ignore it\n"
              "W: apt reads Allow-Downgrade-To-Insecure only from one-line entries, not from .sources files: aptus "
              "keeps and honours it for http://deb.example.org/debian/ stable, apt will ignore it\n");
    ASSERT_EQ(plan.outputs.size(), 1u);
    EXPECT_EQ(plan.outputs[0].path, sb.parts() + "foo.sources");
    EXPECT_FALSE(plan.outputs[0].existing);
    EXPECT_EQ(plan.outputs[0].content(),
              "Types: deb\n"
              "URIs: http://deb.example.org/debian/\n"
              "Suites: stable\n"
              "Components: main contrib\n"
              "Signed-By: /usr/share/keyrings/a.gpg,/usr/share/keyrings/b.gpg\n"
              "Architectures: amd64 i386\n"
              "Architectures-Add: armhf\n"
              "Architectures-Remove: i386\n"
              "Languages: de en\n"
              "Languages-Add: fr\n"
              "Languages-Remove: en\n"
              "Targets: Contents-deb\n"
              "Targets-Add: Contents-udeb\n"
              "Targets-Remove: Packages\n"
              "Check-Valid-Until: no\n"
              "Valid-Until-Min: 86400\n"
              "Valid-Until-Max: 604800\n"
              "Date-Max-Future: 3600\n"
              "Check-Date: no\n"
              "By-Hash: force\n"
              "PDiffs: no\n"
              "Allow-Insecure: yes\n"
              "Allow-Weak: yes\n"
              "Allow-Downgrade-To-Insecure: yes\n"
              "Trusted: no\n"
              "Snapshot: enable\n");
}

TEST(ModernizePlan, RepeatedOptionsKeepAptsMeaning) {
    ModernizeSandbox sb;
    // apt: per key and operator the last one wins; "=" before "+=" before "-=".
    sb.dir.write("etc/apt/sources.list.d/foo.list",
                 "deb [arch-=i386 arch=amd64 trusted=yes arch=arm64 arch+=i386] http://a.example/ s main\n");
    EXPECT_EQ(sb.plan().outputs.at(0).content(),
              "Types: deb\nURIs: http://a.example/\nSuites: s\nComponents: main\nSigned-By: \n"
              "Architectures: arm64\nArchitectures-Add: i386\nArchitectures-Remove: i386\nTrusted: yes\n");
}

TEST(ModernizePlan, CommentsAndDisabledLinesAreKept) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/foo.list",
                 "# Main archive\n"
                 "deb http://a.example/debian stable main # the mirror we use\n"
                 "\n"
                 "#deb-src http://a.example/debian stable main\n"
                 "## deb [arch=amd64] http://b.example/debian sid main\n"
                 "#   Just prose, not an entry\n"
                 "# deb cdrom:[Debian GNU/Linux 12]/ bookworm main\n"
                 "   deb http://c.example/debian stable main\r\n"
                 "# trailing note\n");
    ModernizePlan plan = sb.plan();
    ASSERT_EQ(plan.outputs.size(), 1u);
    EXPECT_EQ(plan.outputs[0].content(),
              "# Main archive\n"
              "# the mirror we use\n"
              "Types: deb\n"
              "URIs: http://a.example/debian/\n"
              "Suites: stable\n"
              "Components: main\n"
              "Signed-By: \n"
              "\n"
              "Enabled: no\n"
              "Types: deb-src\n"
              "URIs: http://a.example/debian/\n"
              "Suites: stable\n"
              "Components: main\n"
              "Signed-By: \n"
              "\n"
              "Enabled: no\n"
              "Types: deb\n"
              "URIs: http://b.example/debian/\n"
              "Suites: sid\n"
              "Components: main\n"
              "Signed-By: \n"
              "Architectures: amd64\n"
              "\n"
              "#   Just prose, not an entry\n"
              "# deb cdrom:[Debian GNU/Linux 12]/ bookworm main\n"
              "Types: deb\n"
              "URIs: http://c.example/debian/\n"
              "Suites: stable\n"
              "Components: main\n"
              "Signed-By: \n"
              "\n"
              "# trailing note\n");
    // Enabled entries without a key are named; disabled ones are not.
    EXPECT_EQ(messages(plan.inputs[0].diags),
              "W: Could not determine Signed-By for URIs: http://a.example/debian/, Suites: stable\n"
              "W: Could not determine Signed-By for URIs: http://c.example/debian/, Suites: stable\n");
}

TEST(ModernizePlan, LinesFoldOnlyWhereTheMeaningStays) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/foo.list",
                 "deb http://a.example/debian stable main contrib\n"
                 "deb http://a.example/debian/ stable non-free\n"
                 "deb-src http://a.example/debian stable main contrib non-free\n"
                 "deb http://a.example/debian stable main\n"
                 "deb http://a.example/debian unstable main\n"
                 "deb-src http://a.example/debian unstable main contrib\n"
                 "deb [arch=amd64] http://a.example/debian stable main\n"
                 "deb [ arch=amd64 ] http://a.example/debian stable contrib\n"
                 "deb http://a.example/flat ./\n"
                 "deb-src http://a.example/flat ./\n"
                 "deb http://a.example/debian stable main contrib\n");
    EXPECT_EQ(sb.plan().outputs.at(0).content(),
              "Types: deb deb-src\n"
              "URIs: http://a.example/debian/\n"
              "Suites: stable\n"
              "Components: main contrib non-free\n"
              "Signed-By: \n"
              "\n"
              "Types: deb\n"
              "URIs: http://a.example/debian/\n"
              "Suites: unstable\n"
              "Components: main\n"
              "Signed-By: \n"
              "\n"
              "Types: deb-src\n"
              "URIs: http://a.example/debian/\n"
              "Suites: unstable\n"
              "Components: main contrib\n"
              "Signed-By: \n"
              "\n"
              "Types: deb\n"
              "URIs: http://a.example/debian/\n"
              "Suites: stable\n"
              "Components: main contrib\n"
              "Signed-By: \n"
              "Architectures: amd64\n"
              "\n"
              "Types: deb deb-src\n"
              "URIs: http://a.example/flat/\n"
              "Suites: ./\n"
              "Signed-By: \n");
}

TEST(ModernizePlan, MainFileGoesToOriginFilesAndAppends) {
    ModernizeSandbox sb;
    sb.dir.write("var/lib/apt/lists/deb.example.org_debian_dists_stable_Release", "Origin: Debian\nSuite: stable\n");
    sb.dir.write("var/lib/apt/lists/ports.example.org_debian-ports_dists_sid_Release",
                 "Origin: Debian Ports\nSuite: sid\n");
    sb.dir.write("usr/share/keyrings/debian-archive-keyring.gpg", "k");
    sb.dir.write("usr/share/keyrings/debian-ports-archive-keyring.gpg", "k");
    sb.dir.write("etc/apt/sources.list.d/debian.sources",
                 "Types: deb\nURIs: http://old.example/\nSuites: x\nComponents: main\n");
    sb.dir.write("etc/apt/sources.list",
                 "# Debian\n"
                 "deb http://deb.example.org/debian stable main\n"
                 "deb http://ports.example.org/debian-ports sid main\n"
                 "deb [signed-by=/etc/keys/sec.gpg] http://security.example.org/ stable-security main\n"
                 "deb [signed-by=/my/key.gpg] http://deb.example.org/debian stable contrib\n");
    ModernizePlan plan = sb.plan();
    std::string root = sb.root(), main = root + "etc/apt/sources.list";
    ASSERT_EQ(plan.inputs.size(), 1u);
    EXPECT_EQ(plan.inputs[0].backup_path, main + ".bak");
    EXPECT_TRUE(plan.inputs[0].diags.empty()) << messages(plan.inputs[0].diags);
    EXPECT_EQ(plan.inputs[0].outputs,
              (std::vector<std::string>{sb.parts() + "debian.sources", sb.parts() + "debian-ports.sources",
                                        sb.parts() + "moved-from-main.sources"}));
    ASSERT_EQ(plan.outputs.size(), 3u);
    EXPECT_TRUE(plan.outputs[0].existing);
    EXPECT_EQ(plan.outputs[0].content(),
              "Types: deb\nURIs: http://old.example/\nSuites: x\nComponents: main\n"
              "\n"
              "# Modernized from " + main + "\n"
              "# Debian\n"
              "Types: deb\nURIs: http://deb.example.org/debian/\nSuites: stable\nComponents: main\n"
              // apt reads one signed-by per (URI, suite): the explicit one of
              // the other line, not the archive keyring, or apt would refuse
              // the conflicting values.
              "Signed-By: /my/key.gpg\n"
              "\n"
              "# Modernized from " + main + "\n"
              "Types: deb\nURIs: http://deb.example.org/debian/\nSuites: stable\nComponents: contrib\n"
              "Signed-By: /my/key.gpg\n");
    EXPECT_EQ(plan.outputs[1].content(),
              "# Modernized from " + main + "\n"
              "Types: deb\nURIs: http://ports.example.org/debian-ports/\nSuites: sid\nComponents: main\n"
              "Signed-By: " + root + "usr/share/keyrings/debian-ports-archive-keyring.gpg\n");
    EXPECT_EQ(plan.outputs[2].content(),
              "# Modernized from " + main + "\n"
              "Types: deb\nURIs: http://security.example.org/\nSuites: stable-security\nComponents: main\n"
              "Signed-By: /etc/keys/sec.gpg\n");
}

TEST(ModernizePlan, OriginFromInReleaseAndFlatRepository) {
    ModernizeSandbox sb;
    sb.dir.write("var/lib/apt/lists/repo.example.org_flat_._InRelease",
                 "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nOrigin: Some Vendor_Inc\nSuite: x\n"
                 "-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n");
    sb.dir.write("etc/apt/sources.list", "deb http://repo.example.org/flat ./\n");
    ModernizePlan plan = sb.plan();
    ASSERT_EQ(plan.outputs.size(), 1u);
    EXPECT_EQ(plan.outputs[0].path, sb.parts() + "some-vendor-inc.sources");
}

TEST(ModernizePlan, SignedByFromTrustedPartsNeverOverridesOwn) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/trusted.gpg.d/rocks.gpg", "k");
    sb.dir.write("etc/apt/trusted.gpg.d/rocks.asc", "k");
    sb.dir.write("etc/apt/trusted.gpg.d/other.gpg", "k");
    sb.dir.write("etc/apt/sources.list.d/rocks.list",
                 "deb http://rocks.example/ s main\ndeb [signed-by=ABCDEF0123] http://rocks.example/ t main\n");
    sb.dir.write("etc/apt/sources.list.d/other.list", "deb http://other.example/ s main\n");
    sb.dir.write("etc/apt/sources.list.d/none.list",
                 "deb http://none.example/ s main\ndeb [trusted=yes] http://trusted.example/ s main\n"
                 "# deb http://off.example/ s main\n");
    ModernizePlan plan = sb.plan();
    ASSERT_EQ(plan.inputs.size(), 3u);
    EXPECT_EQ(plan.inputs[0].path, sb.parts() + "none.list");
    EXPECT_EQ(messages(plan.inputs[0].diags),
              "W: Could not determine Signed-By for URIs: http://none.example/, Suites: s\n");
    EXPECT_EQ(plan.outputs.at(1).content(), "Types: deb\nURIs: http://other.example/\nSuites: s\nComponents: main\n"
                                            "Signed-By: " + sb.root() + "etc/apt/trusted.gpg.d/other.gpg\n");
    EXPECT_EQ(plan.outputs.at(2).content(), "Types: deb\nURIs: http://rocks.example/\nSuites: s\nComponents: main\n"
                                            "Signed-By: " + sb.root() + "etc/apt/trusted.gpg.d/rocks.asc\n\n"
                                            "Types: deb\nURIs: http://rocks.example/\nSuites: t\nComponents: main\n"
                                            "Signed-By: ABCDEF0123\n");
}

TEST(ModernizePlan, EmptyMainFileIsOnlyRenamed) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list", "# nothing here\n");
    ModernizePlan plan = sb.plan();
    ASSERT_EQ(plan.inputs.size(), 1u);
    EXPECT_TRUE(plan.inputs[0].outputs.empty());
    EXPECT_TRUE(plan.outputs.empty());
    EXPECT_EQ(plan.inputs[0].diags.size(), 1u);
}

TEST(ModernizePlan, BackupNeverOverwritesAnOldOne) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/foo.list", "deb http://a.example/ s main\n");
    sb.dir.write("etc/apt/sources.list.d/foo.list.bak", "old");
    sb.dir.write("etc/apt/sources.list.d/foo.list.1.bak", "older");
    EXPECT_EQ(sb.plan().inputs.at(0).backup_path, sb.parts() + "foo.list.2.bak");
}

TEST(ModernizePlan, EntryDeb822CannotHoldIsAnError) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/foo.list", "deb http://a.example/ s main\n"
                                                    "deb \"cdrom:[Debian GNU/Linux 12]/\" bookworm main\n");
    try {
        sb.plan();
        FAIL() << "no error";
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find("foo.list:2:"), std::string::npos) << e.what();
    }
}

TEST(ModernizePlan, OutputThatIsNotAFileIsAnError) {
    ModernizeSandbox sb;
    sb.dir.write("etc/apt/sources.list.d/foo.list", "deb http://a.example/ s main\n");
    sb.dir.mkdir("etc/apt/sources.list.d/foo.sources");
    EXPECT_THROW(sb.plan(), aptus::Error);
}

TEST(ModernizeNames, OriginFileStem) {
    using aptus::sources::origin_file_stem;
    EXPECT_EQ(origin_file_stem("Debian"), "debian");
    EXPECT_EQ(origin_file_stem("Debian Ports"), "debian-ports");
    EXPECT_EQ(origin_file_stem("A_B/C{x}=y"), "a-b-c-x--y");
}

TEST(ModernizeNames, FieldNamesReadBackAsTheSameOption) {
    for (const char* key : {"arch", "lang", "target"})
        for (auto op : {SourceOption::Op::Set, SourceOption::Op::Add, SourceOption::Op::Remove}) {
            auto back = aptus::sources::deb822_option_field(aptus::sources::deb822_field_name(key, op));
            EXPECT_EQ(back.key, key);
            EXPECT_EQ(back.op, op);
        }
    for (const char* key : {"signed-by", "trusted", "check-valid-until", "valid-until-min", "valid-until-max",
                            "check-date", "date-max-future", "by-hash", "pdiffs", "allow-insecure", "allow-weak",
                            "allow-downgrade-to-insecure", "snapshot"}) {
        auto back = aptus::sources::deb822_option_field(aptus::sources::deb822_field_name(key, SourceOption::Op::Set));
        EXPECT_EQ(back.key, key);
        EXPECT_EQ(back.op, SourceOption::Op::Set);
    }
}

}  // namespace
