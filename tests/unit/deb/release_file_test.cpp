// Release/InRelease parsing and clearsigned text extraction: hand-written
// cases for every malformed shape, and the real bookworm and trixie files.
#include "aptus/deb/release_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "aptus/base/error.hpp"
#include "support/test_support.hpp"

using namespace aptus::deb;

namespace {

const std::string kSig = "-----BEGIN PGP SIGNATURE-----\n\nabcd\n=xyz\n-----END PGP SIGNATURE-----\n";

std::string signed_msg(const std::string& body) {
    return "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" + body + kSig;
}

std::string error_of(const std::string& content, const std::string& name = "X_InRelease") {
    try {
        clearsigned_text(content, name);
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "";
}

std::string shell(const std::string& cmd) {
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[256];
    while (p && fgets(buf, sizeof buf, p)) out += buf;
    if (p) pclose(p);
    return out;
}

TEST(ReleaseFile, ClearsignedExtractsAndUnescapes) {
    std::string t = clearsigned_text(signed_msg("Origin: X\n- -dash line\n- Suite: s\n"), "n");
    EXPECT_EQ(t, "Origin: X\n-dash line\nSuite: s\n");
}

TEST(ReleaseFile, ClearsignedCrlf) {
    std::string m = "-----BEGIN PGP SIGNED MESSAGE-----\r\nHash: SHA512\r\n\r\nA: b\r\n" + kSig;
    EXPECT_EQ(clearsigned_text(m, "n"), "A: b\n");
}

TEST(ReleaseFile, ClearsignedErrorsNameTheFile) {
    EXPECT_NE(error_of("junk\n" + signed_msg("A: b\n")).find("X_InRelease"), std::string::npos);
    EXPECT_NE(error_of("junk\n" + signed_msg("A: b\n")).find("not a clearsigned"), std::string::npos);
    EXPECT_NE(error_of(signed_msg("A: b\n") + signed_msg("A: c\n")).find("second signed message"), std::string::npos);
    EXPECT_NE(error_of("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nA: b\n").find("no signature block"),
              std::string::npos);
    EXPECT_NE(error_of("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nA: b\n-----BEGIN PGP SIGNATURE-----\nxx\n")
                  .find("not terminated"),
              std::string::npos);
    EXPECT_NE(error_of("-----BEGIN PGP SIGNED MESSAGE-----\nComment: hi\n\nA: b\n" + kSig).find("armor header"),
              std::string::npos);
    EXPECT_NE(error_of("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nA: b\n--x\n" + kSig).find("dash-escaped"),
              std::string::npos);
    EXPECT_NE(error_of(signed_msg("A: b\n") + "Origin: evil\n").find("after the signature"), std::string::npos);
    EXPECT_NE(error_of("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n").find("armor headers"), std::string::npos);
    // A signed message nested inside the text must appear dash-escaped.
    EXPECT_NE(error_of(signed_msg("A: b\n-----BEGIN PGP SIGNED MESSAGE-----\n")).find("second signed message"),
              std::string::npos);
    EXPECT_EQ(error_of(signed_msg("A: b\n") + "\n\n"), "");
}

TEST(ReleaseFile, ParsesFieldsAndHashes) {
    std::string text =
        "Origin: Debian\nLabel: Debian-Security\nSuite: stable\nCodename: bookworm\nVersion: 12.1\n"
        "Date: Sat, 11 Jul 2026 10:16:37 UTC\nValid-Until: Sat, 18 Jul 2026 10:16:37 UTC\n"
        "NotAutomatic: yes\nButAutomaticUpgrades: yes\nAcquire-By-Hash: yes\n"
        "Architectures: all amd64\nComponents: main contrib\n"
        "MD5Sum:\n 0123456789abcdef0123456789abcdef 12 main/binary-amd64/Packages\n"
        "SHA256:\n " + std::string(64, 'a') + "   1234 main/binary-amd64/Packages.xz\n " + std::string(64, 'b') +
        " 99 main/i18n/Translation-en\n";
    ReleaseFile r = parse_release(text, "R");
    EXPECT_EQ(r.origin, "Debian");
    EXPECT_EQ(r.label, "Debian-Security");
    EXPECT_EQ(r.suite, "stable");
    EXPECT_EQ(r.codename, "bookworm");
    EXPECT_EQ(r.version, "12.1");
    EXPECT_EQ(r.date, "Sat, 11 Jul 2026 10:16:37 UTC");
    EXPECT_EQ(r.valid_until, "Sat, 18 Jul 2026 10:16:37 UTC");
    EXPECT_TRUE(r.not_automatic);
    EXPECT_TRUE(r.but_automatic_upgrades);
    EXPECT_TRUE(r.acquire_by_hash);
    EXPECT_EQ(r.architectures, (std::vector<std::string>{"all", "amd64"}));
    EXPECT_EQ(r.components, (std::vector<std::string>{"main", "contrib"}));
    ASSERT_EQ(r.md5.size(), 1u);
    EXPECT_EQ(r.md5[0].size, 12u);
    ASSERT_EQ(r.sha256.size(), 2u);
    EXPECT_EQ(r.sha256[1].path, "main/i18n/Translation-en");
    const ReleaseEntry* e = r.find("main/binary-amd64/Packages.xz", ReleaseHash::Sha256);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->size, 1234u);
    auto s = r.strongest("main/binary-amd64/Packages");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->first, ReleaseHash::Md5);
    EXPECT_EQ(r.find("nope", ReleaseHash::Sha512), nullptr);
}

TEST(ReleaseFile, RejectsBadHashLines) {
    EXPECT_THROW(parse_release("SHA256:\n abc 12\n", "R"), aptus::Error);
    EXPECT_THROW(parse_release("SHA256:\n ../../x 12 p\n", "R"), aptus::Error);  // a path
    // A word that is not hex is kept, as apt keeps it: it matches no file.
    EXPECT_EQ(parse_release("SHA256:\n xyz 12 p\n", "R").find("p", ReleaseHash::Sha256)->hash, "xyz");
    EXPECT_THROW(parse_release("SHA256:\n abc 1x p\n", "R"), aptus::Error);
    EXPECT_THROW(parse_release("A: b\n\nC: d\n", "R"), aptus::Error);
}

TEST(ReleaseFile, ReadFileChecksSigningByName) {
    aptus::test::TempDir dir("release");
    std::string plain = dir.write("x_Release", "Origin: O\nSuite: s\n");
    EXPECT_EQ(read_release_file(plain).origin, "O");
    std::string unsigned_in = dir.write("x_InRelease", "Origin: O\n");
    EXPECT_THROW(read_release_file(unsigned_in), aptus::Error);
    std::string prefixed = dir.write("y_InRelease", "Origin: evil\n" + signed_msg("Origin: O\n"));
    try {
        read_release_file(prefixed);
        FAIL();
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find("y_InRelease"), std::string::npos);
    }
    std::string armored = dir.write("z_Release", "Origin: O\n" + kSig);
    EXPECT_THROW(read_release_file(armored), aptus::Error);
    std::string good = dir.write("g_InRelease", signed_msg("Origin: O\nCodename: c\n"));
    EXPECT_EQ(read_release_file(good).codename, "c");
}

TEST(ReleaseFile, RealBookwormAndTrixie) {
    std::string bookworm = aptus::test::real_data_path("bookworm-InRelease");
    std::string trixie = aptus::test::real_data_path("trixie-InRelease");
    std::string packages = aptus::test::real_data_path("bookworm-main-amd64-Packages.xz");
    APTUS_REQUIRE_REAL_DATA(bookworm);
    APTUS_REQUIRE_REAL_DATA(trixie);
    APTUS_REQUIRE_REAL_DATA(packages);
    ReleaseFile b = read_release_file(bookworm);
    EXPECT_EQ(b.origin, "Debian");
    EXPECT_EQ(b.label, "Debian");
    EXPECT_EQ(b.suite, "oldstable");
    EXPECT_EQ(b.codename, "bookworm");
    EXPECT_EQ(b.version, "12.15");
    EXPECT_TRUE(b.acquire_by_hash);
    EXPECT_FALSE(b.not_automatic);
    EXPECT_EQ(b.components, (std::vector<std::string>{"main", "contrib", "non-free-firmware", "non-free"}));
    EXPECT_EQ(b.architectures.front(), "all");
    // Independent counts: the lines of each hash list in the signed text.
    auto count = [&](const std::string& header) {
        return std::stoul(shell("awk '/^-----BEGIN PGP SIGNATURE/{exit} /^[A-Za-z]/{f=($1==\"" + header +
                                "\")} f && /^ /{n++} END{print n+0}' " + bookworm));
    };
    EXPECT_EQ(b.md5.size(), count("MD5Sum:"));
    EXPECT_EQ(b.sha256.size(), count("SHA256:"));
    const ReleaseEntry* e = b.find("main/binary-amd64/Packages.xz", ReleaseHash::Sha256);
    ASSERT_NE(e, nullptr);
    std::string sum = shell("sha256sum " + packages + " | cut -d' ' -f1");
    EXPECT_EQ(e->hash + "\n", sum);
    EXPECT_EQ(std::to_string(e->size) + "\n", shell("stat -c %s " + packages));

    ReleaseFile t = read_release_file(trixie);
    EXPECT_EQ(t.codename, "trixie");
    EXPECT_EQ(t.origin, "Debian");
    EXPECT_FALSE(t.sha256.empty());
    EXPECT_NE(t.find("main/binary-amd64/Packages.xz", ReleaseHash::Sha256), nullptr);
    std::string trixie_packages = aptus::test::real_data_path("trixie-main-amd64-Packages.xz");
    if (!trixie_packages.empty()) {
        EXPECT_EQ(t.find("main/binary-amd64/Packages.xz", ReleaseHash::Sha256)->hash + "\n",
                  shell("sha256sum " + trixie_packages + " | cut -d' ' -f1"));
    }
}

}  // namespace
