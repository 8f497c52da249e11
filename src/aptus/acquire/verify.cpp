// Verification: the files handed to the verifier are written by us into a
// private scratch directory, so what is checked is exactly what is returned.
#include "aptus/acquire/verify.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "aptus/acquire/verify_detail.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/base/subprocess.hpp"
#include "aptus/config/config.hpp"
#include "aptus/deb/release_file.hpp"

namespace aptus::acquire {

namespace {

// A directory of our own (0700) for the verifier's inputs, removed with
// everything in it however verification ends.
class Scratch {
public:
    explicit Scratch(const std::string& parent) : dir_("aptus-verify", parent) {}

    const std::string& dir() const { return dir_.path(); }
    // A name no other key file in this directory has.
    std::string key_name(std::string_view ext) { return "key" + std::to_string(keys_++) + std::string(ext); }
    std::string write(const std::string& name, std::string_view content) {
        std::string path = dir_.path() + "/" + name;
        int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) throw system_error("Could not create", path, errno);
        size_t done = 0;
        while (done < content.size()) {
            ssize_t n = ::write(fd, content.data() + done, content.size() - done);
            if (n < 0) {
                if (errno == EINTR) continue;
                int e = errno;
                ::close(fd);
                throw system_error("Could not write", path, e);
            }
            done += size_t(n);
        }
        ::close(fd);
        return path;
    }

private:
    ScratchDirectory dir_;
    unsigned keys_ = 0;
};

std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    std::error_code ec;
    auto abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.string();
}

// The keyring files to give the verifier: each checked as apt checks them
// (readable, a format the verifiers read), armoured ones dearmoured for
// gpgv, which reads binary keyrings only.
std::vector<std::string> prepare_keyrings(const std::vector<std::string>& keyrings,
                                          const std::vector<std::string>& inline_keys, const Verifier& verifier,
                                          Scratch& scratch, std::vector<std::string>& warnings) {
    std::vector<std::string> out;
    auto add_armored = [&](std::string_view text, const std::string& origin) {
        if (verifier.kind == VerifierKind::Sqv) {
            out.push_back(scratch.write(scratch.key_name(".asc"), text));
        } else {
            out.push_back(scratch.write(scratch.key_name(".gpg"), detail::dearmor(text, "PGP PUBLIC KEY BLOCK", origin)));
        }
    };
    for (const std::string& path : keyrings) {
        std::string content;
        try {
            content = read_file(path);
        } catch (const Error&) {
            // apt's wording, but a file that is not there is not called unreadable.
            warnings.push_back("The key(s) in the keyring " + path +
                               (path_exists(path) ? " are ignored as the file is not readable by user executing " +
                                                        std::string(verifier.kind == VerifierKind::Sqv ? "sqv" : "gpgv") + "."
                                                  : " are ignored as the file does not exist."));
            continue;
        }
        switch (detail::keyring_format(path, content)) {
        case detail::KeyringFormat::Binary:
            // gpgv reads "name:rest" as a URL ("invalid key resource URL"
            // for trusted.gpg.d/rex:expired.gpg): it gets the bytes just
            // checked, under a plain name of ours.
            if (verifier.kind == VerifierKind::Gpgv)
                out.push_back(scratch.write(scratch.key_name(".gpg"), content));
            else
                out.push_back(absolute(path));
            break;
        case detail::KeyringFormat::Armored:
            try {
                add_armored(content, path);
            } catch (const Error&) {
                warnings.push_back("The key(s) in the keyring " + path +
                                   " are ignored as the file has an unsupported filetype.");
            }
            break;
        case detail::KeyringFormat::Unsupported:
            warnings.push_back("The key(s) in the keyring " + path +
                               " are ignored as the file has an unsupported filetype.");
            break;
        }
    }
    for (const std::string& key : inline_keys) add_armored(key, "the Signed-By key block");
    return out;
}

// The verifier's command line and what it answered, on stderr. For sqv,
// whose answer is the fingerprints of good signatures, apt's sqv method's
// lines too: "Got GOODSIG <fpr>", or "NoPubKey: GOODSIG <fpr>" for one
// Signed-By's fingerprints do not name.
void trace_verifier(const std::vector<std::string>& argv, const SubprocessResult& r, bool sqv = false,
                    const std::vector<KeyFingerprint>& fingerprints = {}) {
    std::string text = "Preparing to exec: ";
    for (const std::string& a : argv) text += " " + a;
    text += "\n";
    if (sqv && r.success()) {
        for (size_t start = 0; start < r.out.size();) {
            size_t end = r.out.find('\n', start);
            if (end == std::string::npos) end = r.out.size();
            std::string fp = std::string(trim(std::string_view(r.out).substr(start, end - start)));
            start = end + 1;
            if (fp.empty()) continue;
            bool allowed = fingerprints.empty();
            for (const KeyFingerprint& f : fingerprints) allowed = allowed || f.hex == fp;
            text += (allowed ? "Got GOODSIG " : "NoPubKey: GOODSIG ") + fp + "\n";
        }
    }
    for (const std::string* part : {&r.out, &r.err}) {
        size_t start = 0;
        while (start < part->size()) {
            size_t end = part->find('\n', start);
            if (end == std::string::npos) end = part->size();
            text += "Got: " + part->substr(start, end - start) + "\n";
            start = end + 1;
        }
    }
    std::fflush(stdout);
    std::fputs(text.c_str(), stderr);
}

detail::Outcome run_verifier(const Verifier& verifier, const std::vector<std::string>& keyrings,
                             const std::string& signature, const std::string& data,
                             const std::vector<KeyFingerprint>& fingerprints, Scratch& scratch) {
    SubprocessOptions options;
    // Verifier wording is read back; keep it the untranslated one.
    options.environment = {{"LC_ALL", "C"}, {"LANGUAGE", ""}};
    std::vector<std::string> argv{verifier.path};
    if (verifier.kind == VerifierKind::Gpgv) {
        // An empty home of our own: gpgv must never fall back to a default
        // keyring (trustedkeys.kbx) of the user running us.
        std::string home = scratch.dir() + "/gnupg";
        if (!std::filesystem::exists(home)) std::filesystem::create_directory(home);
        std::filesystem::permissions(home, std::filesystem::perms::owner_all);
        argv.insert(argv.end(), {"--homedir", home, "--status-fd", "1"});
        for (const auto& k : keyrings) argv.insert(argv.end(), {"--keyring", k});
        argv.insert(argv.end(), {signature, data});
        SubprocessResult r = run_subprocess(argv, options);
        if (verifier.debug) trace_verifier(argv, r);
        return detail::read_gpgv_status(r.out, r.signal ? -1 : r.exit_status, fingerprints,
                                        verifier.untrusted_digests, verifier.weak_digests);
    }
    // apt's sqv method: its crypto policy file, the first there is.
    if (const char* own = std::getenv("APT_SEQUOIA_CRYPTO_POLICY"); own && *own) {
        options.environment.push_back({"SEQUOIA_CRYPTO_POLICY", own});
    } else {
        for (const char* f : {"/etc/crypto-policies/back-ends/apt-sequoia.config",
                              "/var/lib/crypto-config/profiles/current/apt-sequoia.config",
                              "/etc/crypto-policies/back-ends/sequoia.config",
                              "/var/lib/crypto-config/profiles/current/sequoia.config",
                              "/usr/share/apt/default-sequoia.config"})
            if (::access(f, R_OK) == 0) {
                options.environment.push_back({"SEQUOIA_CRYPTO_POLICY", f});
                break;
            }
    }
    for (const auto& k : keyrings) argv.insert(argv.end(), {"--keyring", k});
    argv.insert(argv.end(), {signature, data});
    SubprocessResult r = run_subprocess(argv, options);
    if (verifier.debug) trace_verifier(argv, r, true, fingerprints);
    detail::Outcome o =
        detail::read_sqv_answer(r.out, r.err, r.signal ? -1 : r.exit_status, fingerprints, verifier.path);
    if (o.ok) {
        // As apt's sqv method: the same check under the policy of a year
        // from now; a refusal then is a warning now. (An sqv without
        // --policy-as-of, bookworm's 1.1, refuses the option by name:
        // nothing is said then.)
        char when[32];
        const std::time_t later = std::time(nullptr) + 365L * 24 * 3600;
        struct tm tm {};
        ::gmtime_r(&later, &tm);
        std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        std::vector<std::string> ahead = argv;
        ahead.insert(ahead.begin() + 1, {"--policy-as-of", when});
        SubprocessResult later_r = run_subprocess(ahead, options);
        if (verifier.debug) trace_verifier(ahead, later_r, true, fingerprints);
        if (later_r.signal == 0 && later_r.exit_status == 1 &&
            later_r.err.find("--policy-as-of") == std::string::npos)
            o.warnings.push_back("Policy will reject signature within a year, see --audit for details");
    }
    return o;
}

Verified verify_files(const std::string& signature, const std::string& data, std::string text,
                      const TrustAnchors& anchors, std::string_view name, const Verifier& chosen, Scratch& scratch) {
    Verifier verifier = chosen;
    bool exact = std::any_of(anchors.fingerprints.begin(), anchors.fingerprints.end(),
                             [](const KeyFingerprint& f) { return f.exact; });
    if (exact && verifier.kind == VerifierKind::Sqv && !verifier.gpgv_path.empty())
        verifier = {VerifierKind::Gpgv, verifier.gpgv_path, verifier.gpgv_path, verifier.untrusted_digests,
                    verifier.weak_digests, verifier.debug};
    Verified result;
    std::vector<std::string> keyrings =
        prepare_keyrings(anchors.keyrings, anchors.inline_keys, verifier, scratch, result.warnings);
    detail::Outcome outcome;
    if (keyrings.empty()) {
        outcome.failure = VerifyFailure::NoPublicKey;
        // Keyrings were named but none could be used (a Signed-By file that
        // is missing, unreadable or not a keyring): say which, since the
        // warnings would be lost with the failure.
        if (result.warnings.empty()) {
            outcome.detail = "The signatures couldn't be verified because no keyring is specified";
        } else {
            outcome.detail = "The signatures couldn't be verified because no keyring is usable:";
            for (const std::string& w : result.warnings) outcome.detail += " " + w;
        }
    } else {
        outcome = run_verifier(verifier, keyrings, signature, data, anchors.fingerprints, scratch);
    }
    // apt's legacy fallback: a key nobody moved out of trusted.gpg still
    // works, with a warning, but only when no configured key knew the
    // signature at all.
    if (!outcome.ok && outcome.failure == VerifyFailure::NoPublicKey && !anchors.legacy_keyring.empty()) {
        std::vector<std::string> legacy_warnings;
        auto legacy = prepare_keyrings({anchors.legacy_keyring}, {}, verifier, scratch, legacy_warnings);
        if (!legacy.empty()) {
            detail::Outcome second = run_verifier(verifier, legacy, signature, data, anchors.fingerprints, scratch);
            if (second.ok) {
                outcome = std::move(second);
                result.warnings.push_back("Key is stored in legacy trusted.gpg keyring (" + anchors.legacy_keyring +
                                          "). Use Signed-By instead. See the USER CONFIGURATION section in "
                                          "apt-secure(8) for details.");
            }
        }
    }
    if (!outcome.ok)
        throw VerifyError(outcome.failure,
                          "OpenPGP signature verification failed: " + std::string(name) + ": " + outcome.detail);
    result.text = std::move(text);
    result.signers = std::move(outcome.signers);
    for (std::string& w : outcome.warnings) result.warnings.push_back(std::move(w));
    return result;
}

[[noreturn]] void unsigned_repository(std::string_view name) {
    throw VerifyError(VerifyFailure::Unsigned, "The repository '" + std::string(name) + "' is not signed.");
}

}  // namespace

Verifier find_verifier(const config::Config& config) {
    std::string sqv = config.find_file("Dir::Bin::sqv", "/usr/bin/sqv");
    std::string gpgv = config.find_file("Dir::Bin::gpgv", "/usr/bin/gpgv");
    bool have_gpgv = !gpgv.empty() && ::access(gpgv.c_str(), X_OK) == 0;
    std::vector<std::string> untrusted, weak;
    for (const char* d : {"MD5", "SHA1", "RIPE-MD/160", "SHA224", "SHA256", "SHA384", "SHA512"}) {
        if (config.find_bool(std::string("APT::Hashes::") + d + "::Untrusted", false))
            untrusted.push_back(d);
        else if (config.find_bool(std::string("APT::Hashes::") + d + "::Weak", false))
            weak.push_back(d);
    }
    const bool debug = config.find_bool("Debug::Acquire::gpgv", false) || config.find_bool("Debug::Acquire::sqv", false);
    // APT::Key::GPGVCommand asks for a gpgv-style verifier by name (gpgv-sq,
    // gpgv-g10code): apt then uses its gpgv method instead of sqv. Found in
    // PATH (or given as a path), else gpgv itself when there is one.
    if (std::string cmd = config.find("APT::Key::GPGVCommand"); !cmd.empty()) {
        std::string path;
        if (cmd.find('/') != std::string::npos) {
            if (::access(cmd.c_str(), X_OK) == 0) path = cmd;
        } else {
            const char* env = std::getenv("PATH");
            std::string dirs = env && *env ? env : "/usr/local/bin:/usr/bin:/bin";
            for (size_t start = 0; start <= dirs.size() && path.empty();) {
                size_t colon = dirs.find(':', start);
                if (colon == std::string::npos) colon = dirs.size();
                std::string dir = dirs.substr(start, colon - start);
                if (!dir.empty() && dir.front() == '/' && ::access((dir + "/" + cmd).c_str(), X_OK) == 0)
                    path = dir + "/" + cmd;
                start = colon + 1;
            }
        }
        if (path.empty() && have_gpgv) path = gpgv;
        if (!path.empty()) return {VerifierKind::Gpgv, path, path, untrusted, weak, debug};
    }
    if (!sqv.empty() && ::access(sqv.c_str(), X_OK) == 0)
        return {VerifierKind::Sqv, sqv, have_gpgv ? gpgv : "", untrusted, weak, debug};
    if (have_gpgv) return {VerifierKind::Gpgv, gpgv, gpgv, untrusted, weak, debug};
    throw Error("No OpenPGP verifier found: neither sqv (" + sqv + ") nor gpgv (" + gpgv +
                ") can be run; install the sqv package");
}

Verified verify_clearsigned(std::string_view inrelease, const TrustAnchors& anchors, std::string_view name,
                            const Verifier& verifier, const std::string& scratch_dir, std::string_view source_path) {
    if (inrelease.find("-----BEGIN PGP SIGNED MESSAGE-----") == std::string_view::npos) unsigned_repository(name);
    std::string text;
    try {
        text = deb::clearsigned_text(inrelease, name);
    } catch (const Error& e) {
        // apt's words when it has the file: anything outside the signed
        // message (CVE-2013-1051's unsigned tail) makes the split fail.
        const std::string why = source_path.empty()
                                    ? std::string(kNoSplitReason) + ": " + e.what()
                                    : "Splitting up " + std::string(source_path) + " into data and signature failed";
        throw VerifyError(source_path.empty() ? VerifyFailure::Malformed : VerifyFailure::Unsplittable,
                          "OpenPGP signature verification failed: " + std::string(name) + ": " + why);
    }
    std::string_view signature = detail::clearsigned_signature(inrelease);
    Scratch scratch(scratch_dir);
    // The signed data is the text without the line break that ends its last
    // line: RFC 4880 7.1 gives that break to the armor. The verifier turns the
    // remaining breaks into CRLF itself for a text signature.
    std::string data_path = scratch.write("data", std::string_view(text).substr(0, text.size() - 1));
    std::string sig_path = scratch.write("signature.asc", signature);
    return verify_files(sig_path, data_path, std::move(text), anchors, name, verifier, scratch);
}

Verified verify_detached(std::string_view release, std::string_view signature, const TrustAnchors& anchors,
                         std::string_view name, const Verifier& verifier, const std::string& scratch_dir) {
    // An empty signature file, or one with no signature data at all, is a
    // broken one, not a missing one (a captive portal's answer, say): apt's
    // gpgv method says NODATA.
    if (trim(signature).empty() || !detail::holds_signature_data(signature))
        throw VerifyError(VerifyFailure::Malformed,
                          "OpenPGP signature verification failed: " + std::string(name) +
                              ": Signed file isn't valid, got 'NODATA' (does the network require authentication?)");
    std::string problem = detail::check_detached_signature(signature);
    if (!problem.empty())
        throw VerifyError(VerifyFailure::Malformed,
                          "OpenPGP signature verification failed: " + std::string(name) + ": " + problem);
    Scratch scratch(scratch_dir);
    std::string data_path = scratch.write("data", release);
    std::string sig_path = scratch.write("signature", signature);
    return verify_files(sig_path, data_path, std::string(release), anchors, name, verifier, scratch);
}

}  // namespace aptus::acquire
