// What gpgv and sqv said, turned into one Outcome with apt's wording.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "aptus/acquire/verify_detail.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::acquire::detail {

namespace {

std::vector<std::string_view> lines_of(std::string_view s) {
    std::vector<std::string_view> out;
    for (size_t start = 0; start < s.size();) {
        size_t nl = s.find('\n', start);
        if (nl == std::string_view::npos) nl = s.size();
        std::string_view line = s.substr(start, nl - start);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        out.push_back(line);
        start = nl + 1;
    }
    return out;
}

std::vector<std::string_view> words_of(std::string_view s) { return split_words(s); }

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'f') c = char(c - 'a' + 'A');
    return out;
}

// The digest algorithms of RFC 4880 9.4 that apt will not accept a
// signature over: MD5 (1), SHA1 (2) and RIPEMD-160 (3).
// OpenPGP's digest algorithm ids (RFC 4880 9.4) by the names apt's gpgv
// method uses for them.
std::string digest_name(std::string_view id) {
    if (id == "1") return "MD5";
    if (id == "2") return "SHA1";
    if (id == "3") return "RIPE-MD/160";
    if (id == "8") return "SHA256";
    if (id == "9") return "SHA384";
    if (id == "10") return "SHA512";
    if (id == "11") return "SHA224";
    return "Invalid digest";
}

bool listed(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// One line, as apt shows its gpgv method's answer ("...: The following
// signatures couldn't be verified because the public key is not
// available: NO_PUBKEY ..."): scripts grep the W: line for the key.
void append_section(std::string& detail, std::string_view heading, const std::vector<std::string>& items) {
    if (items.empty()) return;
    if (!detail.empty()) detail += ' ';
    detail += heading;
    for (const auto& i : items) {
        detail += ' ';
        detail += i;
    }
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += sep;
        out += items[i];
    }
    return out;
}

std::vector<std::string> fingerprint_texts(const std::vector<KeyFingerprint>& fps) {
    std::vector<std::string> out;
    for (const auto& f : fps) out.push_back(f.hex + (f.exact ? "!" : ""));
    return out;
}

Outcome not_allowed(const std::vector<KeyFingerprint>& fps) {
    Outcome o;
    o.failure = VerifyFailure::NotAllowed;
    o.detail = std::string(fps.size() > 1 ? "No good signature from required signers: "
                                          : "No good signature from required signer: ") +
               join(fingerprint_texts(fps), ", ");
    return o;
}

}  // namespace

Outcome read_gpgv_status(std::string_view status, int exit_status, const std::vector<KeyFingerprint>& fingerprints,
                         const std::vector<std::string>& untrusted_digests, const std::vector<std::string>& weak_digests) {
    // MD5, SHA1 and RIPE-MD/160 never count, whatever the configuration.
    auto untrusted_digest = [&](std::string_view id) -> const char* {
        static thread_local std::string name;
        name = digest_name(id);
        if (id == "1" || id == "2" || id == "3" || listed(untrusted_digests, name)) return name.c_str();
        return nullptr;
    };
    std::vector<std::string> weak_warnings;
    struct Valid {
        std::string signing, primary, keyid;
    };
    std::vector<std::string> good_keyids, bad, worthless, no_pubkey;
    std::vector<Valid> valid;
    bool weak = false, expired = false, revoked = false, nodata = false, missing_key = false;
    std::vector<std::string> errsig;  // ERRSIG key ids not explained by NO_PUBKEY

    for (std::string_view line : lines_of(status)) {
        if (!starts_with(line, "[GNUPG:] ")) continue;
        line.remove_prefix(9);
        auto w = words_of(line);
        if (w.empty()) continue;
        std::string_view kw = w[0];
        std::string rest(line);
        if (kw == "GOODSIG" && w.size() >= 2) {
            good_keyids.push_back(upper(w[1]));
        } else if (kw == "BADSIG") {
            bad.push_back(rest);
        } else if (kw == "EXPKEYSIG" || kw == "EXPSIG") {
            worthless.push_back(rest);
            expired = true;
        } else if (kw == "REVKEYSIG") {
            worthless.push_back(rest);
            revoked = true;
        } else if (kw == "NO_PUBKEY" && w.size() >= 2) {
            std::string keyid = upper(w[1]);
            no_pubkey.push_back("NO_PUBKEY " + keyid);
            missing_key = true;
            errsig.erase(std::remove(errsig.begin(), errsig.end(), keyid), errsig.end());
        } else if (kw == "ERRSIG" && w.size() >= 7) {
            // ERRSIG keyid pkalgo hashalgo class time rc [fpr]; rc 9 is a
            // missing key (a NO_PUBKEY line follows), rc 4/5 an algorithm
            // gpgv refuses, as it does MD5.
            if (const char* d = untrusted_digest(w[3])) {
                worthless.push_back(upper(w[1]) + " (untrusted digest algorithm: " + d + ")");
                weak = true;
            } else if (w[6] != "9") {
                errsig.push_back(upper(w[1]));
            }
        } else if (kw == "NODATA") {
            nodata = true;
        } else if (kw == "VALIDSIG" && w.size() >= 10) {
            Valid v{upper(w[1]), upper(w.size() > 10 ? w[10] : w[1]), {}};
            v.keyid = v.signing.size() >= 16 ? v.signing.substr(v.signing.size() - 16) : v.signing;
            if (const char* d = untrusted_digest(w[8])) {
                worthless.push_back(v.signing + " (untrusted digest algorithm: " + d + ")");
                weak = true;
                // A VALIDSIG over a weak digest does not make its GOODSIG good.
                good_keyids.erase(std::remove(good_keyids.begin(), good_keyids.end(), v.keyid), good_keyids.end());
                continue;
            }
            if (const std::string d = digest_name(w[8]); listed(weak_digests, d))
                weak_warnings.push_back("Signature by key " + v.signing + " uses weak algorithm (" + d + ")");
            valid.push_back(std::move(v));
        }
    }
    for (const auto& e : errsig) worthless.push_back(e);

    // A good signature counts only with its VALIDSIG (GOODSIG alone names a
    // key id, and gpgv also says GOODSIG-like things for expired keys).
    Outcome o;
    for (const Valid& v : valid) {
        bool good = std::find(good_keyids.begin(), good_keyids.end(), v.keyid) != good_keyids.end() ||
                    std::find(good_keyids.begin(), good_keyids.end(), v.signing) != good_keyids.end();
        if (!good) continue;
        bool allowed = fingerprints.empty();
        for (const auto& f : fingerprints)
            if (f.hex == v.signing || (!f.exact && f.hex == v.primary)) allowed = true;
        if (allowed) {
            if (std::find(o.signers.begin(), o.signers.end(), v.primary) == o.signers.end()) o.signers.push_back(v.primary);
        } else {
            no_pubkey.push_back("GOODSIG " + v.signing);
        }
    }

    if (nodata || exit_status == 112) {
        o.failure = VerifyFailure::Malformed;
        o.detail = "Signed file isn't valid, got 'NODATA' (does the network require authentication?)";
        return o;
    }
    // As apt: one bad signature spoils the file; a missing key for one of
    // several signatures does not, as long as another is good. gpgv exits
    // with 2 then; any other failure status (a packet that is no signature,
    // a read error) is not explained by a missing key and refuses the file.
    bool status_explained = exit_status == 0 || (exit_status == 2 && missing_key);
    if (!o.signers.empty() && bad.empty() && status_explained) {
        o.ok = true;
        o.warnings = std::move(weak_warnings);
        return o;
    }
    append_section(o.detail, "The following signatures were invalid:", bad);
    append_section(o.detail, "The following signatures were invalid:", worthless);
    append_section(o.detail,
                   "The following signatures couldn't be verified because the public key is not available:", no_pubkey);
    o.signers.clear();
    if (!bad.empty()) o.failure = VerifyFailure::BadSignature;
    else if (weak) o.failure = VerifyFailure::WeakDigest;
    else if (revoked) o.failure = VerifyFailure::RevokedKey;
    else if (expired) o.failure = VerifyFailure::ExpiredKey;
    else if (!fingerprints.empty() && !valid.empty()) o.failure = VerifyFailure::NotAllowed;
    else if (!no_pubkey.empty()) o.failure = VerifyFailure::NoPublicKey;
    else if (!worthless.empty()) o.failure = VerifyFailure::BadSignature;
    if (o.detail.empty()) {
        o.failure = VerifyFailure::VerifierError;
        o.detail = exit_status == 1 ? "At least one invalid signature was encountered."
                                    : "gpgv failed with exit status " + std::to_string(exit_status);
    }
    return o;
}

Outcome read_sqv_answer(std::string_view out, std::string_view err, int exit_status,
                        const std::vector<KeyFingerprint>& fingerprints, std::string_view program) {
    Outcome o;
    if (exit_status == 0) {
        for (std::string_view line : lines_of(out)) {
            line = trim(line);
            if (line.empty()) continue;
            std::string fp = upper(line);
            bool allowed = fingerprints.empty();
            // sqv names the certificate (primary key) only, never the key
            // that signed, so an exact ('!') fingerprint cannot be told
            // here and matches nothing (verify.cpp asks gpgv instead).
            for (const auto& f : fingerprints)
                if (!f.exact && f.hex == fp) allowed = true;
            if (allowed) o.signers.push_back(std::move(fp));
        }
        if (!o.signers.empty()) {
            o.ok = true;
            return o;
        }
        if (!fingerprints.empty()) return not_allowed(fingerprints);
        o.detail = "sqv reported success but named no signer";
        return o;
    }

    // sqv's stderr is for people; its wording decides the kind of failure,
    // and the lines themselves are the message.
    bool missing = false;
    bool manipulated = false, expired = false, revoked = false, weak = false, malformed = false;
    for (std::string_view line : lines_of(err)) {
        std::string_view t = trim(line);
        if (t.empty() || t == "Verifying signature:" || starts_with(t, "Caused by:")) continue;
        if (starts_with(t, "Missing key ")) {
            missing = true;
            continue;
        }
        std::string lower = to_lower(t);
        if (lower.find("manipulated") != std::string::npos || lower.find("bad signature") != std::string::npos)
            manipulated = true;
        if (lower.find("expired") != std::string::npos || lower.find("not live") != std::string::npos) expired = true;
        if (lower.find("revoked") != std::string::npos) revoked = true;
        if (lower.find("sha1 ") != std::string::npos || lower.find("md5 ") != std::string::npos ||
            lower.find("ripemd") != std::string::npos)
            weak = true;
        if (lower.find("failed to parse") != std::string::npos || lower.find("malformed") != std::string::npos ||
            lower.find("no signature") != std::string::npos || lower.find("unexpected") != std::string::npos)
            malformed = true;
    }
    // APT 3.0's sqv method passes sqv's own words on, its lines joined by a
    // space, their indentation kept.
    std::string said;
    for (std::string_view line : lines_of(err)) {
        if (trim(line).empty()) continue;
        if (!said.empty()) said += ' ';
        said += line;
    }
    while (!said.empty() && (said.back() == ' ' || said.back() == '\r')) said.pop_back();
    if (!said.empty())
        o.detail = "Sub-process " + std::string(program) + " returned an error code (" + std::to_string(exit_status) +
                   "), error message is: " + said;
    if (manipulated) o.failure = VerifyFailure::BadSignature;
    else if (weak) o.failure = VerifyFailure::WeakDigest;
    else if (revoked) o.failure = VerifyFailure::RevokedKey;
    else if (expired) o.failure = VerifyFailure::ExpiredKey;
    else if (missing) o.failure = VerifyFailure::NoPublicKey;
    else if (malformed) o.failure = VerifyFailure::Malformed;
    else o.failure = VerifyFailure::VerifierError;
    if (o.detail.empty()) o.detail = "sqv failed with exit status " + std::to_string(exit_status);
    return o;
}

}  // namespace aptus::acquire::detail
