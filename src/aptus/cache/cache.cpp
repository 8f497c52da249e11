#include "aptus/cache/cache.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "hash.hpp"
#include "verified_mark.hpp"

namespace aptus::cache {

// Either the mapping of the file or the in-memory image, plus the index files
// loaded for stanza()/long_description().
struct Cache::Storage {
    std::optional<MappedFile> file;
    std::string memory;
    std::string path;
    struct Loaded {
        std::optional<MappedFile> mapped;
        std::string decompressed;
        std::string_view view;
        bool loaded = false;
    };
    std::vector<Loaded> indices;
};

namespace {

[[noreturn]] void corrupt(const std::string& what) { throw Error("invalid cache: " + what); }

template <class T>
std::span<const T> section(std::string_view image, const Header& h, SectionId id) {
    const SectionRef& s = h.sections[uint32_t(id)];
    if (s.offset % 8 != 0 || s.offset > image.size()) corrupt("section " + std::to_string(uint32_t(id)) + " out of bounds");
    uint64_t room = image.size() - s.offset;
    if (s.count > room / sizeof(T)) corrupt("section " + std::to_string(uint32_t(id)) + " out of bounds");
    return {reinterpret_cast<const T*>(image.data() + s.offset), size_t(s.count)};
}

// Every stored index is checked once at open, so accessors can trust them.
struct Validator {
    size_t strings;
    void str(StringId id, const char* what) const {
        if (id >= strings) corrupt(std::string("string id out of range in ") + what);
    }
    static void index(uint32_t i, size_t n, const char* what) {
        if (i >= n) corrupt(std::string("index out of range in ") + what);
    }
    static void opt_index(uint32_t i, size_t n, const char* what) {
        if (i != kNone && i >= n) corrupt(std::string("index out of range in ") + what);
    }
    static void range(uint32_t first, uint32_t count, size_t n, const char* what) {
        if (first > n || count > n - first) corrupt(std::string("range out of bounds in ") + what);
    }
    // An enum stored as a byte: readers switch on it or index tables by it.
    template <class E>
    static void enum_value(E e, E last, const char* what) {
        if (uint32_t(e) > uint32_t(last)) corrupt(std::string("value out of range in ") + what);
    }
};

}  // namespace

Cache::Cache(Cache&&) noexcept = default;
Cache& Cache::operator=(Cache&&) noexcept = default;
Cache::~Cache() = default;

bool Cache::in_memory() const { return !storage_->file.has_value(); }
const std::string& Cache::path() const { return storage_->path; }

Cache Cache::open(const std::string& path) { return open_checked(path, std::nullopt); }

Cache Cache::open_written(const std::string& path, uint64_t checksum) { return open_checked(path, checksum); }

Cache Cache::open_checked(const std::string& path, std::optional<uint64_t> known_checksum) {
    Cache c;
    c.storage_ = std::make_unique<Storage>();
    c.storage_->file.emplace(path);
    c.storage_->path = path;
    c.image_ = c.storage_->file->view();
    const FileIdentity& id = c.storage_->file->identity();
    // Written by this process, or checked in full before as it is now: the
    // header is checked, the sum and the walk over the records are not.
    // Only a check in full writes the note: the builder's word covers its
    // own use of the file, not a later reader's.
    const bool written = known_checksum.has_value();
    if (!written) known_checksum = detail::verified_checksum(path, id);
    try {
        c.attach(known_checksum);
    } catch (const Error& e) {
        throw e.with_context(path);
    }
    if (!written && known_checksum != c.header_->checksum) detail::mark_verified(path, id, c.header_->checksum);
    return c;
}

Cache Cache::from_image(std::string image) {
    Cache c;
    c.storage_ = std::make_unique<Storage>();
    c.storage_->memory = std::move(image);
    c.image_ = c.storage_->memory;
    c.attach();
    return c;
}

void Cache::attach(std::optional<uint64_t> known_checksum) {
    std::string_view img = image_;
    if (img.size() < sizeof(Header)) corrupt("file too short for a header (" + std::to_string(img.size()) + " bytes)");
    if (reinterpret_cast<uintptr_t>(img.data()) % 8 != 0) corrupt("image not aligned");
    const Header& h = *reinterpret_cast<const Header*>(img.data());
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) corrupt("bad magic");
    if (h.format_version != kFormatVersion)
        corrupt("format version " + std::to_string(h.format_version) + ", expected " + std::to_string(kFormatVersion));
    if (h.header_size != sizeof(Header)) corrupt("bad header size");
    if (h.file_size != img.size())
        corrupt("size " + std::to_string(img.size()) + " differs from the recorded " + std::to_string(h.file_size) +
                " (truncated?)");
    if (known_checksum != h.checksum) {  // see open_written
        Header zeroed = h;
        zeroed.checksum = 0;
        uint64_t sum = detail::checksum(reinterpret_cast<const char*>(&zeroed), sizeof zeroed);
        sum = detail::checksum(img.data() + sizeof(Header), img.size() - sizeof(Header), sum);
        if (sum != h.checksum) corrupt("checksum mismatch");
    }
    header_ = &h;

    auto offsets = section<uint32_t>(img, h, SectionId::StringOffsets);
    auto bytes = section<char>(img, h, SectionId::StringBytes);
    if (offsets.empty() || offsets[0] != 0 || offsets.back() != bytes.size()) corrupt("bad string table");
    string_offsets_ = offsets.data();
    pool_ = bytes.data();
    string_count_ = offsets.size() - 1;
    names_ = section<Name>(img, h, SectionId::Names);
    name_hash_ = section<uint32_t>(img, h, SectionId::NameHash);
    packages_ = section<Package>(img, h, SectionId::Packages);
    versions_ = section<Version>(img, h, SectionId::Versions);
    dependencies_ = section<Dependency>(img, h, SectionId::Dependencies);
    provides_ = section<Provide>(img, h, SectionId::Provides);
    version_files_ = section<VersionFile>(img, h, SectionId::VersionFiles);
    rev_deps_ = section<RevDep>(img, h, SectionId::RevDeps);
    providers_ = section<uint32_t>(img, h, SectionId::Providers);
    index_files_ = section<IndexFile>(img, h, SectionId::IndexFiles);
    releases_ = section<Release>(img, h, SectionId::Releases);
    sources_ = section<SourcePackage>(img, h, SectionId::Sources);
    section<char>(img, h, SectionId::Stamp);
    section<char>(img, h, SectionId::Warnings);

    // A file this process has just written (its sum is the one the writer
    // computed) holds the builder's own records: walking them all again
    // would only fault the whole mapping in.
    if (known_checksum != h.checksum) validate_records();
    if (storage_) {
        storage_->indices.clear();
        storage_->indices.resize(index_files_.size());
    }
}

void Cache::validate_records() const {
    const Header& h = *header_;
    // Every string within the pool: offsets that never go back.
    for (size_t i = 1; i <= string_count_; ++i)
        if (string_offsets_[i] < string_offsets_[i - 1]) corrupt("bad string table");
    const Validator v{string_count_};
    v.str(h.native_architecture, "header");
    if (name_hash_.empty() || (name_hash_.size() & (name_hash_.size() - 1)) != 0 || name_hash_.size() <= names_.size())
        corrupt("bad name hash table size");
    for (uint32_t slot : name_hash_) v.opt_index(slot, names_.size(), "name hash");
    for (const Name& n : names_) {
        v.str(n.name, "names");
        v.range(n.first_package, n.package_count, packages_.size(), "names");
        v.range(n.first_rdep, n.rdep_count, rev_deps_.size(), "names");
        v.range(n.first_provider, n.provider_count, providers_.size(), "names");
    }
    for (const Package& p : packages_) {
        v.index(p.name, names_.size(), "packages");
        v.str(p.architecture, "packages");
        v.range(p.first_version, p.version_count, versions_.size(), "packages");
        v.opt_index(p.current_version, versions_.size(), "packages");
        v.enum_value(p.selection, Selection::Purge, "packages");
        v.enum_value(p.status_flag, StatusFlag::Reinstreq, "packages");
        v.enum_value(p.state, InstallState::Installed, "packages");
    }
    for (const Version& x : versions_) {
        v.index(x.package, packages_.size(), "versions");
        for (StringId s : {x.version, x.architecture, x.section, x.source_name, x.source_version, x.short_description})
            v.str(s, "versions");
        v.range(x.first_dependency, x.dependency_count, dependencies_.size(), "versions");
        v.range(x.first_provide, x.provide_count, provides_.size(), "versions");
        v.range(x.first_file, x.file_count, version_files_.size(), "versions");
        v.opt_index(x.description_file, index_files_.size(), "versions");
        v.enum_value(x.priority, Priority::Extra, "versions");
        v.enum_value(x.multi_arch, MultiArch::Allowed, "versions");
    }
    for (const Dependency& d : dependencies_) {
        v.index(d.target, names_.size(), "dependencies");
        v.str(d.version, "dependencies");
        v.str(d.arch_qualifier, "dependencies");
        v.enum_value(d.type, DepType::Replaces, "dependencies");
        v.enum_value(d.op, DepOp::Greater, "dependencies");
    }
    for (const Provide& p : provides_) {
        v.index(p.version, versions_.size(), "provides");
        v.index(p.name, names_.size(), "provides");
        v.str(p.provided_version, "provides");
        v.str(p.provided_arch, "provides");
    }
    for (const VersionFile& f : version_files_) {
        v.index(f.version, versions_.size(), "version files");
        v.index(f.index_file, index_files_.size(), "version files");
    }
    for (const RevDep& r : rev_deps_) {
        v.index(r.version, versions_.size(), "rdepends");
        v.index(r.dependency, dependencies_.size(), "rdepends");
    }
    for (uint32_t p : providers_) v.index(p, provides_.size(), "providers");
    for (const IndexFile& f : index_files_) {
        for (StringId s : {f.path, f.component, f.architecture, f.language, f.site, f.description}) v.str(s, "index files");
        v.opt_index(f.release, releases_.size(), "index files");
        v.enum_value(f.kind, IndexKind::Status, "index files");
        v.enum_value(Compression(f.compression), Compression::Bzip2, "index files");
    }
    for (const Release& r : releases_)
        for (StringId s : {r.path, r.origin, r.label, r.suite, r.codename, r.version, r.date, r.valid_until,
                           r.architectures, r.components})
            v.str(s, "releases");
    for (const SourcePackage& s : sources_) {
        for (StringId id : {s.name, s.version, s.binaries, s.section, s.maintainer, s.directory}) v.str(id, "sources");
        v.index(s.index_file, index_files_.size(), "sources");
    }
}

Diagnostics Cache::build_diagnostics() const {
    const SectionRef& s = header_->sections[uint32_t(SectionId::Warnings)];
    std::string_view text = image_.substr(s.offset, s.count);
    Diagnostics out;
    while (!text.empty()) {
        size_t nul = text.find('\0');
        std::string_view one = text.substr(0, nul);
        if (!one.empty()) out.push_back({one[0] == 'N' ? Level::Notice : Level::Warning, std::string(one.substr(1))});
        if (nul == std::string_view::npos) break;
        text.remove_prefix(nul + 1);
    }
    return out;
}

std::string_view Cache::stamp() const {
    const SectionRef& s = header_->sections[uint32_t(SectionId::Stamp)];
    return image_.substr(s.offset, s.count);
}

std::optional<uint32_t> Cache::find_name(std::string_view name) const {
    // At most one lap: a table the builder wrote always has an empty slot,
    // but a damaged file may fill them all, and must not loop forever.
    size_t mask = name_hash_.size() - 1;
    // Names are case-insensitive as apt's: the table hashes them in lower case.
    size_t i = detail::hash_name(name) & mask;
    for (size_t probes = 0; probes < name_hash_.size(); ++probes, i = (i + 1) & mask) {
        uint32_t n = name_hash_[i];
        if (n == kNone) return std::nullopt;
        std::string_view have = str(names_[n].name);
        if (have == name || (have.size() == name.size() && iequals(have, name))) return n;
    }
    return std::nullopt;
}

const Package* Cache::find_package(std::string_view name, std::string_view arch) const {
    auto n = find_name(name);
    if (!n) return nullptr;
    for (const Package& p : packages_of(*n))
        if (str(p.architecture) == arch) return &p;
    return nullptr;
}

std::span<const SourcePackage> Cache::find_sources(std::string_view name) const {
    auto lo = std::lower_bound(sources_.begin(), sources_.end(), name,
                               [&](const SourcePackage& s, std::string_view n) { return str(s.name) < n; });
    auto hi = lo;
    while (hi != sources_.end() && str(hi->name) == name) ++hi;
    return {lo, hi};
}

std::string_view Cache::region(uint32_t index_file, uint32_t offset, uint32_t length) const {
    Storage::Loaded& l = storage_->indices.at(index_file);
    const IndexFile& f = index_files_[index_file];
    if (!l.loaded) {
        std::string path(str(f.path));
        if (Compression(f.compression) == Compression::None) {
            l.mapped.emplace(path);
            l.view = l.mapped->view();
        } else {
            l.decompressed = read_decompressed(path);
            l.view = l.decompressed;
        }
        l.loaded = true;
    }
    if (offset > l.view.size() || length > l.view.size() - offset)
        throw Error(std::string(str(f.path)) + ": changed since the cache was built");
    return l.view.substr(offset, length);
}

std::string_view Cache::stanza(const VersionFile& f) const { return region(f.index_file, f.offset, f.length); }
std::string_view Cache::stanza(const SourcePackage& s) const { return region(s.index_file, s.offset, s.length); }

void Cache::drop_resident_pages() const {
    if (storage_->file) storage_->file->drop_resident();
    for (const Storage::Loaded& l : storage_->indices)
        if (l.mapped) l.mapped->drop_resident();
}

std::string_view Cache::long_description(const Version& v) const {
    if (v.description_file == kNone) return {};
    return region(v.description_file, v.description_offset, v.description_length);
}

}  // namespace aptus::cache
