// The update, in three rounds of transfers: every repository's InRelease
// at once; Release + Release.gpg for those without one; then every index
// file of every repository that verified. A repository's files are moved
// into the lists dir only when all of them arrived and matched, so a
// failure anywhere leaves that repository's previous lists as they were.
// This file holds the run and the repositories; each step has its own file
// (see updater.hpp).
#include "aptus/acquire/update.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"
#include "part_file.hpp"
#include "updater.hpp"

namespace aptus::acquire {

UpdateResult Updater::run() {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    lists_ = config_.find_dir("Dir::State::lists");
    create_apt_directory(config_.find_dir("Dir::State"), lists_);
    // As apt's update leaves /var/cache/apt made when /var/cache exists (a
    // fresh root), so the cache built next is kept. Read commands and clean
    // never make it: apt's clean leaves a removed Dir::Cache gone.
    create_apt_directory(config_.find_dir("Dir::Cache"), config_.find_dir("Dir::Cache"));
    options_ = fetch_options(config_);
    if (!options_.sandbox_warning.empty()) add(UpdateMessage::Warning, options_.sandbox_warning);
    // partial/ made first, as apt makes it before its lock (a lists dir
    // that cannot be entered is reported by it), but taken back from the
    // sandbox user (secure_partial_dir) and handed back only by the run
    // that holds the lock.
    const uid_t sandbox_uid = options_.sandbox ? options_.sandbox->uid : uid_t(-1);
    ensure_partial_dir(lists_, sandbox_uid, /*secure=*/false);
    ListsLock lock(lists_);
    ensure_partial_dir(lists_, sandbox_uid);
    // apt leaves lists/partial to its sandbox user when it is done, failed
    // or not; it is root's only while this run works in it. (Destroyed
    // before the lock: handed back while the lock is still held.)
    struct HandBack {
        std::string dir;
        uid_t uid;
        ~HandBack() { hand_back_partial_dir(dir, uid); }
    } hand_back{lists_ + "partial", sandbox_uid};
    // apt's directory for auxiliary downloads: made by every update, so a
    // lists directory looks the same whichever of the two made it.
    // (find_dir() ends the path with '/'.)
    if (::mkdir((lists_ + "auxfiles").c_str(), 0755) != 0 && errno != EEXIST)
        throw system_error("cannot create directory", lists_ + "auxfiles", errno);
    // What an earlier update set aside as failed goes: the files there are
    // this update's (apt does the same).
    remove_failed_files(lists_ + "partial/");
    // With a snapshot, the repository's own lists too: its Release says
    // where its snapshots are, and the lists without -S stay current.
    entries_ = sources::read_sources(config_, diags_, sources::SnapshotUse::AlongOriginal);
    targets_ = sources::index_targets(entries_, config_, diags_);
    releases_ = sources::release_files(entries_, config_);
    make_repos();

    fetch_inrelease();
    fetch_release_fallback();
    for (Repo& repo : repos_)
        if (!repo.failed && !repo.no_release) check_release(repo);
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

void Updater::add(UpdateMessage::Level level, std::string text) {
    if (level == UpdateMessage::Error) result_.failed = true;
    result_.messages.push_back({level, std::move(text)});
}

void Updater::make_repos() {
    for (const sources::ReleaseFiles& rf : releases_) {
        Repo repo;
        repo.files = &rf;
        for (const auto& e : entries_)
            // One deb822 stanza names several suites: same place, other suite.
            if (e.enabled && e.location.apt_name() == rf.sources_entry && e.suite == rf.suite) {
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
        // apt's MetaIndexInfo: a flat repository at the URI itself ("/")
        // has no suite word, so its lines read "URI  InRelease".
        repo.name = uri + " " + (rf.suite == "/" ? "" : rf.suite);
        for (const auto& t : targets_)
            if (t.option("Base-URI") == rf.base_uri) repo.targets.push_back(&t);
        for (const std::string& path : {rf.inrelease_file, rf.release_file}) {
            if (!path_exists(path)) continue;
            try {
                repo.stored = deb::read_release_file(path);
                std::string raw = read_file(path);
                // A clearsigned Release is an InRelease kept unverified (trusted=yes).
                repo.stored_lacks_all =
                    lacks_arch_all(deb::starts_clearsigned(raw) ? deb::clearsigned_text(raw, path) : raw);
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

std::vector<FetchResult> Updater::run_fetch(const std::vector<FetchRequest>& requests,
                                            const std::function<void(size_t, const FetchResult&)>& finished) {
    auto callback = [&](const FetchEvent& ev) {
        if (ev.kind == FetchEvent::Started && observer_.request) observer_.request(requests[ev.index]);
        if (ev.kind == FetchEvent::Finished && observer_.done) observer_.done(requests[ev.index], *ev.result);
        if (ev.kind == FetchEvent::Finished) finished(ev.index, *ev.result);
        if (observer_.progress) observer_.progress(ev);
    };
    // apt decides once, for the files of its first round (the Release
    // files), whether its file method runs as the sandbox user: a file that
    // user cannot read makes it read everything as root, and it says so
    // once (image builders meet it with a repository under /root). When the
    // first round was readable, a later file the sandbox user cannot read
    // fails as it fails for apt ("too deep to notice").
    std::vector<size_t> refused;
    if (options_.sandbox && !local_as_root_) {
        const SandboxUser& user = *options_.sandbox;
        const bool first_round = !local_decided_;
        for (size_t i = 0; i < requests.size(); ++i) {
            if (!is_local_uri(requests[i].uri)) continue;
            const std::string path = local_path(requests[i].uri);
            if (!path_exists(path)) continue;  // nothing to read: decides nothing
            local_decided_ = true;
            if (readable_by(path, user.uid, user.gid)) continue;
            if (!first_round) {
                refused.push_back(i);
                continue;
            }
            add(UpdateMessage::Notice, "Download is performed unsandboxed as root as file '" + path +
                                           "' couldn't be accessed by user '" + user.name +
                                           "'. - pkgAcquire::Run (13: Permission denied)");
            local_as_root_ = true;
            break;
        }
    }
    if (!refused.empty()) {
        std::vector<FetchRequest> rest;
        std::vector<size_t> where;
        for (size_t i = 0; i < requests.size(); ++i)
            if (std::find(refused.begin(), refused.end(), i) == refused.end()) {
                rest.push_back(requests[i]);
                where.push_back(i);
            }
        std::vector<FetchResult> results(requests.size());
        for (size_t i : refused) {
            results[i].error = "Could not open file " + local_path(requests[i].uri) + " - open (13: Permission denied)";
            finished(i, results[i]);
        }
        std::vector<FetchResult> got = run_fetch(rest, [&](size_t k, const FetchResult& r) { finished(where[k], r); });
        for (size_t k = 0; k < got.size(); ++k) results[where[k]] = std::move(got[k]);
        return results;
    }
    auto results = fetch(requests, options_, callback);
    for (const FetchResult& r : results)
        if (r.status == FetchStatus::Ok) result_.fetched_bytes += r.bytes;
    return results;
}

// A transient failure (the network, a 5xx) is a warning, as apt has it:
// the repository keeps its old lists, but the update does not fail.
void Updater::fail(Repo& repo, std::string message, bool transient) {
    repo.failed = true;
    if (message.starts_with("Failed to fetch ")) (transient ? fetch_failed_soft_ : fetch_failed_hard_) = true;
    add(transient ? UpdateMessage::Warning : UpdateMessage::Error, std::move(message));
}

UpdateResult update_lists(const config::Config& config, Diagnostics& diags, const UpdateObserver& observer) {
    Updater updater(config, diags, observer);
    return updater.run();
}

}  // namespace aptus::acquire
