// A fresh Release file of one repository: its signature verified (sqv or
// gpgv against the entry's trust anchors), or accepted unsigned where the
// settings allow it, then parsed and checked (Valid-Until, Date, replay,
// changed release info, the requested components and architectures).
#include <cctype>
#include <ctime>

#include "aptus/acquire/verify.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "updater.hpp"

namespace aptus::acquire {
namespace {

// The verifier's reason in APT 3.0's "OpenPGP signature verification
// failed: <name>: <reason>", which apt's Err lines show alone; any other
// message whole.
std::string failure_reason(const std::string& name, const std::string& message) {
    const std::string prefix = "OpenPGP signature verification failed: " + name + ": ";
    return message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

}  // namespace

bool lacks_arch_all(std::string_view text) {
    constexpr std::string_view key = "no-support-for-architecture-all:";
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (line.empty()) break;  // the end of the Release paragraph
        if (line.size() > key.size() && iequals(line.substr(0, key.size()), key))
            return line.find("Packages") != std::string_view::npos;
        pos = end + 1;
    }
    return false;
}

void Updater::verify_inrelease(Repo& repo) {
    std::string name = repo.name + " InRelease";
    std::string content;
    try {
        content = read_file(repo.release_partial.front());
    } catch (const Error& e) {
        fail(repo, e.what());
        return;
    }
    verify_text(repo, name, [&](const TrustAnchors& anchors, const Verifier& verifier) {
        return verify_clearsigned(content, anchors, name, verifier, partial_dir(), repo.release_partial.front());
    }, content);
}

// An InRelease the server says is unchanged is verified again, as apt
// verifies it on every update: a key removed, expired or revoked since, or
// a policy that refuses it now, is said (and the stored lists stay, as for
// any bad signature over lists there are), and so are the verifier's
// warnings. trusted=yes needs no signature.
void Updater::reverify_stored_inrelease(Repo& repo) {
    if (repo.failed || !repo.stored || repo.stored_path != repo.files->inrelease_file) return;
    if (release_check_settings(*repo.entry, config_).trusted) return;
    std::string name = repo.name + " InRelease";
    std::string content;
    try {
        content = read_file(repo.stored_path);
    } catch (const Error& e) {
        fail(repo, e.what());
        return;
    }
    verify_text(repo, name, [&](const TrustAnchors& anchors, const Verifier& verifier) {
        return verify_clearsigned(content, anchors, name, verifier, partial_dir(), repo.stored_path);
    }, content);
}

void Updater::verify_release(Repo& repo, const std::string& name, const std::string& text,
                             const std::string& signature_path) {
    verify_text(repo, name, [&](const TrustAnchors& anchors, const Verifier& verifier) {
        return verify_detached(text, read_file(signature_path), anchors, name, verifier, partial_dir());
    }, text);
}

// The keys the stored Release's Signed-By field allows to sign the next
// Release: only from a stored Release that verified (signed lists) and
// whose Valid-Until has not passed. A word that is no fingerprint matches
// nothing (the field still narrows).
std::vector<KeyFingerprint> Updater::stored_signers(const Repo& repo) const {
    std::vector<KeyFingerprint> out;
    if (!repo.stored || !repo.stored_signed || repo.stored->signed_by.empty()) return out;
    if (!repo.stored->valid_until.empty()) {
        auto until = parse_release_date(repo.stored->valid_until);
        if (!until || *until <= int64_t(std::time(nullptr))) return out;
    }
    std::string word;
    auto flush = [&] {
        if (word.empty()) return;
        KeyFingerprint f;
        f.exact = word.back() == '!';
        if (f.exact) word.pop_back();
        for (char& c : word) c = char(std::toupper(static_cast<unsigned char>(c)));
        const bool hex = (word.size() == 40 || word.size() == 64) &&
                         word.find_first_not_of("0123456789ABCDEF") == std::string::npos;
        f.hex = hex ? word : "(not a fingerprint: " + word + ")";
        out.push_back(f);
        word.clear();
    };
    for (char c : repo.stored->signed_by) {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c)))
            flush();
        else
            word += c;
    }
    flush();
    return out;
}

// Runs the verifier; on a signature failure the settings decide (trusted=yes
// and allow-insecure take the text anyway, as apt does).
template <typename Verify>
void Updater::verify_text(Repo& repo, const std::string& name, Verify verify, const std::string& raw) {
    try {
        TrustAnchors anchors = trust_anchors(*repo.entry, config_);
        // apt's rule: a stored (verified, still valid) Release that names
        // its Signed-By keys allows only those to sign the next one.
        const std::vector<KeyFingerprint> pinned = stored_signers(repo);
        const bool narrow_after = !pinned.empty() && !anchors.fingerprints.empty();
        if (!pinned.empty() && anchors.fingerprints.empty()) anchors.fingerprints = pinned;
        Verifier verifier = find_verifier(config_);
        Verified v = verify(anchors, verifier);
        if (narrow_after) {
            // Both the entry and the stored Release name keys: a signer must
            // satisfy both (the verifier checked the entry's).
            bool ok = false;
            for (const std::string& signer : v.signers)
                for (const KeyFingerprint& f : pinned) ok = ok || signer == f.hex;
            if (!ok) {
                std::string list;
                for (const KeyFingerprint& f : pinned) list += (list.empty() ? "" : ", ") + f.hex + (f.exact ? "!" : "");
                throw VerifyError(VerifyFailure::NotAllowed,
                                  "OpenPGP signature verification failed: " + name + ": " +
                                      (pinned.size() > 1 ? "No good signature from required signers: "
                                                         : "No good signature from required signer: ") + list);
            }
        }
        // What the verifier said on the way (a keyring ignored, the legacy
        // keyring used, a weak digest), each as apt's method warns: after
        // the URI of the signed file.
        const std::string& signed_uri =
            repo.kind == Repo::Kind::InRelease ? repo.files->inrelease_uri : repo.files->release_gpg_uri;
        for (const std::string& w : v.warnings) add(UpdateMessage::Warning, signed_uri + ": " + w);
        parse_fresh(repo, v.text, name);
    } catch (const VerifyError& e) {
        // apt splits a clear-signed file in its own process, and the error
        // it raises there is still pending when the download ends: it
        // prints no "Fetched" line then (CVE-2013-1051's test).
        if (e.failure() == VerifyFailure::Unsplittable) result_.error_pending = true;
        if (e.failure() == VerifyFailure::Unsigned && repo.kind == Repo::Kind::InRelease) {
            // An InRelease that is no clearsigned message at all (a Release
            // under its name, a portal's page): apt's gpgv method cannot
            // split it, and says so; what is left is an unsigned repository.
            const std::string reason(kNoSplitReason);
            if (repo.release_line) lines_.emit(UpdateLine::Err, name, 0, {reason}, repo.release_line);
            add(UpdateMessage::Error, "Failed to fetch " + repo.files->inrelease_uri + "  " + reason);
            repo.unverified_signature = true;  // stored, if at all, as a Release: nothing vouches for it
            accept_unsigned(repo, name, raw, std::nullopt);
        } else if (e.failure() == VerifyFailure::Unsigned || !stop_on_bad_signature(repo, name, e.what())) {
            accept_unsigned(repo, name, raw, std::string(e.what()));
        }
    } catch (const Error& e) {
        if (repo.release_line) lines_.emit(UpdateLine::Err, name, 0, {e.what()}, repo.release_line);
        fail(repo, e.what());
    }
}

// apt's rule for a signature that is there and does not verify: with lists
// from an earlier update the repository keeps them (a warning, as for a
// mirror that is down); without, a signature file that holds no signature
// at all (NODATA) is an error. Otherwise (false) the repository is taken
// as unsigned, which its settings may allow.
bool Updater::stop_on_bad_signature(Repo& repo, const std::string& name, const std::string& message) {
    // trusted=yes takes the Release whatever its signature says; the checks
    // of its content (Date, Valid-Until) still apply.
    if (release_check_settings(*repo.entry, config_).trusted) return false;
    const std::string reason = failure_reason(name, message);
    const bool kept = repo.stored.has_value();
    if (!kept && reason.find("NODATA") == std::string::npos) return false;
    if (repo.release_line) lines_.emit(UpdateLine::Err, name, 0, {reason}, repo.release_line);
    if (!kept) {
        fail(repo, message);
        return true;
    }
    add(UpdateMessage::Warning,
        "An error occurred during the signature verification. The repository is not updated and the previous "
        "index files will be used. " + message);
    const std::string& uri = repo.kind == Repo::Kind::InRelease ? repo.files->inrelease_uri : repo.files->release_gpg_uri;
    fail(repo, "Failed to fetch " + uri + "  " + reason, true);
    return true;
}

void Updater::accept_unsigned(Repo& repo, const std::string& name, const std::string& raw,
                     const std::optional<std::string>& why) {
    ReleaseCheckSettings settings = release_check_settings(*repo.entry, config_);
    CheckResult c = check_unsigned(settings, name, repo.stored && repo.stored_signed);
    if (why) {
        repo.unverified_signature = true;
        // The verifier's message is APT 3.0's warning already
        // ("OpenPGP signature verification failed: <name>: <reason>");
        // the Err line shows only the reason, as apt's does.
        const std::string reason = failure_reason(name, *why);
        const bool apt3 = reason.size() != why->size();
        if (repo.release_line) lines_.emit(UpdateLine::Err, name, 0, {reason}, repo.release_line);
        add(UpdateMessage::Warning, apt3 ? *why : "GPG error: " + name + ": " + *why);
    }
    if (c.error())
        fail(repo, c.message);
    else if (!c.ok())
        add(level_of(c.level), c.message);
    for (const std::string& n : c.notices) add(UpdateMessage::Notice, n);
    if (c.error()) return;
    std::string text = raw;
    try {
        // An InRelease whose signature did not verify still has its text inside the armour.
        if (deb::starts_clearsigned(raw)) text = deb::clearsigned_text(raw, name);
        parse_fresh(repo, text, name);
    } catch (const Error& e) {
        fail(repo, e.what());
    }
}

void Updater::parse_fresh(Repo& repo, const std::string& text, const std::string& name) {
    repo.fresh = deb::parse_release(text, name);
    repo.lacks_all = lacks_arch_all(text);
    repo.verified = true;
}

void Updater::check_release(Repo& repo) {
    const deb::ReleaseFile& fresh = repo.fresh;
    if (repo.lacks_all)
        std::erase_if(repo.targets, [](const sources::IndexTarget* t) {
            return t->option("Architecture") == "all" && t->option("Force-support-for-all") != "yes";
        });
    std::string name = repo.name + (repo.kind == Repo::Kind::InRelease ? " InRelease" : " Release");
    // A Release with no SHA256 or SHA512 at all vouches for nothing: apt
    // refuses the repository (its lists stay) unless weak ones are allowed,
    // and then takes it as an unauthenticated one (its signature is not
    // kept, so its packages count as unauthenticated, as apt counts them).
    ReleaseCheckSettings settings = release_check_settings(*repo.entry, config_, fresh.label);
    if (fresh.sha256.empty() && fresh.sha512.empty()) {
        const std::string file = partial_path(
            lists_, repo.kind == Repo::Kind::InRelease ? repo.files->inrelease_file : repo.files->release_file);
        const bool any = !fresh.md5.empty() || !fresh.sha1.empty();
        add(UpdateMessage::Warning, "No Hash entry in Release file " + file +
                                        (any ? " which is considered strong enough for security purposes" : ""));
        const std::string weak = "The repository '" + name + "' provides only weak security information.";
        if (!settings.allow_weak) {
            fail(repo, weak);
            add(UpdateMessage::Notice,
                "Updating from such a repository can't be done securely, and is therefore disabled by default.");
            add(UpdateMessage::Notice,
                "See apt-secure(8) manpage for repository creation and user configuration details.");
            return;
        }
        add(UpdateMessage::Warning, weak);
        add(UpdateMessage::Notice,
            "Data from such a repository can't be authenticated and is therefore potentially dangerous to use.");
        add(UpdateMessage::Notice, "See apt-secure(8) manpage for repository creation and user configuration details.");
        repo.unverified_signature = true;
        // Not a hash at all: as apt, its indices are fetched as from a
        // repository without a Release (bounded by the configured sizes).
        repo.hashless = !any;
    }
    // An older Release than the stored one is what an out-of-sync mirror
    // serves: apt keeps the stored lists without a word (Valid-Until is what
    // catches a replay meant to freeze updates), as if nothing had changed.
    // aptus warns that the mirror is behind; apt's stand-ins leave it out.
    if (!repo.unchanged && repo.stored) {
        CheckResult older = check_not_older(fresh, *repo.stored, name);
        if (!older.ok()) {
            result_.messages.push_back({UpdateMessage::Warning, older.message, /*beyond_apt=*/true});
            repo.unchanged = true;
            use_stored(repo);
            return;
        }
    }
    int64_t now = int64_t(std::time(nullptr));
    std::vector<CheckResult> checks;
    checks.push_back(check_valid_until(fresh, settings, name, now));
    // apt reads the Date of an unchanged Release too: a missing one is
    // warned of on every update.
    checks.push_back(check_date(fresh, settings, name, now));
    if (!repo.unchanged) {
        checks.push_back(check_distribution(fresh, repo.entry->suite, name));
        if (repo.stored) {
            for (auto& c : check_release_info_change(fresh, *repo.stored, settings, name)) checks.push_back(c);
        }
    }
    std::vector<RequestedTarget> requested;
    for (const auto* t : repo.targets)
        requested.push_back({t->meta_key, t->option("Component"), t->option("Architecture"), t->optional});
    // A Release without a single hash lists no file to miss.
    if (!repo.hashless)
        for (auto& c : check_targets(fresh, requested, name)) checks.push_back(c);
    for (const CheckResult& c : checks) {
        if (c.ok()) continue;
        if (c.error()) {
            if (repo.release_line && !repo.failed)
                lines_.emit(UpdateLine::Err, name, 0, {c.message}, repo.release_line);
            fail(repo, c.message);
        } else {
            add(level_of(c.level), c.message);
        }
    }
}

}  // namespace aptus::acquire
