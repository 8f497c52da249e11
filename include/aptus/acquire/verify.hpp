// OpenPGP verification of a repository's InRelease, or Release + Release.gpg.
//
// The cryptography is done by a separate verifier program, `sqv` (what APT
// 3.0 uses), or `gpgv` where sqv is missing: a memory-safe verifier in its
// own process, fed files we wrote ourselves. aptus never parses OpenPGP
// packets beyond splitting armour. A clearsigned file is split here into the
// signed text and the signature, so what the verifier checked and what the
// caller reads are the same bytes: only the text of a good signature leaves
// this module.
//
// Every failure throws VerifyError (an aptus::Error) whose message is apt's
// and names the repository and file given as `name`
// (e.g. "http://deb.example.org/debian bookworm InRelease").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/error.hpp"

namespace aptus::config {
class Config;
}
namespace aptus::sources {
struct SourceEntry;
}

namespace aptus::acquire {

// A fingerprint from Signed-By: 40 or 64 upper-case hex digits. `exact`
// (written with a trailing '!') means the signing (sub)key itself must have
// this fingerprint; otherwise a signature by any subkey of the certificate
// with this primary fingerprint counts.
struct KeyFingerprint {
    std::string hex;
    bool exact = false;
};

// What a repository's signatures are checked against.
struct TrustAnchors {
    // Keyring files: binary OpenPGP keyrings (*.gpg) or armoured (*.asc).
    // Files that do not exist are left out when collected from a directory
    // (trusted.gpg.d), but a Signed-By path that does not exist is an error.
    std::vector<std::string> keyrings;
    // ASCII-armoured key blocks written inline in a .sources file.
    std::vector<std::string> inline_keys;
    // When not empty, only signatures by these keys count, whatever the
    // keyrings hold (apt's Signed-By with fingerprints).
    std::vector<KeyFingerprint> fingerprints;
    // apt's legacy keyring (Dir::Etc::Trusted) when it exists and no
    // Signed-By names keyring files: tried only when the keyrings above hold
    // no key for any signature, with a warning.
    std::string legacy_keyring;
};

// The anchors of one source entry. With Signed-By: its keyring paths, its
// fingerprints (which select keys from the keyrings of trusted.gpg.d and
// Dir::Etc::Trusted), or its inline key. Without: every *.gpg and *.asc in
// Dir::Etc::TrustedParts (apt's file-name rules) and Dir::Etc::Trusted if it
// exists. Throws aptus::Error naming the entry's file:line for a Signed-By
// value that is none of these. A keyring path that does not exist is kept:
// verification warns about it and goes on without it, as apt does.
TrustAnchors trust_anchors(const sources::SourceEntry& entry, const config::Config& config);

enum class VerifierKind : uint8_t { Sqv, Gpgv };

struct Verifier {
    VerifierKind kind = VerifierKind::Sqv;
    std::string path;  // absolute path of the program
    // gpgv, when installed beside sqv: sqv names only the certificate of a
    // good signature, never the subkey that made it, so a Signed-By
    // fingerprint with '!' (this very subkey) is checked with gpgv. Without
    // gpgv such a fingerprint matches nothing.
    std::string gpgv_path;
    // apt's APT::Hashes::<digest>::Untrusted / ::Weak, for gpgv's answers
    // (names as apt's gpgv method gives them: "SHA256", "SHA512", ...): a
    // signature over an untrusted digest does not count (MD5, SHA1 and
    // RIPE-MD/160 never do); one over a weak digest counts, with apt's
    // warning. sqv applies its own policy.
    std::vector<std::string> untrusted_digests, weak_digests;
    // Debug::Acquire::gpgv / Debug::Acquire::sqv: the verifier's command
    // and answers go to stderr, as apt's methods trace them.
    bool debug = false;
};

// The verifier to use: the gpgv-style command APT::Key::GPGVCommand names
// (in PATH; else gpgv), if set; else Dir::Bin::sqv (default /usr/bin/sqv) if executable,
// else Dir::Bin::gpgv (default /usr/bin/gpgv); gpgv_path is filled when
// both are there. Setting one of the keys to a
// path that does not exist (tests do) forces the other. Throws aptus::Error
// if neither is executable.
Verifier find_verifier(const config::Config& config);

// apt's gpgv method's words for a file that is no clearsigned message.
inline constexpr std::string_view kNoSplitReason =
    "Clearsigned file isn't valid, got 'NOSPLIT' (does the network require authentication?)";

// Why a verification failed; the update code reports all of them as errors,
// but may treat `Unsigned` differently for trusted=yes / allow-insecure sources.
enum class VerifyFailure : uint8_t {
    Unsigned,      // no signature at all (no InRelease armour, empty Release.gpg)
    Malformed,     // broken clearsigned structure or armour
    Unsplittable,  // the stored file is no clear-signed message (apt's own split fails, not its verifier)
    NoPublicKey,   // no usable key among the anchors (NO_PUBKEY)
    BadSignature,  // the data does not match the signature (BADSIG)
    ExpiredKey,    // the key or its signature expired (EXPKEYSIG / KEYEXPIRED)
    RevokedKey,    // REVKEYSIG
    WeakDigest,    // MD5 or SHA1 signatures: refused as APT 3.0 does
    NotAllowed,    // good signature, but not by a key Signed-By's fingerprints name
    VerifierError  // the verifier could not be run or failed without a reason we know
};

class VerifyError : public aptus::Error {
public:
    VerifyError(VerifyFailure failure, const std::string& message) : aptus::Error(message), failure_(failure) {}
    VerifyFailure failure() const { return failure_; }

private:
    VerifyFailure failure_;
};

struct Verified {
    // The signed data and nothing else: for a clearsigned file its text with
    // dash-escapes removed (deb::clearsigned_text), ending in '\n'; for a
    // detached signature the Release file as given.
    std::string text;
    // Primary-key fingerprints of the certificates whose good signatures
    // counted, upper-case hex, in the verifier's order.
    std::vector<std::string> signers;
    // apt's warnings on the way (a keyring ignored, the legacy keyring used).
    std::vector<std::string> warnings;
};

// Verify an InRelease file. `name` is the description used in messages.
// Scratch files are made in `scratch_dir` (default: $TMPDIR or /tmp) and
// removed before returning. `source_path`, when given, is the file the text
// was read from, named when it cannot be split into text and signature.
Verified verify_clearsigned(std::string_view inrelease, const TrustAnchors& anchors, std::string_view name,
                            const Verifier& verifier, const std::string& scratch_dir = "",
                            std::string_view source_path = {});

// Verify a Release file against its detached signature (Release.gpg, armoured
// or binary).
Verified verify_detached(std::string_view release, std::string_view signature, const TrustAnchors& anchors,
                         std::string_view name, const Verifier& verifier, const std::string& scratch_dir = "");

}  // namespace aptus::acquire
