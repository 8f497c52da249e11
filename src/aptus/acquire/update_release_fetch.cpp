// The first rounds of an update: every repository's InRelease at once (a
// 304 keeps the stored one), then Release + Release.gpg at once for those
// whose server has no InRelease (a 404, or a redirect loop, as apt falls
// back then). What arrives is handed to the verifier
// (update_release_verify.cpp); what fails is the repository's failure.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>

#include "aptus/acquire/release_check.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "updater.hpp"

namespace aptus::acquire {
namespace {

constexpr const char* kNoReleaseNotice1 =
    "Updating from such a repository can't be done securely, and is therefore disabled by default.";
constexpr const char* kNoReleaseNotice2 =
    "See apt-secure(8) manpage for repository creation and user configuration details.";

std::optional<std::time_t> mtime_of(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return st.st_mtime;
}

// More bytes than Acquire::MaxReleaseFileSize allows.
bool too_big(const FetchResult& r) {
    return r.status == FetchStatus::Failed && !r.transient && r.error.starts_with("File has unexpected size");
}

}  // namespace

uint64_t Updater::max_release_size() const {
    return uint64_t(std::max(1L, config_.find_int("Acquire::MaxReleaseFileSize", 10 * 1000 * 1000)));
}

void Updater::fetch_inrelease() {
    std::vector<FetchRequest> requests;
    std::vector<Repo*> owner;
    for (Repo& repo : repos_) {
        FetchRequest r;
        r.uri = repo.files->inrelease_fetch_uri;
        r.destination = partial_path(lists_, repo.files->inrelease_file);
        r.keep_failed = true;
        r.max_size = max_release_size();
        if (repo.stored_path == repo.files->inrelease_file) {
            r.if_modified_since = mtime_of(repo.stored_path);
            r.if_same_as = repo.stored_path;
        }
        requests.push_back(std::move(r));
        owner.push_back(&repo);
    }
    auto results = run_fetch(requests, [&](size_t i, const FetchResult& r) {
        Repo& repo = *owner[i];
        std::string desc = repo.name + " InRelease";
        if (r.status == FetchStatus::Ok) repo.release_line = lines_.emit(UpdateLine::Get, desc, r.bytes);
        else if (r.status == FetchStatus::NotModified) repo.release_line = lines_.emit(UpdateLine::Hit, desc);
        else if ((r.not_found || redirect_loop(r)) && repo.files->release_fallback)
            lines_.emit(UpdateLine::Ign, desc, 0, failure_details(r));
        else lines_.emit(UpdateLine::Err, desc, 0, failure_details(r));
    });
    for (size_t i = 0; i < results.size(); ++i) {
        Repo& repo = *owner[i];
        const FetchResult& r = results[i];
        if (r.status == FetchStatus::Ok) {
            repo.kind = Repo::Kind::InRelease;
            repo.release_partial = {requests[i].destination};
            repo.last_modified = r.last_modified;
            verify_inrelease(repo);
        } else if (r.status == FetchStatus::NotModified) {
            repo.kind = Repo::Kind::InRelease;
            repo.unchanged = true;
            use_stored(repo);
            if (repo.stored_signed) reverify_stored_inrelease(repo);
        } else if ((r.not_found || redirect_loop(r) || too_big(r)) && repo.files->release_fallback) {
            // Try Release + Release.gpg next. apt does so for every failure
            // that is neither transient nor an HTTP error other than 404:
            // a redirect loop is one (a plain "Ign" line, no warning), an
            // InRelease larger than Acquire::MaxReleaseFileSize another
            // (its Err line says so; the Release files are bounded too).
            repo.kind = Repo::Kind::Release;
        } else if (!r.transient && !r.error.empty() && std::isdigit(static_cast<unsigned char>(r.error[0]))) {
            // The server refused the InRelease (a 403, or a 404 where there
            // is no fallback): apt ends the repository there and its
            // "Some index files failed" summary does not count it. apt
            // names the InRelease by its usual URI whatever path it came from.
            repo.failed = true;
            add(UpdateMessage::Error, failed_to_fetch(repo.files->inrelease_uri, r));
        } else {
            fail(repo, failed_to_fetch(repo.files->inrelease_uri, r), r.transient);
        }
    }
}

void Updater::use_stored(Repo& repo) {
    try {
        repo.fresh = *repo.stored;
        repo.lacks_all = repo.stored_lacks_all;
    } catch (const std::bad_optional_access&) {
        fail(repo, "The stored Release file of '" + repo.name + "' disappeared");
    }
}

void Updater::fetch_release_fallback() {
    std::vector<FetchRequest> requests;
    std::vector<Repo*> owner;
    for (Repo& repo : repos_) {
        if (repo.failed || repo.kind != Repo::Kind::Release) continue;
        FetchRequest rel;
        rel.uri = repo.files->release_uri;
        rel.destination = partial_path(lists_, repo.files->release_file);
        rel.max_size = max_release_size();
        rel.keep_failed = true;
        if (repo.stored_path == repo.files->release_file) {
            rel.if_modified_since = mtime_of(repo.stored_path);
            rel.if_same_as = repo.stored_path;
        }
        FetchRequest gpg;
        gpg.uri = repo.files->release_gpg_uri;
        gpg.destination = partial_path(lists_, repo.files->release_gpg_file);
        gpg.max_size = max_release_size();
        gpg.keep_failed = true;
        requests.push_back(std::move(rel));
        owner.push_back(&repo);
        requests.push_back(std::move(gpg));
        owner.push_back(&repo);
    }
    if (requests.empty()) return;
    // A repository without any Release is taken where the settings allow it
    // (trusted=yes, or insecure repositories allowed; over lists that had a
    // signed one only with the downgrade allowed too): apt's Release line
    // is an Ign then.
    auto without_release = [&](const Repo& repo, const FetchResult& r) {
        if (!r.not_found) return false;
        const ReleaseCheckSettings settings = release_check_settings(*repo.entry, config_);
        if (settings.trusted) return true;
        if (repo.stored && repo.stored_signed) return settings.allow_insecure && settings.allow_downgrade_to_insecure;
        return settings.allow_insecure;
    };
    auto results = run_fetch(requests, [&](size_t i, const FetchResult& r) {
        Repo& repo = *owner[i];
        bool is_gpg = i % 2 == 1;
        std::string desc = repo.name + (is_gpg ? " Release.gpg" : " Release");
        if (is_gpg && r.status != FetchStatus::Failed) {
            // Said after the Release's own line (below), once its answer is known.
        } else if (!is_gpg && r.status == FetchStatus::Failed && without_release(repo, r)) {
            lines_.emit(UpdateLine::Ign, desc, 0, failure_details(r));
        } else if (r.status == FetchStatus::Ok) {
            unsigned n = lines_.emit(UpdateLine::Get, desc, r.bytes);
            if (!is_gpg) repo.release_line = n;
        } else if (r.status == FetchStatus::NotModified) {
            unsigned n = lines_.emit(UpdateLine::Hit, desc);
            if (!is_gpg) repo.release_line = n;
        } else if (is_gpg && r.not_found) {
            // Said after the Release's own line, and not at all when there
            // is no Release (apt asks for the signature only then).
        } else {
            lines_.emit(UpdateLine::Err, desc, 0, failure_details(r));
        }
    });
    // A Release that arrived whole but is the stored one byte for byte (a
    // server that ignores If-Modified-Since) is unchanged, as apt holds it:
    // its Get line stands, the rest is as for a Hit.
    for (size_t i = 0; i < results.size(); i += 2) {
        if (results[i].status != FetchStatus::Ok || owner[i]->stored_path != owner[i]->files->release_file) continue;
        try {
            if (read_file(requests[i].destination) != read_file(owner[i]->stored_path)) continue;
        } catch (const Error&) {
            continue;
        }
        ::unlink(requests[i].destination.c_str());
        results[i].status = FetchStatus::NotModified;
    }
    // The signature's line comes after its Release's: none when the Release
    // was not modified (apt says nothing of the signature then, though it
    // counts it), an Ign with its reason when there is none.
    for (size_t i = 0; i < results.size(); i += 2) {
        const FetchResult& rel = results[i];
        const FetchResult& gpg = results[i + 1];
        const std::string desc = owner[i]->name + " Release.gpg";
        if (rel.status == FetchStatus::Failed) continue;
        if (gpg.status == FetchStatus::Failed && gpg.not_found)
            lines_.emit(UpdateLine::Ign, desc, 0, failure_details(gpg));
        else if (rel.status == FetchStatus::NotModified)
            lines_.skip();
        else if (gpg.status == FetchStatus::Ok)
            lines_.emit(UpdateLine::Get, desc, gpg.bytes);
        else if (gpg.status == FetchStatus::NotModified)
            lines_.emit(UpdateLine::Hit, desc);
    }
    for (size_t i = 0; i < results.size(); i += 2) {
        Repo& repo = *owner[i];
        const FetchResult& rel = results[i];
        const FetchResult& gpg = results[i + 1];
        if (rel.status == FetchStatus::Failed) {
            if (without_release(repo, rel)) {
                repo.no_release = true;
                if (!release_check_settings(*repo.entry, config_).trusted) {
                    add(UpdateMessage::Warning, "The repository '" + repo.name + " Release' " +
                                                    (repo.stored ? "no longer has" : "does not have") + " a Release file.");
                    add(UpdateMessage::Notice,
                        "Data from such a repository can't be authenticated and is therefore potentially dangerous to use.");
                    add(UpdateMessage::Notice, kNoReleaseNotice2);
                }
            } else if (rel.not_found && repo.stored) {
                fail(repo, "The repository '" + repo.name + " Release' no longer has a Release file.");
            } else if (rel.not_found) {
                fail(repo, "The repository '" + repo.name + " Release' does not have a Release file.");
                add(UpdateMessage::Notice, kNoReleaseNotice1);
                add(UpdateMessage::Notice, kNoReleaseNotice2);
            } else {
                fail(repo, failed_to_fetch(requests[i].uri, rel), rel.transient);
            }
            ::unlink(requests[i + 1].destination.c_str());
            continue;
        }
        repo.last_modified = rel.last_modified;
        if (gpg.status == FetchStatus::Failed && !gpg.not_found) {
            fail(repo, failed_to_fetch(requests[i + 1].uri, gpg), gpg.transient);
            ::unlink(requests[i].destination.c_str());
            continue;
        }
        std::string release_path =
            rel.status == FetchStatus::Ok ? requests[i].destination : repo.files->release_file;
        if (rel.status == FetchStatus::NotModified && repo.stored_path != repo.files->release_file) {
            fail(repo, "The stored Release file of '" + repo.name + "' disappeared");
            continue;
        }
        if (rel.status == FetchStatus::Ok) repo.release_partial.push_back(requests[i].destination);
        if (gpg.status == FetchStatus::Ok) repo.release_partial.push_back(requests[i + 1].destination);
        repo.signed_release = gpg.status == FetchStatus::Ok;
        repo.unchanged = rel.status == FetchStatus::NotModified;
        if (repo.unchanged && !gpg.not_found) {
            use_stored(repo);
            // As apt, and as for an unchanged InRelease: the Release is
            // verified again, against the Release.gpg just fetched.
            if (gpg.status == FetchStatus::Ok && repo.stored_signed &&
                !release_check_settings(*repo.entry, config_).trusted) {
                try {
                    verify_release(repo, repo.name + " Release", read_file(release_path), requests[i + 1].destination);
                } catch (const Error& e) {
                    fail(repo, e.what());
                }
            }
            continue;
        }
        std::string name = repo.name + " Release";
        std::string text;
        try {
            text = read_file(release_path);
        } catch (const Error& e) {
            fail(repo, e.what());
            continue;
        }
        if (gpg.status == FetchStatus::Ok) {
            verify_release(repo, name, text, requests[i + 1].destination);
        } else {
            accept_unsigned(repo, name, text, std::nullopt);
        }
    }
}

}  // namespace aptus::acquire
