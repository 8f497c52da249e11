// The update's state, shared by the files that each do one of its steps:
// update.cpp (the run, the repositories, the outcome), update_release_fetch.cpp
// (InRelease, else Release + Release.gpg), update_release_verify.cpp (the
// signature and the checks of a fresh Release), update_indices.cpp (the index
// files), update_commit.cpp (into the lists dir) and update_lines.cpp (apt's
// numbered item lines and failure texts).
#pragma once

#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/acquire/lists_store.hpp"
#include "aptus/acquire/release_check.hpp"
#include "aptus/acquire/update.hpp"
#include "aptus/acquire/verify.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"

namespace aptus::acquire {

// The item lines, numbered in the order they are printed; a request keeps
// its number, so a file that arrived and then failed its check is "Err"
// under the number of its "Get", as apt reports it.
class Lines {
public:
    explicit Lines(const UpdateObserver& observer) : observer_(observer) {}
    unsigned emit(UpdateLine::Kind kind, const std::string& description, uint64_t size = 0,
                  std::vector<std::string> details = {}, unsigned number = 0);
    // An item apt numbers but shows no line for (a Release.gpg beside an
    // unmodified Release): the next line's number is one higher.
    void skip() { ++last_; }

private:
    const UpdateObserver& observer_;
    unsigned last_ = 0;
};

// A redirect loop, or more redirects than the fetcher follows (curl cannot
// tell them apart): apt calls a loop "Redirection loop encountered".
bool redirect_loop(const FetchResult& r);
// The detail line under an Err line: the reason and the peer.
std::vector<std::string> failure_details(const FetchResult& r);
// "Failed to fetch <uri>  <reason> [IP: ...]", apt's message.
std::string failed_to_fetch(const std::string& uri, const FetchResult& r);
// "Hashes of expected file:" and what was expected, under a Hash Sum mismatch.
// ... and, as apt, the hashes of what arrived, the server's modification
// time and the Release file's Date (`release_date` as written, may be "").
void append_hash_details(const FetchRequest& request, const FetchResult& r, const std::string& release_date,
                         std::vector<std::string>& details);
UpdateMessage::Level level_of(CheckResult::Level l);
// Debian's Releases say "No-Support-for-Architecture-all: Packages": the
// arch-all packages are in every architecture's Packages file, and apt then
// does not ask for binary-all at all.
bool lacks_arch_all(std::string_view release_text);

struct IndexPlan;
struct IndexFetch;

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
    // A signature was there and did not verify, and the repository was
    // taken as unsigned (trusted=yes, or insecure repositories allowed): the
    // signature is not kept, so nothing later counts the lists as signed —
    // an InRelease is stored under the Release name, a Release.gpg dropped
    // (as apt does).
    bool unverified_signature = false;
    // The Release gives no hash at all and weak repositories are allowed:
    // the repository is kept as an unauthenticated one
    // (unverified_signature) and its indices fetched unannounced, as for
    // no_release. (One with MD5/SHA1 only is fetched against those.)
    bool hashless = false;
    // No Release at all, and the settings allow that (trusted=yes, or
    // insecure repositories allowed): the indices are fetched unannounced,
    // bounded by configured sizes only (plan_unannounced_index).
    bool no_release = false;
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

    UpdateResult run();

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
    // apt's file method: decided at the first round of local files, as the
    // sandbox user or (with a notice) as root.
    bool local_decided_ = false, local_as_root_ = false;

    // update.cpp
    void make_repos();
    std::vector<FetchResult> run_fetch(const std::vector<FetchRequest>& requests,
                                       const std::function<void(size_t, const FetchResult&)>& finished);
    void add(UpdateMessage::Level level, std::string text);
    void fail(Repo& repo, std::string message, bool transient = false);
    std::string partial_dir() const { return lists_ + "partial"; }

    // update_release_fetch.cpp
    uint64_t max_release_size() const;
    void fetch_inrelease();
    void fetch_release_fallback();
    void use_stored(Repo& repo);

    // update_release_verify.cpp
    std::vector<KeyFingerprint> stored_signers(const Repo& repo) const;
    void verify_inrelease(Repo& repo);
    void reverify_stored_inrelease(Repo& repo);
    template <typename Verify>
    void verify_text(Repo& repo, const std::string& name, Verify verify, const std::string& raw);
    void verify_release(Repo& repo, const std::string& name, const std::string& text,
                        const std::string& signature_path);
    bool stop_on_bad_signature(Repo& repo, const std::string& name, const std::string& message);
    void accept_unsigned(Repo& repo, const std::string& name, const std::string& raw,
                         const std::optional<std::string>& why);
    void parse_fresh(Repo& repo, const std::string& text, const std::string& name);
    void check_release(Repo& repo);

    // update_indices.cpp
    void fetch_indices();
    void trace_hashes(const Repo& repo, const IndexPlan& p, const IndexFetch& way);

    // update_commit.cpp
    void commit();
};

}  // namespace aptus::acquire
