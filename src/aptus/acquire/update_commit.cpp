// The end of an update: each repository whose files all verified has them
// renamed from partial/ into the lists dir; a failed one has its partial
// files removed and keeps its old lists. Lists of sources no longer
// configured go only when every repository succeeded.
//
// Every repository's renames happen in one burst and the directory is
// synced once after it: a kill -9 during the commit can then only fall
// between two renames of that burst (microseconds), not across a
// directory sync per repository (milliseconds on a busy disk). A mix left
// by such a kill is repaired by the next update: the stored Release file
// does not vouch for the new index, so the index is fetched again.
#include <unistd.h>

#include <set>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "updater.hpp"

namespace aptus::acquire {

void Updater::commit() {
    for (Repo& repo : repos_) {
        std::vector<ListsMove> moves = repo.index_moves;
        const auto& rf = *repo.files;
        if (repo.no_release) {
            // No Release any more: none of the old ones may vouch for these lists.
            moves.push_back({"", "", {rf.inrelease_file, rf.release_file, rf.release_gpg_file}, std::nullopt});
        } else if (!repo.unchanged) {
            // A signature that did not verify is not kept (unverified_signature).
            const bool keep_signature = !repo.unverified_signature;
            if (repo.kind == Repo::Kind::InRelease && !repo.release_partial.empty()) {
                if (keep_signature)
                    moves.push_back({repo.release_partial[0], rf.inrelease_file,
                                     {rf.release_file, rf.release_gpg_file}, repo.last_modified});
                else
                    moves.push_back({repo.release_partial[0], rf.release_file,
                                     {rf.inrelease_file, rf.release_gpg_file}, repo.last_modified});
            } else if (repo.kind == Repo::Kind::Release && !repo.release_partial.empty()) {
                const bool with_gpg = repo.signed_release && keep_signature;
                std::vector<std::string> replaces = {rf.inrelease_file};
                if (!with_gpg) replaces.push_back(rf.release_gpg_file);
                moves.push_back({repo.release_partial[0], rf.release_file, replaces, repo.last_modified});
                if (repo.release_partial.size() > 1) {
                    if (with_gpg) moves.push_back({repo.release_partial[1], rf.release_gpg_file, {}, std::nullopt});
                    else ::unlink(repo.release_partial[1].c_str());
                }
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
            move_into_place(moves);
        } catch (const Error& e) {
            fail(repo, e.what());
        }
    }
    // The files are in place already; a lists dir that cannot be synced (a
    // file system without fsync on directories) is no reason to call the
    // update failed.
    sync_directory(lists_, SyncFailure::Ignore);
    for (const Repo& repo : repos_)
        if (repo.failed) return;
    // --no-list-cleanup (APT::Get::List-Cleanup=false): what no source names
    // now stays (another snapshot's lists, say).
    if (!config_.find_bool("APT::Get::List-Cleanup", true)) return;
    // Only after a complete success: a failed update keeps even the lists
    // of sources that went away, so nothing is lost to a half-run.
    std::set<std::string> keep;
    for (const auto& rf : releases_) keep.insert({rf.inrelease_file, rf.release_file, rf.release_gpg_file});
    for (const auto& t : targets_) keep.insert(t.filename);
    remove_unlisted(lists_, keep);
}

}  // namespace aptus::acquire
