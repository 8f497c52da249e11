#include "update_plan.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "cdrom.hpp"
#include "aptus/acquire/lists_store.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::acquire {
HashAlgo algo_of(deb::ReleaseHash h) {
    switch (h) {
        case deb::ReleaseHash::Md5: return HashAlgo::Md5;
        case deb::ReleaseHash::Sha1: return HashAlgo::Sha1;
        case deb::ReleaseHash::Sha256: return HashAlgo::Sha256;
        case deb::ReleaseHash::Sha512: return HashAlgo::Sha512;
    }
    return HashAlgo::None;
}

namespace {

constexpr std::string_view kExtensions[] = {"lz4", "zst", "gz", "xz", "bz2", "lzma"};

// Two Release files vouch for the same content of `path`.
bool same_entry(const deb::ReleaseFile& a, const deb::ReleaseFile& b, std::string_view path) {
    auto x = a.strongest(path);
    if (!x) return false;
    const deb::ReleaseEntry* y = b.find(path, x->first);
    return y && y->hash == x->second->hash && y->size == x->second->size;
}

}  // namespace

std::vector<std::string> stored_variants(const std::string& filename) {
    std::vector<std::string> out{filename};
    for (std::string_view ext : kExtensions) out.push_back(filename + "." + std::string(ext));
    return out;
}

PlanOutcome plan_index(const sources::IndexTarget& target, const deb::ReleaseFile& fresh,
                       const deb::ReleaseFile* stored, bool unchanged, const std::string& lists_dir,
                       const config::Config& config, const std::string& repo_name, bool allow_weak) {
    PlanOutcome out;
    auto is_weak = [](deb::ReleaseHash h) { return h == deb::ReleaseHash::Md5 || h == deb::ReleaseHash::Sha1; };
    const std::string weak_warning = "Skipping acquire of configured file '" + target.meta_key + "' as repository '" +
                                     repo_name + "' provides only weak security information for it";
    if (auto whole = fresh.strongest(target.meta_key)) {
        // As apt: the index itself (its uncompressed entry) must be vouched
        // for by a strong hash, whatever its compressed forms have.
        if (is_weak(whole->first) && !allow_weak) {
            out.warning = weak_warning;
            return out;
        }
        if (whole->second->size == 0) {
            out.empty = true;
            return out;
        }
    }
    // A lists dir that keeps files compressed wants the formats fast to read.
    std::string order = target.option(target.keep_compressed ? "KeepCompressedAs" : "CompressionTypes");
    struct Offered {
        std::string type, path;
        std::pair<deb::ReleaseHash, const deb::ReleaseEntry*> entry;
    };
    std::vector<Offered> offered;
    bool weak = false;
    for (std::string_view word : split_words(order)) {
        std::string candidate = target.meta_key;
        if (word != "uncompressed") candidate += "." + std::string(word);
        Compression c = compression_from_path(candidate);
        if (word != "uncompressed" && c == Compression::None) continue;  // a format we cannot read
        auto e = fresh.strongest(candidate);
        if (!e) continue;
        if (is_weak(e->first) && !allow_weak) {
            weak = true;
            continue;
        }
        offered.push_back({std::string(word), std::move(candidate), *e});
    }
    if (offered.empty()) {
        if (weak) out.warning = weak_warning;
        return out;  // else not in this Release: optional, or check_targets said so
    }

    std::vector<std::string> variants = stored_variants(target.filename);
    bool present = false;
    for (const auto& v : variants) present = present || path_exists(v);
    if (present && (unchanged || (stored && (same_entry(fresh, *stored, target.meta_key) ||
                                             same_entry(fresh, *stored, offered.front().path)))))
        return out;  // what the lists dir holds is what this Release vouches for

    // Indices whose uncompressed size the Release does not give (many
    // third-party ones) may grow this many times, and at least to the floor.
    const uint64_t max_ratio = uint64_t(std::max(1L, config.find_int("Aptus::Acquire::Max-Decompression-Ratio", 50)));
    const uint64_t max_floor =
        uint64_t(std::max(0L, config.find_int("Aptus::Acquire::Max-Decompressed-Floor", 64L << 20)));
    IndexPlan plan;
    plan.target = &target;
    const std::string base = target.option("Base-URI");
    const std::string by_hash = target.option("By-Hash");
    const bool use_by_hash = by_hash == "force" || (by_hash == "yes" && fresh.acquire_by_hash);
    for (const Offered& o : offered) {
        IndexFetch f;
        const bool compressed = o.type != "uncompressed";
        f.final_path = target.keep_compressed && compressed ? target.filename + "." + o.type : target.filename;
        for (const auto& v : variants)
            if (v != f.final_path) f.replaces.push_back(v);
        FetchRequest& r = f.request;
        r.destination = partial_path(lists_dir, f.final_path);
        r.keep_failed = true;
        r.expected_size = o.entry.second->size;
        r.max_size = o.entry.second->size;
        r.hash = algo_of(o.entry.first);
        r.hash_hex = o.entry.second->hash;
        r.decompress = target.keep_compressed ? Compression::None : compression_from_path(o.path);
        if (r.decompress != Compression::None) {
            // What the bytes may decompress to: exactly the size the Release
            // gives the uncompressed index, or else a bounded multiple.
            if (auto plain = fresh.strongest(target.meta_key))
                r.expected_output_size = plain->second->size;
            else
                r.max_output_size = std::max<uint64_t>(o.entry.second->size * max_ratio, max_floor);
        }
        // Only a hex hash goes into a by-hash URI (one that is not hex
        // matches nothing anyway: the plain path reports the mismatch).
        const bool hex = !r.hash_hex.empty() && std::all_of(r.hash_hex.begin(), r.hash_hex.end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        });
        if (!stored && !unchanged) {
            // The form the lists dir keeps: the index itself, or this compression of it.
            auto kept = fresh.strongest(target.keep_compressed && compressed ? o.path : target.meta_key);
            struct stat st {};
            if (kept && (allow_weak || !is_weak(kept->first)) && ::stat(f.final_path.c_str(), &st) == 0 &&
                S_ISREG(st.st_mode)) {
                r.if_modified_since = st.st_mtime;
                f.stored_check = IndexFetch::StoredCheck{kept->second->size, algo_of(kept->first), kept->second->hash};
            }
        }
        if (use_by_hash && hex) {
            size_t slash = o.path.rfind('/');
            std::string dir = slash == std::string::npos ? "" : o.path.substr(0, slash + 1);
            r.uri = base + dir + "by-hash/" + std::string(hash_algo_name(r.hash)) + "/" + r.hash_hex;
            f.by_hash = true;
            plan.ways.push_back(f);
            // As apt: a repository that offers by-hash (or By-Hash=force)
            // is asked for that path only, never the plain one after it.
            continue;
        }
        r.uri = base + o.path;
        plan.ways.push_back(std::move(f));
    }
    out.plan = std::move(plan);
    return out;
}

IndexPlan plan_unannounced_index(const sources::IndexTarget& target, const std::string& lists_dir,
                                 const config::Config& config) {
    const uint64_t bound =
        uint64_t(std::max(1L, config.find_int("Aptus::Acquire::Max-Unannounced-Size", 512L << 20)));
    IndexPlan plan;
    plan.target = &target;
    plan.unannounced = true;
    const std::vector<std::string> variants = stored_variants(target.filename);
    const std::string order = target.option(target.keep_compressed ? "KeepCompressedAs" : "CompressionTypes");
    for (std::string_view word : split_words(order)) {
        std::string path = target.meta_key;
        if (word != "uncompressed") path += "." + std::string(word);
        const Compression c = compression_from_path(path);
        if (word != "uncompressed" && c == Compression::None) continue;  // a format we cannot read
        IndexFetch f;
        const bool compressed = word != "uncompressed";
        f.final_path = target.keep_compressed && compressed ? target.filename + "." + std::string(word) : target.filename;
        for (const auto& v : variants)
            if (v != f.final_path) f.replaces.push_back(v);
        FetchRequest& r = f.request;
        r.uri = target.option("Base-URI") + path;
        // A local repository is looked at, not asked: as apt, only the
        // forms that exist are tried (no Ign line for each missing one).
        if (is_local_uri(r.uri) && !path_exists(local_path(r.uri))) continue;
        r.destination = partial_path(lists_dir, f.final_path);
        r.keep_failed = true;
        r.max_size = bound;
        r.decompress = target.keep_compressed ? Compression::None : c;
        if (r.decompress != Compression::None) r.max_output_size = bound;
        if (struct stat st {}; ::stat(f.final_path.c_str(), &st) == 0) {
            r.if_modified_since = st.st_mtime;
            // A disc's indices are what apt-cdrom copied: the copy is a hit
            // (acquire/cdrom.hpp), whatever its time.
            if (is_cdrom_uri(r.uri)) r.if_same_as = f.final_path;
        }
        plan.ways.push_back(std::move(f));
    }
    if (plan.ways.empty()) {
        // Nothing there at all: one way left to report it missing.
        IndexFetch f;
        f.final_path = target.filename;
        f.request.uri = target.option("Base-URI") + target.meta_key;
        f.request.destination = partial_path(lists_dir, f.final_path);
        f.request.max_size = bound;
        plan.ways.push_back(std::move(f));
    }
    return plan;
}

}  // namespace aptus::acquire
