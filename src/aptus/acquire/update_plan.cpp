#include "update_plan.hpp"

#include "aptus/acquire/lists_store.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::acquire {
namespace {

HashAlgo algo_of(deb::ReleaseHash h) {
    switch (h) {
        case deb::ReleaseHash::Md5: return HashAlgo::Md5;
        case deb::ReleaseHash::Sha1: return HashAlgo::Sha1;
        case deb::ReleaseHash::Sha256: return HashAlgo::Sha256;
        case deb::ReleaseHash::Sha512: return HashAlgo::Sha512;
    }
    return HashAlgo::None;
}

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
                       const config::Config& config) {
    PlanOutcome out;
    // A lists dir that keeps files compressed wants the formats fast to read.
    std::string order = target.option(target.keep_compressed ? "KeepCompressedAs" : "CompressionTypes");
    std::string type, path;
    std::optional<std::pair<deb::ReleaseHash, const deb::ReleaseEntry*>> entry;
    for (std::string_view word : split_words(order)) {
        std::string candidate = target.meta_key;
        if (word != "uncompressed") candidate += "." + std::string(word);
        Compression c = compression_from_path(candidate);
        if (word != "uncompressed" && c == Compression::None) continue;  // a format we cannot read
        if (auto e = fresh.strongest(candidate)) {
            type = std::string(word);
            path = std::move(candidate);
            entry = e;
            break;
        }
    }
    if (!entry) return out;  // not in this Release: optional, or check_targets said so
    if (entry->first == deb::ReleaseHash::Md5 || entry->first == deb::ReleaseHash::Sha1) {
        out.warning = "Skipping acquire of configured file '" + target.meta_key + "' as repository '" +
                      target.option("Base-URI") + "' provides only weak security information for it";
        return out;
    }

    const bool compressed = type != "uncompressed";
    const std::string final_path =
        target.keep_compressed && compressed ? target.filename + "." + type : target.filename;
    std::vector<std::string> variants = stored_variants(target.filename);
    bool present = false;
    for (const auto& v : variants) present = present || path_exists(v);
    if (present && (unchanged || (stored && (same_entry(fresh, *stored, target.meta_key) ||
                                             same_entry(fresh, *stored, path)))))
        return out;  // what the lists dir holds is what this Release vouches for

    IndexPlan plan;
    plan.target = &target;
    plan.final_path = final_path;
    for (auto& v : variants)
        if (v != final_path) plan.replaces.push_back(std::move(v));
    const std::string base = target.option("Base-URI");
    const std::string plain_uri = base + path;
    std::string by_hash = target.option("By-Hash");
    FetchRequest& r = plan.request;
    r.uri = plain_uri;
    if (by_hash == "force" || (by_hash == "yes" && fresh.acquire_by_hash)) {
        size_t slash = path.rfind('/');
        std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
        r.uri = base + dir + "by-hash/" + std::string(hash_algo_name(algo_of(entry->first))) + "/" + entry->second->hash;
        if (by_hash != "force") plan.fallback = plain_uri;
    }
    r.destination = partial_path(lists_dir, final_path);
    r.expected_size = entry->second->size;
    r.max_size = entry->second->size;
    r.hash = algo_of(entry->first);
    r.hash_hex = entry->second->hash;
    r.decompress = target.keep_compressed ? Compression::None : compression_from_path(path);
    (void)config;
    out.plan = std::move(plan);
    return out;
}

}  // namespace aptus::acquire
