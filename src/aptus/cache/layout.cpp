// The layout pass: sort names, packages and versions into the order
// format.hpp promises, group the per-version and per-name arrays, build the
// name hash table, and serialise everything behind a checksummed header.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "aptus/deb/version.hpp"
#include "build_state.hpp"
#include "hash.hpp"

namespace aptus::cache::detail {
namespace {

int pwrite_all(int fd, const void* data, size_t n, uint64_t offset) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t k = ::pwrite(fd, p, n, off_t(offset));
        if (k < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += k;
        n -= size_t(k);
        offset += uint64_t(k);
    }
    return 0;
}

// Counting sort of `n` items into groups 0..groups-1: returns the start of
// each group (groups + 1 entries); `key(i)` names item i's group.
template <class Key>
HugeVector<uint32_t> group_starts(size_t n, size_t groups, Key key) {
    HugeVector<uint32_t> start(groups + 1, 0);
    for (size_t i = 0; i < n; ++i) ++start[key(i) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    return start;
}

}  // namespace

void lay_out(BuildState& st, std::string_view stamp, Image& img, const LayoutHooks& hooks) {
    const StringPool& pool = st.pool;
    // Every section's size is known before the layout: plan the header now,
    // so the pool (final already, and the biggest part) can be written while
    // the rest is laid out.
    size_t slots = 16;
    while (slots < st.names.size() * 2 + 1) slots *= 2;
    {
        auto plan = [&](SectionId id, const void* data, size_t count, size_t elem) {
            img.sections[uint32_t(id)] = {data, count, elem};
        };
        plan(SectionId::StringOffsets, pool.offsets().data(), pool.offsets().size(), sizeof(uint32_t));
        plan(SectionId::StringBytes, pool.bytes().data(), pool.bytes().size(), 1);
        plan(SectionId::Names, nullptr, st.names.size(), sizeof(Name));
        plan(SectionId::NameHash, nullptr, slots, sizeof(uint32_t));
        plan(SectionId::Packages, nullptr, st.packages.size(), sizeof(Package));
        plan(SectionId::Versions, nullptr, st.versions.size(), sizeof(Version));
        plan(SectionId::Dependencies, nullptr, st.dependencies.size(), sizeof(Dependency));
        plan(SectionId::Provides, nullptr, st.provides.size(), sizeof(Provide));
        plan(SectionId::VersionFiles, nullptr, st.files.size(), sizeof(VersionFile));
        plan(SectionId::RevDeps, nullptr, st.dependencies.size(), sizeof(RevDep));
        plan(SectionId::Providers, nullptr, st.provides.size(), sizeof(uint32_t));
        plan(SectionId::IndexFiles, nullptr, st.index_files.size(), sizeof(IndexFile));
        plan(SectionId::Releases, nullptr, st.releases.size(), sizeof(Release));
        plan(SectionId::Sources, nullptr, st.sources.size(), sizeof(SourcePackage));
        plan(SectionId::Stamp, stamp.data(), stamp.size(), 1);
        st.diagnostics_text.clear();
        for (const Diagnostic& d : st.diagnostics) {
            st.diagnostics_text += d.level == Level::Warning ? 'W' : 'N';
            st.diagnostics_text += d.message;
            st.diagnostics_text += '\0';
        }
        plan(SectionId::Warnings, st.diagnostics_text.data(), st.diagnostics_text.size(), 1);
        Header& h = img.header;
        h = Header{};
        std::memcpy(h.magic, kMagic, sizeof kMagic);
        h.format_version = kFormatVersion;
        h.header_size = sizeof(Header);
        h.native_architecture = st.native_arch;
        uint64_t pos = sizeof(Header);
        for (SectionId id : kFileOrder) {
            auto i = uint32_t(id);
            pos = (pos + 7) & ~uint64_t(7);
            h.sections[i] = {pos, img.sections[i].count};
            pos += img.sections[i].count * img.sections[i].elem;
        }
        h.file_size = (pos + 7) & ~uint64_t(7);
        h.checksum = 0;
    }
    // A section is final once complete: each is announced when it and every
    // one before it in the file are.
    bool final[kSectionCount] = {};
    uint32_t ready = 0;
    auto complete = [&](SectionId id, const void* data, size_t count) {
        Image::Part& part = img.sections[uint32_t(id)];
        if (count != part.count) throw std::logic_error("cache layout: a section's size differs from the plan");
        part.data = data;
        final[uint32_t(id)] = true;
        uint32_t before = ready;
        while (ready < kSectionCount && final[uint32_t(kFileOrder[ready])]) ++ready;
        if (ready != before && hooks.sections_ready) hooks.sections_ready(img, ready);
    };
    auto complete_vec = [&](SectionId id, const auto& v) { complete(id, v.data(), v.size()); };
    auto done_with = [&](SectionId id) {
        if (hooks.done_with) hooks.done_with(id);
    };
    complete_vec(SectionId::StringOffsets, pool.offsets());
    complete_vec(SectionId::StringBytes, pool.bytes());
    complete_vec(SectionId::IndexFiles, st.index_files);
    complete_vec(SectionId::Releases, st.releases);
    complete(SectionId::Stamp, stamp.data(), stamp.size());
    complete(SectionId::Warnings, st.diagnostics_text.data(), st.diagnostics_text.size());

    // Names by text: on their first 16 bytes as two big-endian words (which
    // order as the bytes do), the strings themselves compared only on a tie.
    // Comparing pool strings directly missed the cache on both sides of
    // every comparison: a third of the layout.
    // The key also carries the name's hash (its low half is enough for the
    // table), computed while the bytes are at hand.
    struct NameKey {
        uint64_t hi, lo;
        uint32_t name, hash;
    };
    HugeVector<NameKey> keys(st.names.size());
    for (uint32_t n = 0; n < keys.size(); ++n) {
        std::string_view s = pool.view(st.names[n]);
        unsigned char b[16] = {};
        std::memcpy(b, s.data(), std::min<size_t>(sizeof b, s.size()));
        uint64_t hi, lo;
        std::memcpy(&hi, b, 8);
        std::memcpy(&lo, b + 8, 8);
        keys[n] = {__builtin_bswap64(hi), __builtin_bswap64(lo), n, uint32_t(hash_name(s))};
    }
    std::sort(keys.begin(), keys.end(), [&](const NameKey& a, const NameKey& b) {
        if (a.hi != b.hi) return a.hi < b.hi;
        if (a.lo != b.lo) return a.lo < b.lo;
        return pool.view(st.names[a.name]) < pool.view(st.names[b.name]);
    });
    HugeVector<uint32_t> name_order(st.names.size());
    HugeVector<uint32_t> new_name(st.names.size());
    for (uint32_t i = 0; i < keys.size(); ++i) {
        name_order[i] = keys[i].name;
        new_name[keys[i].name] = i;
    }
    // Open addressing at most half full: a miss ends at an empty slot quickly.
    HugeVector<uint32_t>& hash = img.hash;
    hash.assign(slots, kNone);
    for (uint32_t nn = 0; nn < keys.size(); ++nn) {
        size_t i = keys[nn].hash & (slots - 1);
        while (hash[i] != kNone) i = (i + 1) & (slots - 1);
        hash[i] = nn;
    }
    release_unused(hash);
    complete_vec(SectionId::NameHash, hash);
    done_with(SectionId::NameHash);
    keys = {};

    // Packages by (name, architecture): grouped by name in one counting
    // pass, then the few packages of one name by architecture.
    HugeVector<uint32_t> pkg_order(st.packages.size());
    {
        auto start = group_starts(st.packages.size(), st.names.size(),
                                  [&](size_t i) { return new_name[st.packages[i].name]; });
        HugeVector<uint32_t> fill(start.begin(), start.end() - 1);
        for (uint32_t i = 0; i < st.packages.size(); ++i) pkg_order[fill[new_name[st.packages[i].name]]++] = i;
        for (size_t g = 0; g + 1 < start.size(); ++g)
            if (start[g + 1] - start[g] > 1)
                std::sort(pkg_order.begin() + start[g], pkg_order.begin() + start[g + 1], [&](uint32_t a, uint32_t b) {
                    return pool.view(st.packages[a].architecture) < pool.view(st.packages[b].architecture);
                });
    }
    HugeVector<uint32_t> new_pkg(st.packages.size());
    for (uint32_t i = 0; i < pkg_order.size(); ++i) new_pkg[pkg_order[i]] = i;

    // Versions by package, newest first; ties (versions dpkg calls equal but
    // written differently) keep the order they were read in.
    HugeVector<uint32_t> ver_order;
    ver_order.reserve(st.versions.size());
    HugeVector<Package>& packages = img.packages;
    packages.resize(st.packages.size());
    for (uint32_t np = 0; np < pkg_order.size(); ++np) {
        const Package& old = st.packages[pkg_order[np]];
        Package& p = packages[np];
        p = old;
        p.name = new_name[old.name];
        p.first_version = uint32_t(ver_order.size());
        for (uint32_t v = old.first_version; v != kNone; v = st.next_version[v]) ver_order.push_back(v);
        auto begin = ver_order.begin() + p.first_version;
        std::reverse(begin, ver_order.end());  // the list is newest-read first
        // An insertion sort (stable): nearly every package has one to three
        // versions, and std::stable_sort allocated a buffer for each.
        auto newer = [&](uint32_t a, uint32_t b) {
            return deb::compare_versions(pool.view(st.versions[a].version), pool.view(st.versions[b].version)) > 0;
        };
        if (ver_order.end() - begin > 16) {
            std::stable_sort(begin, ver_order.end(), newer);
        } else {
            for (auto i = begin + 1; i < ver_order.end(); ++i)
                for (auto j = i; j > begin && newer(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
        }
        p.version_count = uint32_t(ver_order.size()) - p.first_version;
    }
    HugeVector<uint32_t> new_ver(st.versions.size());
    for (uint32_t i = 0; i < ver_order.size(); ++i) new_ver[ver_order[i]] = i;

    std::stable_sort(st.sources.begin(), st.sources.end(), [&](const SourcePackage& a, const SourcePackage& b) {
        std::string_view x = pool.view(a.name), y = pool.view(b.name);
        if (x != y) return x < y;
        return deb::compare_versions(pool.view(a.version), pool.view(b.version)) > 0;
    });

    complete_vec(SectionId::Sources, st.sources);
    // The last reader of the strings: the pool (the biggest section but
    // two) goes before the layout's peak.
    done_with(SectionId::StringOffsets);
    done_with(SectionId::StringBytes);
    // The layout's peak is at its end: every index map goes as soon as it has served.
    ver_order = {};
    pkg_order = {};
    for (Package& p : packages)
        if (p.current_version != kNone) p.current_version = new_ver[p.current_version];
    complete_vec(SectionId::Packages, packages);

    // Versions in their new order. Dependency and provide records stay where
    // the build put them (each version's are contiguous already): only their
    // indices are rewritten, in place, so the layout neither copies nor
    // doubles the two biggest arrays.
    for (Version& v : st.versions) v.package = new_pkg[v.package];
    new_pkg = {};
    for (Dependency& d : st.dependencies) d.target = new_name[d.target];
    for (Provide& p : st.provides) {
        p.version = new_ver[p.version];
        p.name = new_name[p.name];
    }
    img.deps = std::move(st.dependencies);
    img.provides = std::move(st.provides);
    const HugeVector<Dependency>& deps = img.deps;
    const HugeVector<Provide>& provides = img.provides;
    complete_vec(SectionId::Dependencies, deps);
    complete_vec(SectionId::Provides, provides);
    // The versions are permuted in place (following each cycle of new_ver),
    // not copied: a second array of them would be the layout's peak.
    HugeVector<Version>& versions = img.versions;
    versions = std::move(st.versions);
    {
        std::vector<bool> placed(versions.size());
        for (uint32_t start = 0; start < versions.size(); ++start) {
            if (placed[start]) continue;
            Version carried = versions[start];
            uint32_t at = start;
            for (;;) {
                placed[at] = true;
                uint32_t to = new_ver[at];
                if (to == start) {
                    versions[start] = carried;
                    break;
                }
                std::swap(carried, versions[to]);
                at = to;
            }
        }
    }
    // The build-order records are all moved or copied: free them before the peak.
    st.next_version = {};
    st.packages = {};
    st.next_package_of_name = {};
    st.first_package_of_name = {};

    // Each array's unused tail goes as soon as the array is complete (see
    // release_unused): the peak is the sum of the tails otherwise.
    release_unused(img.versions);
    release_unused(img.deps);
    release_unused(img.provides);
    release_unused(img.packages);

    // Files grouped by version, in the order they were read.
    auto file_start = group_starts(st.files.size(), versions.size(), [&](size_t i) { return new_ver[st.files[i].version]; });
    HugeVector<VersionFile>& files = img.files;
    files.resize(st.files.size());
    {
        HugeVector<uint32_t> fill(file_start.begin(), file_start.end() - 1);
        for (const VersionFile& f : st.files) {
            uint32_t nv = new_ver[f.version];
            files[fill[nv]++] = {nv, f.index_file, f.offset, f.length};
        }
    }
    for (uint32_t nv = 0; nv < versions.size(); ++nv) {
        versions[nv].first_file = file_start[nv];
        versions[nv].file_count = file_start[nv + 1] - file_start[nv];
    }
    st.files = {};
    release_unused(img.files);
    complete_vec(SectionId::VersionFiles, files);
    if (hooks.descriptions) hooks.descriptions(versions, new_ver);
    complete_vec(SectionId::Versions, versions);

    // Names with their packages, reverse dependencies and providers.
    HugeVector<Name>& names = img.names;
    names.resize(st.names.size());
    for (uint32_t nn = 0; nn < names.size(); ++nn) {
        names[nn].name = st.names[name_order[nn]];
        names[nn].first_package = 0;
    }
    name_order = {};
    new_name = {};
    new_ver = {};
    file_start = {};
    for (uint32_t i = packages.size(); i-- > 0;) {
        Name& n = names[packages[i].name];
        n.first_package = i;
        ++n.package_count;
    }
    release_unused(img.names);
    // A name's reverse dependencies in version order.
    auto rdep_start = group_starts(deps.size(), names.size(), [&](size_t i) { return deps[i].target; });
    HugeVector<RevDep>& rdeps = img.rdeps;
    rdeps.resize(deps.size());
    {
        HugeVector<uint32_t> fill(rdep_start.begin(), rdep_start.end() - 1);
        for (uint32_t nv = 0; nv < versions.size(); ++nv) {
            const Version& v = versions[nv];
            for (uint32_t i = v.first_dependency; i < v.first_dependency + v.dependency_count; ++i)
                rdeps[fill[deps[i].target]++] = {nv, i};
        }
    }
    release_unused(rdeps);
    complete_vec(SectionId::RevDeps, rdeps);
    done_with(SectionId::RevDeps);
    done_with(SectionId::Dependencies);
    done_with(SectionId::Versions);
    done_with(SectionId::VersionFiles);
    auto prov_start = group_starts(provides.size(), names.size(), [&](size_t i) { return provides[i].name; });
    HugeVector<uint32_t>& providers = img.providers;
    providers.resize(provides.size());
    {
        HugeVector<uint32_t> fill(prov_start.begin(), prov_start.end() - 1);
        for (uint32_t i = 0; i < provides.size(); ++i) providers[fill[provides[i].name]++] = i;
    }
    for (uint32_t nn = 0; nn < names.size(); ++nn) {
        names[nn].first_rdep = rdep_start[nn];
        names[nn].rdep_count = rdep_start[nn + 1] - rdep_start[nn];
        names[nn].first_provider = prov_start[nn];
        names[nn].provider_count = prov_start[nn + 1] - prov_start[nn];
    }

    complete_vec(SectionId::Providers, providers);
    release_unused(providers);
    done_with(SectionId::Providers);
    done_with(SectionId::Provides);
    complete_vec(SectionId::Names, names);
    done_with(SectionId::Names);
    complete_vec(SectionId::Sources, st.sources);
    if (ready != kSectionCount) throw std::logic_error("cache layout: a section was never completed");
}

StreamChecksum Image::checksum_start() const {
    Header h = header;
    h.checksum = 0;
    return StreamChecksum(checksum(reinterpret_cast<const char*>(&h), sizeof h));
}

int Image::write_range(int fd, uint32_t first, uint32_t last, StreamChecksum& sum) const {
    auto end_of = [&](uint32_t k) {
        auto i = uint32_t(kFileOrder[k]);
        return header.sections[i].offset + sections[i].count * sections[i].elem;
    };
    uint64_t pos = first == 0 ? sizeof(Header) : end_of(first - 1);
    for (uint32_t k = first; k < last; ++k) {
        auto i = uint32_t(kFileOrder[k]);
        sum.zeros(header.sections[i].offset - pos);
        size_t bytes = sections[i].count * sections[i].elem;
        const char* p = static_cast<const char*>(sections[i].data);
        if (bytes) sum.update(p, bytes);
        if (fd >= 0 && bytes)
            if (int err = pwrite_all(fd, p, bytes, header.sections[i].offset)) return err;
        pos = header.sections[i].offset + bytes;
    }
    if (last == kSectionCount) sum.zeros(header.file_size - pos);
    return 0;
}

int Image::write_header(int fd) const { return pwrite_all(fd, &header, sizeof header, 0); }

void Image::set_checksum() {
    StreamChecksum sum = checksum_start();
    write_range(-1, 0, kSectionCount, sum);
    header.checksum = sum.finish();
}

std::string Image::to_string() const {
    std::string out(header.file_size, '\0');
    std::memcpy(out.data(), &header, sizeof header);
    for (uint32_t i = 0; i < kSectionCount; ++i)
        if (sections[i].count)
            std::memcpy(out.data() + header.sections[i].offset, sections[i].data, sections[i].count * sections[i].elem);
    return out;
}

}  // namespace aptus::cache::detail
