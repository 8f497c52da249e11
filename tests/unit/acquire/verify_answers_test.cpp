// The readers of gpgv's and sqv's answers and the armour helpers, on
// captured output: the cases real keys cannot easily produce.
#include <gtest/gtest.h>

#include <string>

#include "aptus/acquire/verify_detail.hpp"
#include "aptus/base/error.hpp"

namespace aptus::acquire::detail {
namespace {

const std::string kSigner = "7127F565A1B1B98555182318A8B075CF3F74D7BA";
const std::string kPrimary = "05BAD0FCBB6893867337593D690F5511DDA1CA7E";

std::string good(const std::string& hash_algo = "8") {
    return "[GNUPG:] NEWSIG\n"
           "[GNUPG:] GOODSIG A8B075CF3F74D7BA Test <t@example.invalid>\n"
           "[GNUPG:] VALIDSIG " +
           kSigner + " 2026-12-03 1796301520 0 4 0 22 " + hash_algo + " 00 " + kPrimary + "\n";
}
const std::string kMissing =
    "[GNUPG:] NEWSIG\n"
    "[GNUPG:] ERRSIG E8190DAB42E11442 1 10 00 1796301542 9 FF25E05E1B40AA73793B3D06E8190DAB42E11442\n"
    "[GNUPG:] NO_PUBKEY E8190DAB42E11442\n";

// APT::Hashes::<digest>::Untrusted / ::Weak: an untrusted digest spoils the
// signature, a weak one counts with apt's warning; MD5 is never taken.
TEST(GpgvStatus, DigestPolicyFromConfiguration) {
    Outcome plain = read_gpgv_status(good("10"), 0, {});
    EXPECT_TRUE(plain.ok);
    EXPECT_TRUE(plain.warnings.empty());
    Outcome weak = read_gpgv_status(good("10"), 0, {}, {}, {"SHA512"});
    EXPECT_TRUE(weak.ok);
    ASSERT_EQ(weak.warnings.size(), 1u);
    EXPECT_EQ(weak.warnings[0], "Signature by key " + kSigner + " uses weak algorithm (SHA512)");
    Outcome untrusted = read_gpgv_status(good("10"), 0, {}, {"SHA512"}, {});
    EXPECT_FALSE(untrusted.ok);
    EXPECT_EQ(untrusted.failure, VerifyFailure::WeakDigest);
    EXPECT_NE(untrusted.detail.find("untrusted digest algorithm: SHA512"), std::string::npos) << untrusted.detail;
    EXPECT_FALSE(read_gpgv_status(good("1"), 0, {}, {}, {"MD5"}).ok);
}

TEST(GpgvStatus, AGoodSignatureNamesItsCertificate) {
    Outcome o = read_gpgv_status(good(), 0, {});
    EXPECT_TRUE(o.ok);
    EXPECT_EQ(o.signers, std::vector<std::string>{kPrimary});
}

TEST(GpgvStatus, ExitTwoIsAcceptedOnlyForAMissingKeyBesideAGoodSignature) {
    EXPECT_TRUE(read_gpgv_status(good() + kMissing, 2, {}).ok);
    Outcome o = read_gpgv_status(good(), 2, {});
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failure, VerifyFailure::VerifierError);
    EXPECT_FALSE(read_gpgv_status(good(), 1, {}).ok);
    o = read_gpgv_status(kMissing, 2, {});
    EXPECT_EQ(o.failure, VerifyFailure::NoPublicKey);
    EXPECT_EQ(o.detail,
              "The following signatures couldn't be verified because the public key is not available: "
              "NO_PUBKEY E8190DAB42E11442");
}

TEST(GpgvStatus, WeakDigestsAndBadSignatures) {
    Outcome o = read_gpgv_status(good("2"), 0, {});
    EXPECT_EQ(o.failure, VerifyFailure::WeakDigest);
    EXPECT_EQ(o.detail, "The following signatures were invalid: " + kSigner + " (untrusted digest algorithm: SHA1)");
    EXPECT_EQ(read_gpgv_status(good("3"), 0, {}).failure, VerifyFailure::WeakDigest);
    // One bad signature spoils a good one.
    o = read_gpgv_status(good() + "[GNUPG:] BADSIG 1111111111111111 Other\n", 1, {});
    EXPECT_EQ(o.failure, VerifyFailure::BadSignature);
    EXPECT_EQ(read_gpgv_status("[GNUPG:] NODATA 1\n", 2, {}).failure, VerifyFailure::Malformed);
    EXPECT_EQ(read_gpgv_status("", 2, {}).failure, VerifyFailure::VerifierError);
}

TEST(GpgvStatus, FingerprintsMatchTheSigningKeyOrItsPrimary) {
    EXPECT_TRUE(read_gpgv_status(good(), 0, {{kPrimary, false}}).ok);
    EXPECT_TRUE(read_gpgv_status(good(), 0, {{kSigner, true}}).ok);
    EXPECT_FALSE(read_gpgv_status(good(), 0, {{kPrimary, true}}).ok);
    Outcome o = read_gpgv_status(good(), 0, {{"FF25E05E1B40AA73793B3D06E8190DAB42E11442", false}});
    EXPECT_EQ(o.failure, VerifyFailure::NotAllowed);
}

TEST(SqvAnswer, SignersAndReasons) {
    Outcome o = read_sqv_answer(kPrimary + "\n" + kSigner + "\n", "", 0, {{kSigner, false}});
    EXPECT_TRUE(o.ok);
    EXPECT_EQ(o.signers, std::vector<std::string>{kSigner});
    EXPECT_EQ(read_sqv_answer("", "", 0, {}).failure, VerifyFailure::VerifierError);
    o = read_sqv_answer("", "Missing key " + kSigner + ", which is needed to verify signature.\n", 1, {});
    EXPECT_EQ(o.failure, VerifyFailure::NoPublicKey);
    // APT 3.0's words: the program, its exit status and what it said, on one line.
    EXPECT_EQ(o.detail, "Sub-process /usr/bin/sqv returned an error code (1), error message is: Missing key " +
                            kSigner + ", which is needed to verify signature.");
    o = read_sqv_answer("", "Error: something nobody expected\n  Caused by: this\n", 2, {}, "/opt/sqv");
    EXPECT_EQ(o.failure, VerifyFailure::VerifierError);
    EXPECT_EQ(o.detail,
              "Sub-process /opt/sqv returned an error code (2), error message is: Error: something nobody expected "
              "  Caused by: this");
}

TEST(Armour, DearmourSkipsHeadersAndChecksum) {
    // "hello" in base64 is aGVsbG8=; two blocks are concatenated.
    std::string text =
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
        "Comment: a header\n"
        "\n"
        "aGVs\r\n"
        "bG8=\n"
        "=AbCd\n"
        "-----END PGP PUBLIC KEY BLOCK-----\n"
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
        "\n"
        "IQ==\n"
        "-----END PGP PUBLIC KEY BLOCK-----\n";
    EXPECT_EQ(dearmor(text, "PGP PUBLIC KEY BLOCK", "k.asc"), "hello!");
    EXPECT_THROW(dearmor("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\naGVs*G8=\n-----END PGP PUBLIC KEY BLOCK-----\n",
                         "PGP PUBLIC KEY BLOCK", "k.asc"),
                 Error);
    EXPECT_THROW(dearmor("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\naGVs\n", "PGP PUBLIC KEY BLOCK", "k.asc"), Error);
    EXPECT_THROW(dearmor("nothing here", "PGP PUBLIC KEY BLOCK", "k.asc"), Error);
}

TEST(Armour, KeyringFormats) {
    EXPECT_EQ(keyring_format("a.gpg", std::string("\x99\x01", 2)), KeyringFormat::Binary);
    EXPECT_EQ(keyring_format("a.gpg", std::string("\xc6\x01", 2)), KeyringFormat::Binary);
    // A keybox file (gpg's pubring.kbx format) is not a keyring sqv or gpgv reads.
    EXPECT_EQ(keyring_format("a.gpg", std::string("\x00\x00\x00\x20\x01\x01KBXf", 10)), KeyringFormat::Unsupported);
    EXPECT_EQ(keyring_format("a.gpg", ""), KeyringFormat::Unsupported);
    EXPECT_EQ(keyring_format("a.asc", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n-----END PGP PUBLIC KEY BLOCK-----\n"),
              KeyringFormat::Armored);
    EXPECT_EQ(keyring_format("a.asc", std::string("\x99\x01", 2)), KeyringFormat::Unsupported);
}

TEST(Armour, DetachedSignatureShape) {
    const std::string block = "-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n";
    EXPECT_EQ(check_detached_signature(block), "");
    EXPECT_EQ(check_detached_signature(block + "\n" + block), "");
    EXPECT_EQ(check_detached_signature(std::string("\x88\x01", 2)), "");  // binary, old-format tag 2
    EXPECT_EQ(check_detached_signature(std::string("\xc2\x01", 2)), "");  // binary, new-format tag 2
    EXPECT_NE(check_detached_signature(std::string("\xcb\x01", 2)), "");  // a literal data packet
    EXPECT_NE(check_detached_signature("Origin: x\n" + block), "");
    EXPECT_NE(check_detached_signature(block + "Origin: x\n"), "");
    EXPECT_NE(check_detached_signature("-----BEGIN PGP SIGNATURE-----\n\nAAAA\n"), "");
    EXPECT_NE(check_detached_signature("-----BEGIN PGP MESSAGE-----\n\nAAAA\n-----END PGP MESSAGE-----\n"), "");
}

TEST(Armour, ClearsignedSignatureBlock) {
    const std::string message =
        "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nOrigin: x\n- -----BEGIN PGP SIGNATURE-----\n"
        "-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n";
    EXPECT_EQ(clearsigned_signature(message), "-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----");
}

}  // namespace
}  // namespace aptus::acquire::detail
