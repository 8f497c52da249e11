// Which file update fetches for one index target, and how: the best
// compression the Release offers, its by-hash path when the repository
// supports it, the size and strongest hash to check, and the name it gets
// in the lists dir — or nothing, when the stored file is still current.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/config/config.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/index_targets.hpp"

namespace aptus::acquire {

// One way to get the index: a URI (by-hash or plain, one compression).
struct IndexFetch {
    FetchRequest request;               // into partial/
    std::string final_path;             // in the lists dir
    std::vector<std::string> replaces;  // the target's other compressions
    bool by_hash = false;               // the URI is a by-hash/ path
    // Asked with If-Modified-Since from the stored file (there is no
    // earlier Release to compare it with, as apt asks then): a "not
    // modified" keeps that file only when it is what the Release vouches
    // for, size and hash; else it is a hash mismatch, as in apt.
    struct StoredCheck {
        uint64_t size = 0;
        HashAlgo hash = HashAlgo::None;
        std::string hash_hex;
    };
    std::optional<StoredCheck> stored_check;
};

// The ways in apt's order of preference: each compression the Release
// lists, by its by-hash path where the repository offers it (or By-Hash is
// forced), else by the plain one; apt falls back from one to the next on a
// failure that is not a hash or size mismatch.
struct IndexPlan {
    const sources::IndexTarget* target = nullptr;
    std::vector<IndexFetch> ways;
    size_t next = 0;    // the way being tried
    unsigned line = 0;  // its item number once printed
    // No Release announced it: each way that fails is an Ign line of its
    // own, as apt prints them then.
    bool unannounced = false;
};

struct PlanOutcome {
    std::optional<IndexPlan> plan;  // nullopt: nothing to fetch
    std::string warning;            // e.g. only weak hashes
    // The Release lists the index as empty (size 0): apt fetches nothing and
    // keeps no file for it, so a stored one goes.
    bool empty = false;
};

// The fetcher's name for a Release file's hash.
HashAlgo algo_of(deb::ReleaseHash h);

// `stored` is the Release the lists dir holds now (nullptr: none);
// `unchanged`: the fresh Release is that same file. `repo_name` is how apt
// names the repository in its warnings ("URI SUITE InRelease").
// An index the Release vouches for with MD5/SHA1 only (its uncompressed
// entry, or every compression offered) is skipped with apt's warning,
// unless `allow_weak` (allow-weak, --allow-weak-repositories) says to take
// it against those hashes.
PlanOutcome plan_index(const sources::IndexTarget& target, const deb::ReleaseFile& fresh,
                       const deb::ReleaseFile* stored, bool unchanged, const std::string& lists_dir,
                       const config::Config& config, const std::string& repo_name = {},
                       bool allow_weak = false);

// A repository without any Release (taken only where the settings allow
// it): the index is asked for in each configured compression in turn, with
// nothing to check it against but the sizes configured as its bounds
// (Aptus::Acquire::Max-Unannounced-Size for the bytes transferred and for
// what they decompress to), and only when changed since the stored copy.
IndexPlan plan_unannounced_index(const sources::IndexTarget& target, const std::string& lists_dir,
                                 const config::Config& config);

// The lists-dir files a target may be stored as: the plain name and every
// compressed one, in the order base/ reads them.
std::vector<std::string> stored_variants(const std::string& filename);

}  // namespace aptus::acquire
