// Inside verification: armour, keyring checks and the reading of each
// verifier's answer. Kept apart from the process handling so the readers can
// be tested on captured output.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/acquire/verify.hpp"

namespace aptus::acquire::detail {

// The binary packets of every ASCII-armoured block of type `block` ("PGP
// PUBLIC KEY BLOCK", "PGP SIGNATURE") in `text`, concatenated. Armor headers
// and the CRC line are skipped (the verifier checks the packets themselves).
// Throws aptus::Error naming `name` on broken armour or base64.
std::string dearmor(std::string_view text, std::string_view block, std::string_view name);

enum class KeyringFormat { Binary, Armored, Unsupported };
// What a keyring file holds, judged as apt does: armour for *.asc, else the
// first byte of an OpenPGP public-key packet. A keybox (gpg's .kbx format) or
// anything else is Unsupported: gpgv and sqv would choke on the whole set.
KeyringFormat keyring_format(std::string_view path, std::string_view content);

// A detached signature file must be signatures and nothing else (a payload
// smuggled beside them was CVE-2019-3462): one or more armoured signature
// blocks separated by blank lines, or binary data starting with a signature
// packet. Empty: "" (unsigned). Else the reason it is refused.
std::string check_detached_signature(std::string_view signature);

// Whether a signature file holds anything a verifier would take for
// signature data (a signature packet first, or an armour block somewhere);
// without any, gpgv answers NODATA (an error page instead of the file).
bool holds_signature_data(std::string_view signature);

// The signature block of a clearsigned message, armour lines included;
// assumes deb::clearsigned_text accepted the message.
std::string_view clearsigned_signature(std::string_view message);

struct Outcome {
    bool ok = false;
    VerifyFailure failure = VerifyFailure::VerifierError;
    std::string detail;  // apt's lines: "The following signatures were invalid: ..."
    std::vector<std::string> signers;
    std::vector<std::string> warnings;  // e.g. a signature over a weak digest
};

// gpgv's --status-fd lines and exit status, filtered by `fingerprints`;
// `untrusted` and `weak` are digest names (Verifier::untrusted_digests).
Outcome read_gpgv_status(std::string_view status, int exit_status, const std::vector<KeyFingerprint>& fingerprints,
                         const std::vector<std::string>& untrusted = {}, const std::vector<std::string>& weak = {});

// sqv's stdout (one primary fingerprint per good signature), stderr and exit
// status, filtered by `fingerprints`. A failure's detail is APT 3.0's: "Sub-
// process <program> returned an error code (N), error message is: <stderr>".
Outcome read_sqv_answer(std::string_view out, std::string_view err, int exit_status,
                        const std::vector<KeyFingerprint>& fingerprints, std::string_view program = "/usr/bin/sqv");

}  // namespace aptus::acquire::detail
