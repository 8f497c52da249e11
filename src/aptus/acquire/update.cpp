// The update, in three rounds of transfers: every repository's InRelease
// at once; Release + Release.gpg for those without one; then every index
// file of every repository that verified. A repository's files are moved
// into the lists dir only when all of them arrived and matched, so a
// failure anywhere leaves that repository's previous lists as they were.
#include "aptus/acquire/update.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <map>
#include <optional>
#include <set>

#include "aptus/acquire/lists_store.hpp"
#include "aptus/acquire/release_check.hpp"
#include "aptus/acquire/verify.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"
#include "update_plan.hpp"

namespace aptus::acquire {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kNoReleaseNotice1 =
    "Updating from such a repository can't be done securely, and is therefore disabled by default.";
constexpr const char* kNoReleaseNotice2 =
    "See apt-secure(8) manpage for repository creation and user configuration details.";

std::optional<std::time_t> mtime_of(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return st.st_mtime;
}

// The item lines, numbered in the order they are printed; a request keeps
// its number, so a file that arrived and then failed its check is "Err"
// under the number of its "Get", as apt reports it.
class Lines {
public:
    explicit Lines(const UpdateObserver& observer) : observer_(observer) {}
    unsigned emit(UpdateLine::Kind kind, const std::string& description, uint64_t size = 0,
                  std::vector<std::string> details = {}, unsigned number = 0) {
        UpdateLine line{kind, number ? number : ++last_, description, size, std::move(details)};
        if (observer_.line) observer_.line(line);
        return line.number;
    }

private:
    const UpdateObserver& observer_;
    unsigned last_ = 0;
};

std::vector<std::string> failure_details(const FetchResult& r) {
    std::string line = r.error;
    if (!r.peer.empty()) line += " " + r.peer;
    return {line};
}

std::string failed_to_fetch(const std::string& uri, const FetchResult& r) {
    std::string text = "Failed to fetch " + uri + "  " + r.error;
    if (!r.peer.empty()) text += " " + r.peer;
    return text;
}

// Debian's Releases say "No-Support-for-Architecture-all: Packages": the
// arch-all packages are in every architecture's Packages file, and apt then
// does not ask for binary-all at all.
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

UpdateMessage::Level level_of(CheckResult::Level l) {
    switch (l) {
        case CheckResult::Level::Error: return UpdateMessage::Error;
        case CheckResult::Level::Warning: return UpdateMessage::Warning;
        default: return UpdateMessage::Notice;
    }
}

// One (URI, suite) and what happened to it so far.
struct Repo {
    enum class Kind : uint8_t { InRelease, Release };
    const sources::ReleaseFiles* files = nullptr;
    const sources::SourceEntry* entry = nullptr;
    std::string name;  // "http://host/debian bookworm": apt's way of naming it
    std::vector<const sources::IndexTarget*> targets;
    std::optional<deb::ReleaseFile> stored;  // what the lists dir holds now
    std::string stored_path;
    bool stored_signed = false;
    bool stored_lacks_all = false;
    bool lacks_all = false;  // of the fresh Release
    Kind kind = Kind::InRelease;
    bool failed = false;
    bool unchanged = false;  // the Release file was not modified (304)
    bool verified = false;
    bool signed_release = false;  // Release came with a Release.gpg
    unsigned release_line = 0;
    std::vector<std::string> release_partial;  // InRelease, or Release [+ Release.gpg], in partial/
    std::optional<std::time_t> last_modified;
    deb::ReleaseFile fresh;
    std::vector<ListsMove> index_moves;
};

class Updater {
public:
    Updater(const config::Config& config, Diagnostics& diags, const UpdateObserver& observer)
        : config_(config), diags_(diags), observer_(observer), lines_(observer) {}

    UpdateResult run() {
        auto start = Clock::now();
        lists_ = config_.find_dir("Dir::State::lists");
        ensure_partial_dir(lists_);
        ListsLock lock(lists_);
        entries_ = sources::read_sources(config_, diags_);
        targets_ = sources::index_targets(entries_, config_, diags_);
        releases_ = sources::release_files(entries_, config_);
        options_ = fetch_options(config_);
        make_repos();

        fetch_inrelease();
        fetch_release_fallback();
        for (Repo& repo : repos_)
            if (!repo.failed) check_release(repo);
        fetch_indices();
        commit();

        result_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        result_.repositories = unsigned(repos_.size());
        for (const Repo& repo : repos_) result_.repositories_failed += repo.failed;
        if (fetch_failed_hard_ || fetch_failed_soft_)
            add(fetch_failed_hard_ ? UpdateMessage::Error : UpdateMessage::Warning,
                "Some index files failed to download. They have been ignored, or old ones used instead.");
        return std::move(result_);
    }

private:
    const config::Config& config_;
    Diagnostics& diags_;
    const UpdateObserver& observer_;
    Lines lines_;
    std::string lists_;
    std::vector<sources::SourceEntry> entries_;
    std::vector<sources::IndexTarget> targets_;
    std::vector<sources::ReleaseFiles> releases_;
    FetchOptions options_;
    std::vector<Repo> repos_;
    UpdateResult result_;
    bool fetch_failed_hard_ = false, fetch_failed_soft_ = false;

    void add(UpdateMessage::Level level, std::string text) {
        if (level == UpdateMessage::Error) result_.failed = true;
        result_.messages.push_back({level, std::move(text)});
    }

    void make_repos() {
        for (const sources::ReleaseFiles& rf : releases_) {
            Repo repo;
            repo.files = &rf;
            for (const auto& e : entries_)
                if (e.enabled && e.location.apt_name() == rf.sources_entry) {
                    repo.entry = &e;
                    break;
                }
            if (!repo.entry)
                for (const auto& e : entries_)
                    if (e.enabled && e.suite == rf.suite) {
                        repo.entry = &e;  // the same (URI, suite) under another name; never expected
                        break;
                    }
            if (!repo.entry) throw Error("no source entry for " + rf.base_uri);
            std::string uri = rf.repo_uri;
            if (!uri.empty() && uri.back() == '/') uri.pop_back();
            repo.name = uri + " " + rf.suite;
            for (const auto& t : targets_)
                if (t.option("Base-URI") == rf.base_uri) repo.targets.push_back(&t);
            for (const std::string& path : {rf.inrelease_file, rf.release_file}) {
                if (!path_exists(path)) continue;
                try {
                    repo.stored = deb::read_release_file(path);
                    std::string raw = read_file(path);
                    repo.stored_lacks_all = lacks_arch_all(
                        path == rf.inrelease_file ? deb::clearsigned_text(raw, path) : raw);
                    repo.stored_path = path;
                    repo.stored_signed = path == rf.inrelease_file || path_exists(rf.release_gpg_file);
                } catch (const Error&) {
                    // An unreadable stored Release is as good as none: fetch afresh.
                }
                break;
            }
            repos_.push_back(std::move(repo));
        }
    }

    std::vector<FetchResult> run_fetch(const std::vector<FetchRequest>& requests,
                                       const std::function<void(size_t, const FetchResult&)>& finished) {
        auto callback = [&](const FetchEvent& ev) {
            if (ev.kind == FetchEvent::Finished) finished(ev.index, *ev.result);
            if (observer_.progress) observer_.progress(ev);
        };
        auto results = fetch(requests, options_, callback);
        for (const FetchResult& r : results)
            if (r.status == FetchStatus::Ok) result_.fetched_bytes += r.bytes;
        return results;
    }

    uint64_t max_release_size() const {
        return uint64_t(std::max(1L, config_.find_int("Acquire::MaxReleaseFileSize", 10 * 1000 * 1000)));
    }

    void fetch_inrelease() {
        std::vector<FetchRequest> requests;
        std::vector<Repo*> owner;
        for (Repo& repo : repos_) {
            FetchRequest r;
            r.uri = repo.files->inrelease_uri;
            r.destination = partial_path(lists_, repo.files->inrelease_file);
            r.max_size = max_release_size();
            if (repo.stored_path == repo.files->inrelease_file) r.if_modified_since = mtime_of(repo.stored_path);
            requests.push_back(std::move(r));
            owner.push_back(&repo);
        }
        auto results = run_fetch(requests, [&](size_t i, const FetchResult& r) {
            Repo& repo = *owner[i];
            std::string desc = repo.name + " InRelease";
            if (r.status == FetchStatus::Ok) repo.release_line = lines_.emit(UpdateLine::Get, desc, r.bytes);
            else if (r.status == FetchStatus::NotModified) repo.release_line = lines_.emit(UpdateLine::Hit, desc);
            else if (r.not_found) lines_.emit(UpdateLine::Ign, desc);
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
            } else if (r.not_found) {
                repo.kind = Repo::Kind::Release;  // try Release + Release.gpg next
            } else {
                fail(repo, failed_to_fetch(requests[i].uri, r), r.transient);
            }
        }
    }

    void use_stored(Repo& repo) {
        try {
            repo.fresh = *repo.stored;
            repo.lacks_all = repo.stored_lacks_all;
        } catch (const std::bad_optional_access&) {
            fail(repo, "The stored Release file of '" + repo.name + "' disappeared");
        }
    }

    void fetch_release_fallback() {
        std::vector<FetchRequest> requests;
        std::vector<Repo*> owner;
        for (Repo& repo : repos_) {
            if (repo.failed || repo.kind != Repo::Kind::Release) continue;
            FetchRequest rel;
            rel.uri = repo.files->release_uri;
            rel.destination = partial_path(lists_, repo.files->release_file);
            rel.max_size = max_release_size();
            if (repo.stored_path == repo.files->release_file) rel.if_modified_since = mtime_of(repo.stored_path);
            FetchRequest gpg;
            gpg.uri = repo.files->release_gpg_uri;
            gpg.destination = partial_path(lists_, repo.files->release_gpg_file);
            gpg.max_size = max_release_size();
            requests.push_back(std::move(rel));
            owner.push_back(&repo);
            requests.push_back(std::move(gpg));
            owner.push_back(&repo);
        }
        if (requests.empty()) return;
        auto results = run_fetch(requests, [&](size_t i, const FetchResult& r) {
            Repo& repo = *owner[i];
            bool is_gpg = i % 2 == 1;
            std::string desc = repo.name + (is_gpg ? " Release.gpg" : " Release");
            if (r.status == FetchStatus::Ok) {
                unsigned n = lines_.emit(UpdateLine::Get, desc, r.bytes);
                if (!is_gpg) repo.release_line = n;
            } else if (r.status == FetchStatus::NotModified) {
                unsigned n = lines_.emit(UpdateLine::Hit, desc);
                if (!is_gpg) repo.release_line = n;
            } else if (is_gpg && r.not_found) {
                lines_.emit(UpdateLine::Ign, desc);
            } else {
                lines_.emit(UpdateLine::Err, desc, 0, failure_details(r));
            }
        });
        for (size_t i = 0; i < results.size(); i += 2) {
            Repo& repo = *owner[i];
            const FetchResult& rel = results[i];
            const FetchResult& gpg = results[i + 1];
            if (rel.status == FetchStatus::Failed) {
                if (rel.not_found && repo.stored) {
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
                verify_text(repo, name, [&](const TrustAnchors& anchors, const Verifier& verifier) {
                    return verify_detached(text, read_file(requests[i + 1].destination), anchors, name, verifier,
                                           partial_dir());
                }, text);
            } else {
                accept_unsigned(repo, name, text, std::nullopt);
            }
        }
    }

    std::string partial_dir() const { return lists_ + "partial"; }

    void verify_inrelease(Repo& repo) {
        std::string name = repo.name + " InRelease";
        std::string content;
        try {
            content = read_file(repo.release_partial.front());
        } catch (const Error& e) {
            fail(repo, e.what());
            return;
        }
        verify_text(repo, name, [&](const TrustAnchors& anchors, const Verifier& verifier) {
            return verify_clearsigned(content, anchors, name, verifier, partial_dir());
        }, content);
    }

    // Runs the verifier; on a signature failure the settings decide (trusted=yes
    // and allow-insecure take the text anyway, as apt does).
    template <typename Verify>
    void verify_text(Repo& repo, const std::string& name, Verify verify, const std::string& raw) {
        try {
            TrustAnchors anchors = trust_anchors(*repo.entry, config_);
            Verifier verifier = find_verifier(config_);
            Verified v = verify(anchors, verifier);
            parse_fresh(repo, v.text, name);
        } catch (const VerifyError& e) {
            accept_unsigned(repo, name, raw, std::string(e.what()));
        } catch (const Error& e) {
            if (repo.release_line) lines_.emit(UpdateLine::Err, name, 0, {e.what()}, repo.release_line);
            fail(repo, e.what());
        }
    }

    void accept_unsigned(Repo& repo, const std::string& name, const std::string& raw,
                         const std::optional<std::string>& why) {
        ReleaseCheckSettings settings = release_check_settings(*repo.entry, config_);
        CheckResult c = check_unsigned(settings, name, repo.stored && repo.stored_signed);
        if (why) {
            // The verifier's message is APT 3.0's warning already
            // ("OpenPGP signature verification failed: <name>: <reason>");
            // the Err line shows only the reason, as apt's does.
            const std::string prefix = "OpenPGP signature verification failed: " + name + ": ";
            const bool apt3 = why->starts_with(prefix);
            std::string reason = apt3 ? why->substr(prefix.size()) : *why;
            if (repo.release_line) lines_.emit(UpdateLine::Err, name, 0, {reason}, repo.release_line);
            add(UpdateMessage::Warning, apt3 ? *why : "GPG error: " + name + ": " + *why);
        }
        if (c.error()) {
            fail(repo, c.message);
            return;
        }
        if (!c.ok()) add(level_of(c.level), c.message);
        std::string text = raw;
        try {
            // An InRelease whose signature did not verify still has its text inside the armour.
            if (raw.starts_with("-----BEGIN PGP SIGNED MESSAGE-----")) text = deb::clearsigned_text(raw, name);
            parse_fresh(repo, text, name);
        } catch (const Error& e) {
            fail(repo, e.what());
        }
    }

    void parse_fresh(Repo& repo, const std::string& text, const std::string& name) {
        repo.fresh = deb::parse_release(text, name);
        repo.lacks_all = lacks_arch_all(text);
        repo.verified = true;
    }

    // A transient failure (the network, a 5xx) is a warning, as apt has it:
    // the repository keeps its old lists, but the update does not fail.
    void fail(Repo& repo, std::string message, bool transient = false) {
        repo.failed = true;
        if (message.starts_with("Failed to fetch ")) (transient ? fetch_failed_soft_ : fetch_failed_hard_) = true;
        add(transient ? UpdateMessage::Warning : UpdateMessage::Error, std::move(message));
    }

    void check_release(Repo& repo) {
        const deb::ReleaseFile& fresh = repo.fresh;
        if (repo.lacks_all)
            std::erase_if(repo.targets, [](const sources::IndexTarget* t) {
                return t->option("Architecture") == "all" && t->option("Force-support-for-all") != "yes";
            });
        std::string name = repo.name + (repo.kind == Repo::Kind::InRelease ? " InRelease" : " Release");
        ReleaseCheckSettings settings = release_check_settings(*repo.entry, config_, fresh.label);
        int64_t now = int64_t(std::time(nullptr));
        std::vector<CheckResult> checks;
        checks.push_back(check_valid_until(fresh, settings, name, now));
        if (!repo.unchanged) {
            checks.push_back(check_date(fresh, settings, name, now));
            if (repo.stored) {
                checks.push_back(check_not_older(fresh, *repo.stored, name));
                for (auto& c : check_release_info_change(fresh, *repo.stored, settings, name)) checks.push_back(c);
            }
        }
        std::vector<RequestedTarget> requested;
        for (const auto* t : repo.targets)
            requested.push_back({t->meta_key, t->option("Component"), t->option("Architecture")});
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

    void fetch_indices() {
        std::vector<IndexPlan> plans;
        std::vector<Repo*> owner;
        for (Repo& repo : repos_) {
            if (repo.failed) continue;
            for (const sources::IndexTarget* t : repo.targets) {
                PlanOutcome out = plan_index(*t, repo.fresh, repo.stored ? &*repo.stored : nullptr, repo.unchanged,
                                             lists_, config_);
                if (!out.warning.empty()) add(UpdateMessage::Warning, out.warning);
                if (!out.plan) continue;
                plans.push_back(std::move(*out.plan));
                owner.push_back(&repo);
            }
        }
        std::vector<size_t> active(plans.size());
        for (size_t i = 0; i < active.size(); ++i) active[i] = i;
        // Each round tries every unfinished index its next way; what failed
        // goes on to its next compression or path, as apt does.
        while (!active.empty()) {
            std::vector<FetchRequest> requests;
            for (size_t i : active) requests.push_back(plans[i].ways[plans[i].next].request);
            auto results = run_fetch(requests, [&](size_t k, const FetchResult& r) {
                IndexPlan& p = plans[active[k]];
                if (r.status == FetchStatus::Ok) {
                    p.line = lines_.emit(UpdateLine::Get, p.target->description, r.bytes, {}, p.line);
                } else if (r.status == FetchStatus::Failed) {
                    std::vector<std::string> details = failure_details(r);
                    if (r.error == "Hash Sum mismatch") append_hash_details(p.ways[p.next].request, details);
                    p.line = lines_.emit(UpdateLine::Err, p.target->description, 0, details, p.line);
                }
            });
            std::vector<size_t> again;
            for (size_t k = 0; k < results.size(); ++k) {
                IndexPlan& p = plans[active[k]];
                Repo& repo = *owner[active[k]];
                const FetchResult& r = results[k];
                const IndexFetch& way = p.ways[p.next];
                if (r.status == FetchStatus::Ok) {
                    repo.index_moves.push_back({way.request.destination, way.final_path, way.replaces, r.last_modified});
                    continue;
                }
                if (r.status != FetchStatus::Failed) continue;
                if (p.next + 1 < p.ways.size()) {
                    ++p.next;
                    again.push_back(active[k]);
                    continue;
                }
                std::string text = failed_to_fetch(way.request.uri, r);
                if (r.error == "Hash Sum mismatch") {
                    std::vector<std::string> details;
                    append_hash_details(way.request, details);
                    for (const auto& d : details) text += "\n   " + d;
                }
                fail(repo, text, r.transient);
            }
            active = std::move(again);
        }
    }

    static void append_hash_details(const FetchRequest& r, std::vector<std::string>& details) {
        details.push_back("Hashes of expected file:");
        if (r.expected_size) details.push_back(" - Filesize:" + std::to_string(*r.expected_size) + " [weak]");
        details.push_back(" - " + std::string(hash_algo_name(r.hash)) + ":" + r.hash_hex);
    }

    void commit() {
        for (Repo& repo : repos_) {
            std::vector<ListsMove> moves = repo.index_moves;
            const auto& rf = *repo.files;
            if (!repo.unchanged) {
                if (repo.kind == Repo::Kind::InRelease && !repo.release_partial.empty()) {
                    moves.push_back({repo.release_partial[0], rf.inrelease_file,
                                     {rf.release_file, rf.release_gpg_file}, repo.last_modified});
                } else if (repo.kind == Repo::Kind::Release && !repo.release_partial.empty()) {
                    std::vector<std::string> replaces = {rf.inrelease_file};
                    if (!repo.signed_release) replaces.push_back(rf.release_gpg_file);
                    moves.push_back({repo.release_partial[0], rf.release_file, replaces, repo.last_modified});
                    if (repo.signed_release && repo.release_partial.size() > 1)
                        moves.push_back({repo.release_partial[1], rf.release_gpg_file, {}, std::nullopt});
                }
            } else {
                for (const auto& p : repo.release_partial) ::unlink(p.c_str());
            }
            if (repo.failed) {
                discard_partial(moves);
                for (const auto& p : repo.release_partial) ::unlink(p.c_str());
                continue;
            }
            try {
                commit_moves(lists_, moves);
            } catch (const Error& e) {
                fail(repo, e.what());
            }
        }
        for (const Repo& repo : repos_)
            if (repo.failed) return;
        // Only after a complete success: a failed update keeps even the lists
        // of sources that went away, so nothing is lost to a half-run.
        std::set<std::string> keep;
        for (const auto& rf : releases_) keep.insert({rf.inrelease_file, rf.release_file, rf.release_gpg_file});
        for (const auto& t : targets_) keep.insert(t.filename);
        remove_unlisted(lists_, keep);
    }
};

}  // namespace

UpdateResult update_lists(const config::Config& config, Diagnostics& diags, const UpdateObserver& observer) {
    Updater updater(config, diags, observer);
    return updater.run();
}

}  // namespace aptus::acquire
