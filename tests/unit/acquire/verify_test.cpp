// OpenPGP verification with real keys, real signatures and the real
// verifiers: every case runs once with sqv and once with gpgv.
#include "aptus/acquire/verify.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "unit/acquire/verify_gpg.hpp"
#include "aptus/base/file.hpp"
#include "aptus/config/config.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/source_entry.hpp"
#include "support/test_support.hpp"

namespace aptus::acquire {
namespace {

using test::TempDir;
using test::TestGpg;

const char* const kRelease =
    "Origin: Test\n"
    "Label: Test\n"
    "Suite: stable\n"
    "Codename: testing-codename\n"
    "Date: Thu, 03 Dec 2026 10:00:00 UTC\n"
    "Architectures: amd64\n"
    "Components: main\n"
    "SHA256:\n"
    " 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef 1234 main/binary-amd64/Packages\n"
    "- a line that starts with a dash\n";

Verifier verifier_of(VerifierKind kind) {
    config::Config c;
    if (kind == VerifierKind::Gpgv) c.set("Dir::Bin::sqv", "/nonexistent/sqv");
    return find_verifier(c);
}

// One key pair per test process is enough for most cases; the costly ones
// (RSA, expired) are made only in the tests that need them.
class VerifyTest : public ::testing::TestWithParam<VerifierKind> {
protected:
    void SetUp() override {
        const char* program = GetParam() == VerifierKind::Sqv ? "/usr/bin/sqv" : "/usr/bin/gpgv";
        if (::access(program, X_OK) != 0) GTEST_SKIP() << program << " is not installed (scripts/setup)";
        verifier = verifier_of(GetParam());
        ASSERT_EQ(verifier.kind, GetParam());
        joe = gpg.generate("Joe Sixpack <joe@example.invalid>");
        joe_keyring = gpg.export_to(joe, "joe.gpg");
    }
    TrustAnchors keyring(const std::string& path) {
        TrustAnchors a;
        a.keyrings.push_back(path);
        return a;
    }
    VerifyFailure failure_of(const std::function<void()>& f, std::string* message = nullptr) {
        try {
            f();
        } catch (const VerifyError& e) {
            if (message) *message = e.what();
            return e.failure();
        }
        ADD_FAILURE() << "verification succeeded where it must fail";
        return VerifyFailure::VerifierError;
    }

    TestGpg gpg;
    Verifier verifier;
    std::string joe, joe_keyring;
    const std::string name = "http://archive.invalid/debian stable InRelease";
};

TEST_P(VerifyTest, ClearsignedGoodSignatureGivesTheSignedTextOnly) {
    std::string inrelease = gpg.clearsign(kRelease, {joe});
    Verified v = verify_clearsigned(inrelease, keyring(joe_keyring), name, verifier);
    EXPECT_EQ(v.text, kRelease);
    EXPECT_EQ(v.text, deb::clearsigned_text(inrelease, "x"));
    ASSERT_EQ(v.signers.size(), 1u);
    EXPECT_EQ(v.signers[0], joe);
    EXPECT_TRUE(v.warnings.empty());
}

TEST_P(VerifyTest, ArmouredKeyringAndInlineKeyWork) {
    std::string inrelease = gpg.clearsign(kRelease, {joe});
    std::string asc = gpg.export_to(joe, "joe.asc", true);
    EXPECT_EQ(verify_clearsigned(inrelease, keyring(asc), name, verifier).signers.at(0), joe);

    TrustAnchors inline_key;
    inline_key.inline_keys.push_back(gpg.export_key(joe, true));
    EXPECT_EQ(verify_clearsigned(inrelease, inline_key, name, verifier).signers.at(0), joe);
}

TEST_P(VerifyTest, OneChangedByteInTheSignedTextFails) {
    std::string inrelease = gpg.clearsign(kRelease, {joe});
    size_t at = inrelease.find("Suite: stable");
    ASSERT_NE(at, std::string::npos);
    inrelease[at + 7] = 'S';
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, keyring(joe_keyring), name, verifier); }, &message),
              VerifyFailure::BadSignature);
    EXPECT_NE(message.find("OpenPGP signature verification failed: " + name + ": "), std::string::npos) << message;
    // gpgv's status lines in apt 2's words, sqv's own in APT 3.0's.
    EXPECT_NE(message.find(GetParam() == VerifierKind::Gpgv ? "The following signatures were invalid"
                                                             : "Sub-process " + verifier.path +
                                                                   " returned an error code (1), error message is: "),
              std::string::npos)
        << message;
}

TEST_P(VerifyTest, TextAddedAroundTheSignedMessageIsRefused) {
    std::string inrelease = gpg.clearsign(kRelease, {joe});
    EXPECT_EQ(failure_of([&] {
                  verify_clearsigned("Origin: Evil\n" + inrelease, keyring(joe_keyring), name, verifier);
              }),
              VerifyFailure::Malformed);
    std::string message;
    EXPECT_EQ(failure_of([&] {
                  verify_clearsigned(inrelease + "Origin: Evil\n", keyring(joe_keyring), name, verifier, "",
                                     "/lists/partial/x_InRelease");
              }, &message),
              VerifyFailure::Unsplittable);
    EXPECT_EQ(message, "OpenPGP signature verification failed: " + name +
                           ": Splitting up /lists/partial/x_InRelease into data and signature failed");
}

TEST_P(VerifyTest, UnknownKeyIsNoPubkey) {
    std::string marvin = gpg.generate("Marvin Paranoid <marvin@example.invalid>");
    std::string inrelease = gpg.clearsign(kRelease, {marvin});
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, keyring(joe_keyring), name, verifier); }, &message),
              VerifyFailure::NoPublicKey);
    EXPECT_NE(message.find(GetParam() == VerifierKind::Gpgv
                               ? "The following signatures couldn't be verified because the public key is not available:"
                               : "which is needed to verify signature."),
              std::string::npos)
        << message;
    // gpgv names the long key id, sqv the fingerprint: both end the same.
    if (GetParam() == VerifierKind::Gpgv) {
        EXPECT_NE(message.find("NO_PUBKEY "), std::string::npos) << message;
    }
    EXPECT_NE(message.find(marvin.substr(24)), std::string::npos) << message;
    EXPECT_NE(message.find(name), std::string::npos) << message;
}

TEST_P(VerifyTest, ExpiredKeyIsRefused) {
    // A key made in 2020 that signed on 2020-01-05, then got a self-signature
    // dated 2020-01-02 making it expire on 2020-01-03: the signature was made
    // by an expired key, which both verifiers must refuse.
    std::string rex = gpg.generate("Rex Expired <rex@example.invalid>", "ed25519", "sign", "never", "20200101T000000");
    std::string signature = gpg.detach_sign(kRelease, {rex}, true, "SHA512", "20200105T000000");
    gpg.set_expire(rex, "1d", "20200102T000000");
    std::string ring = gpg.export_to(rex, "rex.gpg");
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_detached(kRelease, signature, keyring(ring), name, verifier); }, &message),
              VerifyFailure::ExpiredKey)
        << message;
}

TEST_P(VerifyTest, RevokedKeyIsRefused) {
    std::string signature = gpg.detach_sign(kRelease, {joe});
    EXPECT_EQ(verify_detached(kRelease, signature, keyring(joe_keyring), name, verifier).signers.at(0), joe);
    gpg.revoke(joe);
    std::string revoked = gpg.export_to(joe, "joe-revoked.gpg");
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_detached(kRelease, signature, keyring(revoked), name, verifier); }, &message),
              VerifyFailure::RevokedKey)
        << message;
}

TEST_P(VerifyTest, Sha1AndMd5SignaturesAreRefused) {
    std::string message;
    std::string sha1 = gpg.clearsign(kRelease, {joe}, "SHA1");
    EXPECT_EQ(failure_of([&] { verify_clearsigned(sha1, keyring(joe_keyring), name, verifier); }, &message),
              VerifyFailure::WeakDigest)
        << message;
    std::string md5 = gpg.detach_sign(kRelease, {joe}, true, "MD5");
    EXPECT_EQ(failure_of([&] { verify_detached(kRelease, md5, keyring(joe_keyring), name, verifier); }, &message),
              VerifyFailure::WeakDigest)
        << message;
}

TEST_P(VerifyTest, RsaDetachedSignatureArmouredAndBinary) {
    std::string rsa = gpg.generate("Rsa Key <rsa@example.invalid>", "rsa3072");
    std::string ring = gpg.export_to(rsa, "rsa.gpg");
    for (bool armor : {true, false}) {
        std::string signature = gpg.detach_sign(kRelease, {rsa}, armor);
        Verified v = verify_detached(kRelease, signature, keyring(ring), name, verifier);
        EXPECT_EQ(v.text, kRelease);
        EXPECT_EQ(v.signers.at(0), rsa);
        std::string changed = std::string(kRelease) + "\n";
        EXPECT_EQ(failure_of([&] { verify_detached(changed, signature, keyring(ring), name, verifier); }),
                  VerifyFailure::BadSignature);
    }
}

TEST_P(VerifyTest, OneKnownSignatureOfTwoIsEnough) {
    std::string marvin = gpg.generate("Marvin Paranoid <marvin@example.invalid>");
    std::string inrelease = gpg.clearsign(kRelease, {marvin, joe});
    Verified v = verify_clearsigned(inrelease, keyring(joe_keyring), name, verifier);
    EXPECT_EQ(v.signers, std::vector<std::string>{joe});
}

TEST_P(VerifyTest, FingerprintsSelectTheSigner) {
    std::string marvin = gpg.generate("Marvin Paranoid <marvin@example.invalid>");
    std::string both = gpg.dir().write("both.gpg", gpg.export_key(joe) + gpg.export_key(marvin));
    std::string inrelease = gpg.clearsign(kRelease, {joe});

    TrustAnchors a = keyring(both);
    a.fingerprints = {{joe, false}};
    EXPECT_EQ(verify_clearsigned(inrelease, a, name, verifier).signers.at(0), joe);

    a.fingerprints = {{marvin, false}};
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, verifier); }, &message),
              VerifyFailure::NotAllowed)
        << message;
}

TEST_P(VerifyTest, SubkeySignatureCountsForItsPrimaryFingerprint) {
    std::string primary = gpg.generate("Sub Key <sub@example.invalid>", "ed25519", "cert", "never");
    std::string subkey = gpg.add_signing_subkey(primary);
    std::string ring = gpg.export_to(primary, "sub.gpg");
    std::string inrelease = gpg.clearsign(kRelease, {subkey + "!"});
    TrustAnchors a = keyring(ring);
    a.fingerprints = {{primary, false}};
    EXPECT_EQ(verify_clearsigned(inrelease, a, name, verifier).signers.at(0), primary);
    // The primary key itself did not sign: an exact match on it must fail,
    // an exact match on the subkey must pass.
    a.fingerprints = {{primary, true}};
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, verifier); }), VerifyFailure::NotAllowed);
    a.fingerprints = {{subkey, true}};
    EXPECT_EQ(verify_clearsigned(inrelease, a, name, verifier).signers.at(0), primary);
    // sqv alone cannot tell which key signed: an exact fingerprint then
    // matches nothing rather than too much.
    if (verifier.kind == VerifierKind::Sqv) {
        Verifier sqv_only = verifier;
        sqv_only.gpgv_path.clear();
        EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, sqv_only); }), VerifyFailure::NotAllowed);
        a.fingerprints = {{primary, false}};
        EXPECT_EQ(verify_clearsigned(inrelease, a, name, sqv_only).signers.at(0), primary);
    }
}

TEST_P(VerifyTest, UnsignedAndMalformedInput) {
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_clearsigned(kRelease, keyring(joe_keyring), name, verifier); }, &message),
              VerifyFailure::Unsigned);
    EXPECT_EQ(message, "The repository '" + name + "' is not signed.");
    // An empty Release.gpg is a broken signature, as apt's NODATA says.
    EXPECT_EQ(failure_of([&] { verify_detached(kRelease, "", keyring(joe_keyring), name, verifier); }, &message),
              VerifyFailure::Malformed);
    EXPECT_EQ(message, "OpenPGP signature verification failed: " + name +
                           ": Signed file isn't valid, got 'NODATA' (does the network require authentication?)");
    // So is one with no signature data at all (an error page), as apt says.
    EXPECT_EQ(failure_of([&] { verify_detached(kRelease, "Hello\n", keyring(joe_keyring), name, verifier); },
                         &message),
              VerifyFailure::Malformed);
    EXPECT_EQ(message, "OpenPGP signature verification failed: " + name +
                           ": Signed file isn't valid, got 'NODATA' (does the network require authentication?)");
    // A detached signature file carrying anything beside signatures.
    std::string signature = gpg.detach_sign(kRelease, {joe});
    EXPECT_EQ(failure_of([&] {
                  verify_detached(kRelease, signature + "Origin: Evil\n", keyring(joe_keyring), name, verifier);
              }),
              VerifyFailure::Malformed);
    EXPECT_EQ(failure_of([&] {
                  verify_detached(kRelease, "Origin: Evil\n" + signature, keyring(joe_keyring), name, verifier);
              }),
              VerifyFailure::Malformed);
}

TEST_P(VerifyTest, NoUsableKeyringWarnsAndFails) {
    std::string inrelease = gpg.clearsign(kRelease, {joe});
    std::string junk = gpg.dir().write("junk.gpg", "this is not a keyring\n");
    TrustAnchors a;
    a.keyrings = {junk, gpg.dir().file("missing.gpg")};
    std::string message;
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, verifier); }, &message),
              VerifyFailure::NoPublicKey);
    EXPECT_NE(message.find("no keyring is usable"), std::string::npos) << message;
    EXPECT_NE(message.find("The key(s) in the keyring " + gpg.dir().file("missing.gpg") + " are ignored"),
              std::string::npos)
        << message;
    a.keyrings = {};
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, verifier); }, &message),
              VerifyFailure::NoPublicKey);
    EXPECT_NE(message.find("no keyring is specified"), std::string::npos) << message;
    // The junk keyring beside a good one is skipped, with apt's warning.
    a.keyrings = {junk, joe_keyring};
    Verified v = verify_clearsigned(inrelease, a, name, verifier);
    ASSERT_EQ(v.warnings.size(), 1u);
    EXPECT_EQ(v.warnings[0], "The key(s) in the keyring " + junk + " are ignored as the file has an unsupported filetype.");
}

TEST_P(VerifyTest, TrustedPartsAndTheLegacyKeyring) {
    std::string marvin = gpg.generate("Marvin Paranoid <marvin@example.invalid>");
    TempDir root("verify-root");
    std::string parts = root.mkdir("etc/apt/trusted.gpg.d");
    config::Config c;
    c.set("Dir::Etc::TrustedParts", parts + "/");
    c.set("Dir::Etc::Trusted", root.file("etc/apt/trusted.gpg"));
    root.write("etc/apt/trusted.gpg.d/joe.asc", gpg.export_key(joe, true));
    root.write("etc/apt/trusted.gpg.d/empty.gpg", "");
    // Not a name apt reads: a backup must never be trusted.
    root.write("etc/apt/trusted.gpg.d/marvin.gpg~", gpg.export_key(marvin));
    sources::SourceEntry entry;
    entry.uri = "http://archive.invalid/debian";
    entry.suite = "stable";
    TrustAnchors anchors = trust_anchors(entry, c);
    ASSERT_EQ(anchors.keyrings.size(), 1u);
    EXPECT_EQ(anchors.keyrings[0], parts + "/joe.asc");
    EXPECT_TRUE(anchors.legacy_keyring.empty());
    // ':' passes apt's name rule too (APT's own tests use "rex:expired.gpg").
    root.write("etc/apt/trusted.gpg.d/with:colon.gpg", gpg.export_key(joe));
    EXPECT_EQ(trust_anchors(entry, c).keyrings.size(), 2u);
    std::filesystem::remove(root.file("etc/apt/trusted.gpg.d/with:colon.gpg"));

    EXPECT_EQ(verify_clearsigned(gpg.clearsign(kRelease, {joe}), anchors, name, verifier).signers.at(0), joe);
    std::string by_marvin = gpg.clearsign(kRelease, {marvin});
    EXPECT_EQ(failure_of([&] { verify_clearsigned(by_marvin, anchors, name, verifier); }), VerifyFailure::NoPublicKey);

    // Marvin in the legacy trusted.gpg: accepted, with apt's warning.
    root.write("etc/apt/trusted.gpg", gpg.export_key(marvin));
    anchors = trust_anchors(entry, c);
    EXPECT_EQ(anchors.legacy_keyring, root.file("etc/apt/trusted.gpg"));
    Verified v = verify_clearsigned(by_marvin, anchors, name, verifier);
    EXPECT_EQ(v.signers.at(0), marvin);
    ASSERT_EQ(v.warnings.size(), 1u);
    EXPECT_NE(v.warnings[0].find("Key is stored in legacy trusted.gpg keyring"), std::string::npos);
}

TEST_P(VerifyTest, SignedByFromASourceEntry) {
    std::string marvin = gpg.generate("Marvin Paranoid <marvin@example.invalid>");
    TempDir root("verify-root");
    std::string parts = root.mkdir("trusted.gpg.d");
    root.write("trusted.gpg.d/both.gpg", gpg.export_key(joe) + gpg.export_key(marvin));
    config::Config c;
    c.set("Dir::Etc::TrustedParts", parts + "/");
    c.set("Dir::Etc::Trusted", root.file("trusted.gpg"));
    std::string inrelease = gpg.clearsign(kRelease, {marvin});

    auto entry_with = [](std::vector<std::string> values) {
        sources::SourceEntry e;
        e.uri = "http://archive.invalid/debian";
        e.suite = "stable";
        e.location.file = "/etc/apt/sources.list.d/test.sources";
        e.location.line = 3;
        e.options.push_back({"signed-by", sources::SourceOption::Op::Set, std::move(values)});
        return e;
    };
    // A keyring path: only that file, never trusted.gpg.d.
    TrustAnchors a = trust_anchors(entry_with({joe_keyring}), c);
    EXPECT_EQ(a.keyrings, std::vector<std::string>{joe_keyring});
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, verifier); }), VerifyFailure::NoPublicKey);
    // A fingerprint (any case): the keys of trusted.gpg.d, limited to it.
    std::string lower = marvin;
    for (char& ch : lower) ch = char(std::tolower(ch));
    a = trust_anchors(entry_with({lower}), c);
    ASSERT_EQ(a.fingerprints.size(), 1u);
    EXPECT_EQ(a.fingerprints[0].hex, marvin);
    EXPECT_EQ(verify_clearsigned(inrelease, a, name, verifier).signers.at(0), marvin);
    a = trust_anchors(entry_with({joe + "," + joe + "!"}), c);
    EXPECT_EQ(a.fingerprints.size(), 2u);
    EXPECT_TRUE(a.fingerprints[1].exact);
    EXPECT_EQ(failure_of([&] { verify_clearsigned(inrelease, a, name, verifier); }), VerifyFailure::NotAllowed);
    // An inline key block, as a deb822 Signed-By field holds it.
    a = trust_anchors(entry_with({gpg.export_key(marvin, true)}), c);
    EXPECT_EQ(a.inline_keys.size(), 1u);
    EXPECT_TRUE(a.keyrings.empty());
    EXPECT_EQ(verify_clearsigned(inrelease, a, name, verifier).signers.at(0), marvin);
    // Anything else names the entry's file and line.
    try {
        trust_anchors(entry_with({"not-a-key"}), c);
        ADD_FAILURE() << "accepted a bad Signed-By value";
    } catch (const VerifyError&) {
        ADD_FAILURE() << "wrong error type";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/etc/apt/sources.list.d/test.sources:3"), std::string::npos) << e.what();
    }
}

TEST_P(VerifyTest, RealDebianInReleaseFilesVerifyAndATamperedOneDoesNot) {
    std::string keyring = test::real_data_path("debian-archive-keyring.gpg");
    APTUS_REQUIRE_REAL_DATA(keyring);
    for (const char* file : {"bookworm-InRelease", "trixie-InRelease"}) {
        std::string path = test::real_data_path(file);
        ASSERT_FALSE(path.empty()) << file;
        std::string content = read_file(path);
        TrustAnchors a;
        a.keyrings = {keyring};
        Verified v = verify_clearsigned(content, a, file, verifier);
        EXPECT_FALSE(v.signers.empty()) << file;
        deb::ReleaseFile r = deb::parse_release(v.text, file);
        EXPECT_EQ(r.origin, "Debian") << file;
        EXPECT_FALSE(r.sha256.empty()) << file;

        // One byte of one hash changed.
        size_t at = content.find("SHA256:");
        ASSERT_NE(at, std::string::npos);
        at = content.find('\n', at) + 2;
        content[at] = content[at] == '0' ? '1' : '0';
        std::string message;
        EXPECT_EQ(failure_of([&] { verify_clearsigned(content, a, file, verifier); }, &message),
                  VerifyFailure::BadSignature)
            << file << ": " << message;
    }
}

INSTANTIATE_TEST_SUITE_P(Verifiers, VerifyTest, ::testing::Values(VerifierKind::Sqv, VerifierKind::Gpgv),
                         [](const auto& info) { return info.param == VerifierKind::Sqv ? "sqv" : "gpgv"; });

TEST(FindVerifier, PrefersSqvAndFallsBackToGpgv) {
    config::Config c;
    if (::access("/usr/bin/sqv", X_OK) == 0) {
        EXPECT_EQ(find_verifier(c).kind, VerifierKind::Sqv);
    }
    c.set("Dir::Bin::sqv", "/nonexistent/sqv");
    EXPECT_EQ(find_verifier(c).kind, VerifierKind::Gpgv);
    c.set("Dir::Bin::gpgv", "/nonexistent/gpgv");
    EXPECT_THROW(find_verifier(c), Error);
}

}  // namespace
}  // namespace aptus::acquire
