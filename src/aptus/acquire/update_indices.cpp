// The last round of transfers: every index file the verified Releases list
// for the targets, all at once, each checked against its Release entry; a
// way that fails moves on to the next compression or path, as apt does.
#include <fcntl.h>
#include <unistd.h>

#include <optional>

#include "aptus/acquire/archives.hpp"
#include "aptus/acquire/release_check.hpp"
#include "transfer_sink.hpp"
#include "update_plan.hpp"
#include "updater.hpp"

namespace aptus::acquire {

// apt's Debug::pkgAcquire::Auth: the file as it arrived (it matched the
// hash it was asked with), then, decompressed, what its lists form hashes
// to against the Release's entry for the index itself.
void Updater::trace_hashes(const Repo& repo, const IndexPlan& p, const IndexFetch& way) {
    const FetchRequest& r = way.request;
    if (r.hash != HashAlgo::None) {
        const std::string h = std::string(hash_algo_name(r.hash)) + ":" + r.hash_hex;
        observer_.hashes(r.uri, {h}, {h});
    }
    if (r.decompress == Compression::None) return;
    auto entry = repo.fresh.strongest(p.target->meta_key);
    if (!entry) return;
    const HashAlgo algo = algo_of(entry->first);
    std::string got = "(unreadable)";
    int fd = ::open(r.destination.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        Hasher hasher(algo);
        Hasher* const hashers[] = {&hasher};
        if (hash_descriptor(fd, hashers)) got = hasher.hex();
        ::close(fd);
    }
    const std::string name(hash_algo_name(algo));
    observer_.hashes("store:" + r.destination, {name + ":" + got}, {name + ":" + entry->second->hash});
}

void Updater::fetch_indices() {
    std::vector<IndexPlan> plans;
    std::vector<Repo*> owner;
    for (Repo& repo : repos_) {
        if (repo.failed) continue;
        const bool allow_weak = !repo.no_release && release_check_settings(*repo.entry, config_, repo.fresh.label).allow_weak;
        for (const sources::IndexTarget* t : repo.targets) {
            if (repo.no_release || repo.hashless) {
                plans.push_back(plan_unannounced_index(*t, lists_, config_));
                owner.push_back(&repo);
                continue;
            }
            // apt names the repository by its InRelease here whichever
            // Release file it got (the transaction is the InRelease's).
            PlanOutcome out =
                plan_index(*t, repo.fresh, repo.stored ? &*repo.stored : nullptr, repo.unchanged, lists_, config_,
                           repo.name + " InRelease",
                           allow_weak);
            if (!out.warning.empty()) add(UpdateMessage::Warning, out.warning);
            if (out.empty) repo.index_moves.push_back({"", "", stored_variants(t->filename), std::nullopt});
            if (!out.plan) continue;
            plans.push_back(std::move(*out.plan));
            owner.push_back(&repo);
        }
    }
    // A "not modified" over a stored file that is not what the Release
    // vouches for (its way had no earlier Release to go by): apt's hash
    // mismatch. Checked once per plan, the file hashed once.
    std::vector<std::optional<bool>> stale(plans.size());
    auto stored_stale = [&](IndexPlan& p) {
        const size_t i = size_t(&p - plans.data());
        if (!stale[i]) {
            const IndexFetch& way = p.ways[p.next];
            stale[i] = way.stored_check && !archive_matches(way.final_path, way.stored_check->size,
                                                            way.stored_check->hash, way.stored_check->hash_hex);
        }
        return *stale[i];
    };
    std::vector<size_t> active(plans.size());
    for (size_t i = 0; i < active.size(); ++i) active[i] = i;
    // Each round tries every unfinished index its next way; what failed
    // goes on to its next compression or path, as apt does — but not after
    // a hash or size mismatch, which apt holds another compression cannot
    // fix (pkgAcqIndex::Failed, StatAuthError). apt prints no line for a
    // way that is followed by another; the item keeps its number.
    auto final_failure = [&](const IndexPlan& p, const FetchResult& r) {
        return failed_its_checks(r) || p.next + 1 >= p.ways.size();
    };
    // An optional index (a Translation) whose last way was a by-hash path is
    // ignored as apt ignores it: its expected hashes are looked up under the
    // "by-hash" extension there, find none, and the item ends as Ign.
    auto ignored = [&](const IndexPlan& p, const FetchResult& r) {
        return !failed_its_checks(r) && !r.transient && p.target->optional && (p.ways[p.next].by_hash || p.unannounced);
    };
    while (!active.empty()) {
        std::vector<FetchRequest> requests;
        for (size_t i : active) requests.push_back(plans[i].ways[plans[i].next].request);
        // Lines in the plan's order (apt's queue order), each as soon as all
        // before it have finished: the transfers run in parallel and finish
        // in any order, the output does not.
        std::vector<std::optional<FetchResult>> finished(requests.size());
        size_t shown = 0;
        auto show = [&](size_t k, const FetchResult& r) {
            IndexPlan& p = plans[active[k]];
            if (r.status == FetchStatus::Ok) {
                // apt's file method announces no size where no Release did.
                const bool sizeless = p.unannounced && is_local_uri(p.ways[p.next].request.uri);
                p.line = lines_.emit(UpdateLine::Get, p.target->description, sizeless ? 0 : r.bytes, {}, p.line);
            } else if (r.status == FetchStatus::NotModified && stored_stale(p)) {
                p.line = lines_.emit(UpdateLine::Err, p.target->description, 0, {"Hash Sum mismatch"}, p.line);
            } else if (r.status == FetchStatus::NotModified) {
                p.line = lines_.emit(UpdateLine::Hit, p.target->description, 0, {}, p.line);
            } else if (r.status == FetchStatus::Failed && p.unannounced && !final_failure(p, r)) {
                // Without a Release apt tries each compression in the open.
                p.line = lines_.emit(UpdateLine::Ign, p.target->description, 0, failure_details(r), p.line);
            } else if (r.status == FetchStatus::Failed && final_failure(p, r)) {
                if (ignored(p, r)) {
                    p.line = lines_.emit(UpdateLine::Ign, p.target->description, 0, failure_details(r), p.line);
                    return;
                }
                std::vector<std::string> details = failure_details(r);
                if (r.error == "Hash Sum mismatch") {
                    // The file arrived whole: apt's Get line comes before its Err.
                    p.line = lines_.emit(UpdateLine::Get, p.target->description, r.bytes, {}, p.line);
                    append_hash_details(p.ways[p.next].request, r, owner[active[k]]->fresh.date, details);
                }
                p.line = lines_.emit(UpdateLine::Err, p.target->description, 0, details, p.line);
            }
        };
        auto results = run_fetch(requests, [&](size_t k, const FetchResult& r) {
            finished[k] = r;
            for (; shown < finished.size() && finished[shown]; ++shown) show(shown, *finished[shown]);
        });
        for (; shown < results.size(); ++shown) show(shown, results[shown]);  // any the callback did not see
        std::vector<size_t> again;
        for (size_t k = 0; k < results.size(); ++k) {
            IndexPlan& p = plans[active[k]];
            Repo& repo = *owner[active[k]];
            const FetchResult& r = results[k];
            const IndexFetch& way = p.ways[p.next];
            if (r.status == FetchStatus::Ok) {
                repo.index_moves.push_back({way.request.destination, way.final_path, way.replaces, r.last_modified});
                if (observer_.hashes) trace_hashes(repo, p, way);
                continue;
            }
            if (r.status == FetchStatus::NotModified && stored_stale(p)) {
                fail(repo, "Failed to fetch " + way.request.uri + "  Hash Sum mismatch");
                continue;
            }
            if (r.status != FetchStatus::Failed) continue;
            if (!final_failure(p, r)) {
                ++p.next;
                again.push_back(active[k]);
                continue;
            }
            if (ignored(p, r)) continue;
            std::string text = failed_to_fetch(way.request.uri, r);
            // apt says what was expected under a wrong hash or size.
            if (r.error == "Hash Sum mismatch" || r.error.starts_with("File has unexpected size")) {
                std::vector<std::string> details;
                append_hash_details(way.request, r, repo.fresh.date, details);
                for (const auto& d : details) text += "\n   " + d;
            }
            fail(repo, text, r.transient);
        }
        active = std::move(again);
    }
}

}  // namespace aptus::acquire
