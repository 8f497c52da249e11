#include "aptus/request/apt_build_order.hpp"

#include <algorithm>
#include <numeric>

namespace aptus::request {

int apt_field_rank(cache::DepType t) {
    switch (t) {
        case cache::DepType::PreDepends: return 0;
        case cache::DepType::Depends: return 1;
        case cache::DepType::Conflicts: return 2;
        case cache::DepType::Breaks: return 3;
        case cache::DepType::Recommends: return 4;
        case cache::DepType::Suggests: return 5;
        case cache::DepType::Replaces: return 6;
        case cache::DepType::Enhances: return 7;
    }
    return 8;
}

namespace {

// A version's dependencies in the order apt's parser creates them: field by
// field, each field left to right (the cache keeps them as written).
void deps_in_field_order(const cache::Cache& c, const cache::Version& v, std::vector<uint32_t>& ids) {
    ids.resize(v.dependency_count);
    std::iota(ids.begin(), ids.end(), v.first_dependency);
    std::stable_sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        return apt_field_rank(c.dependencies()[a].type) < apt_field_rank(c.dependencies()[b].type);
    });
}

// A package of the native architecture (or "all") is its plain name to
// apt; one of another architecture is "name:arch".
cache::StringId own_qualifier(const cache::Cache& c, const cache::Package& p) {
    std::string_view arch = c.str(p.architecture);
    return arch == c.native_architecture() || arch == "all" ? 0 : p.architecture;
}

}  // namespace

uint32_t AptBuildOrder::package_rank(uint32_t name, cache::StringId qualifier) const {
    if (qualifier == 0) return name_rank_[name];
    auto it = qualified_rank_.find(uint64_t(name) << 32 | qualifier);
    return it == qualified_rank_.end() ? UINT32_MAX : it->second;
}

uint32_t AptBuildOrder::package_rank(const cache::Package& p) const { return package_rank(p.name, own_qualifier(c_, p)); }

AptBuildOrder::AptBuildOrder(const cache::Cache& c) : c_(c) {
    // apt reads the Packages files in the order of the sources, each from
    // top to bottom, and the dpkg status last (it is layered on the cache
    // of the lists); a version is created where it is first met. The cache
    // keeps the index files in that reading order with the status last, so
    // (file, offset) of a version's first record is its creation time.
    auto versions = c.versions();
    std::vector<uint64_t> key(versions.size(), UINT64_MAX);
    for (const auto& f : c.version_files()) {
        uint64_t k = uint64_t(f.index_file) << 32 | f.offset;
        key[f.version] = std::min(key[f.version], k);
    }
    std::vector<uint32_t> by_time(versions.size());
    std::iota(by_time.begin(), by_time.end(), 0u);
    std::stable_sort(by_time.begin(), by_time.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
    version_rank_.assign(versions.size(), 0);
    for (uint32_t r = 0; r < by_time.size(); ++r) version_rank_[by_time[r]] = r;

    // apt keeps one copy of each version string and compares dependency
    // records by the string's place in its pool, i.e. by when the string
    // was first stored: as a version, a source version, a dependency's or
    // a provide's version, in that order within each record.
    dep_seq_.assign(c.dependencies().size(), 0);
    string_rank_.assign(c.string_count(), 0);
    uint32_t next_string = 1, next_dep = 0;
    auto touch = [&](cache::StringId s) {
        if (s != 0 && string_rank_[s] == 0) string_rank_[s] = next_string++;
    };
    // Package records are created where their name is first met: the
    // record's own package, then each dependency's target, then each
    // provided name.
    uint32_t next_package = 0;
    cache::StringId any = 0;  // the qualifier "any", as the cache stores it
    for (const auto& d : c.dependencies())
        if (d.arch_qualifier != 0 && c.str(d.arch_qualifier) == "any") {
            any = d.arch_qualifier;
            break;
        }
    name_rank_.assign(c.names().size(), UINT32_MAX);
    auto meet = [&](uint32_t name, cache::StringId qualifier) {
        if (qualifier == 0) {
            if (name_rank_[name] == UINT32_MAX) name_rank_[name] = next_package++;
        } else if (qualified_rank_.try_emplace(uint64_t(name) << 32 | qualifier, next_package).second) {
            ++next_package;
        }
    };
    // The Version of a Release file goes into the same pool, when apt
    // opens the first index file of that release.
    uint32_t next_file = 0;
    auto open_files_until = [&](uint64_t k) {
        uint32_t file = k == UINT64_MAX ? uint32_t(c.index_files().size()) : uint32_t(k >> 32);
        for (; next_file <= file && next_file < c.index_files().size(); ++next_file) {
            const auto& f = c.index_files()[next_file];
            if (f.kind == cache::IndexKind::Packages && f.release != cache::kNone)
                touch(c.releases()[f.release].version);
        }
    };
    std::vector<uint32_t> deps;
    for (uint32_t vi : by_time) {
        open_files_until(key[vi]);
        const auto& v = versions[vi];
        const auto& p = c.package_of(v);
        meet(p.name, own_qualifier(c, p));
        touch(v.version);
        touch(v.source_version);
        deps_in_field_order(c, v, deps);
        // An unqualified name stands for the record of the depending
        // package's architecture ("foo:i386" from an i386 package).
        const cache::StringId own = own_qualifier(c, p);
        for (uint32_t di : deps) {
            const auto& d = c.dependencies()[di];
            dep_seq_[di] = next_dep++;
            meet(d.target, d.arch_qualifier != 0 ? d.arch_qualifier : own);
            if (d.op != cache::DepOp::None) touch(d.version);
        }
        for (const auto& pr : c.provides_of(v)) {
            meet(pr.name, own);
            touch(pr.provided_version);
        }
        // A Multi-Arch: allowed version also provides "name:any".
        if (v.multi_arch == cache::MultiArch::Allowed && any != 0) meet(p.name, any);
    }
}

std::vector<cache::RevDep> AptBuildOrder::reverse_dependencies(const cache::Package& p) const {
    std::string_view arch = c_.str(p.architecture);
    bool native = arch == c_.native_architecture();
    std::vector<cache::RevDep> rdeps;
    for (const auto& rd : c_.rdepends(p.name)) {
        const auto& d = c_.dependencies()[rd.dependency];
        if (d.arch_qualifier != 0) continue;
        std::string_view from = c_.str(c_.versions()[rd.version].architecture);
        if (from == arch || (native && from == "all")) rdeps.push_back(rd);
    }
    std::sort(rdeps.begin(), rdeps.end(), [&](const cache::RevDep& a, const cache::RevDep& b) {
        return dep_seq_[a.dependency] < dep_seq_[b.dependency];
    });

    std::vector<AptDepKey> keys;
    keys.reserve(rdeps.size());
    for (const auto& rd : rdeps) {
        const auto& d = c_.dependencies()[rd.dependency];
        keys.push_back({d.op == cache::DepOp::None ? 0 : string_rank_[d.version], d.type, d.op,
                        bool(d.flags & cache::kDepOrNext)});
    }
    std::vector<cache::RevDep> out;
    out.reserve(rdeps.size());
    for (uint32_t i : apt_reverse_list_order(keys)) out.push_back(rdeps[i]);
    return out;
}

// apt shares one data record between dependencies with the same key. The
// records form a chain sorted by the version string's place in the pool
// (latest first) that starts at the record of the list's head; a new
// dependency searches that chain from the head's record. It becomes the
// new head only when its record is new and goes before the head's;
// otherwise it is linked in right after the head. Found by comparing with
// the lists apt 2.6 builds for thousands of packages.
std::vector<uint32_t> apt_reverse_list_order(const std::vector<AptDepKey>& keys) {
    struct Data {
        AptDepKey key;
        int next;
    };
    std::vector<Data> data;
    std::vector<int> data_of(keys.size()), next(keys.size(), -1);
    int head = -1;
    for (int i = 0; i < int(keys.size()); ++i) {
        const AptDepKey& k = keys[i];
        if (head < 0) {
            data.push_back({k, -1});
            data_of[i] = 0;
            head = i;
            continue;
        }
        int cur = data_of[head], prev = -1;
        bool dup = false;
        while (cur >= 0) {
            const Data& x = data[cur];
            if (k.string_rank > x.key.string_rank) break;
            if (k == x.key) {
                dup = true;
                break;
            }
            prev = cur;
            cur = x.next;
        }
        if (!dup) {
            int fresh = int(data.size());
            if (prev >= 0) {
                data.push_back({k, data[prev].next});
                data[prev].next = fresh;
            } else {
                data.push_back({k, data_of[head]});
            }
            cur = fresh;
        }
        data_of[i] = cur;
        if (!dup && prev < 0) {
            next[i] = head;
            head = i;
        } else {
            next[i] = next[head];
            next[head] = i;
        }
    }
    std::vector<uint32_t> order;
    order.reserve(keys.size());
    for (int i = head; i >= 0; i = next[i]) order.push_back(uint32_t(i));
    return order;
}

}  // namespace aptus::request
