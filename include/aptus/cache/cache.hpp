// A read-only view of a binary cache (format.hpp): typed, zero-copy access to
// the arrays and strings of an mmap'd file or of an in-memory image.
//
// Opening validates everything before anything is used: header, checksum over
// the whole file, every section's bounds, and every index stored in every
// record; a file that fails any check is refused with an aptus::Error, never
// trusted. After that, the accessors do no checks of their own.
//
// Long descriptions and whole stanzas are read from the index files on demand
// (stanza(), long_description()); those calls load the file once and keep it,
// so they are not thread-safe. Everything else is safe to share between threads.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aptus/base/diagnostics.hpp"
#include "aptus/base/file.hpp"
#include "aptus/cache/format.hpp"

namespace aptus::cache {

// The note beside a cache file that a version of it was checked in full
// ("<cache>.verified"); whoever removes the cache removes it too.
std::string verified_mark_path(const std::string& cache_path);

class Cache {
public:
    // Map and validate a cache file. Throws aptus::Error saying what is wrong.
    static Cache open(const std::string& path);
    // open() of a file this process has just written whole, with this
    // checksum in its header: when the header's sum is that one, the file
    // holds the records the builder made, and neither the sum over the whole
    // file nor the walk over every record is done again (a file replaced
    // since has another sum, and is checked in full). The header is checked.
    static Cache open_written(const std::string& path, uint64_t checksum);
    // Validate and adopt an image built in memory (build_cache()).
    static Cache from_image(std::string image);

    Cache(Cache&&) noexcept;
    Cache& operator=(Cache&&) noexcept;
    ~Cache();

    bool in_memory() const;
    // The file it was opened from ("" in memory).
    const std::string& path() const;
    std::string_view image() const { return image_; }
    const Header& header() const { return *header_; }

    std::string_view str(StringId id) const {
        return {pool_ + string_offsets_[id], string_offsets_[id + 1] - string_offsets_[id]};
    }
    std::string_view native_architecture() const { return str(header_->native_architecture); }

    std::span<const Name> names() const { return names_; }
    std::span<const Package> packages() const { return packages_; }
    std::span<const Version> versions() const { return versions_; }
    std::span<const Dependency> dependencies() const { return dependencies_; }
    std::span<const Provide> provides() const { return provides_; }
    std::span<const VersionFile> version_files() const { return version_files_; }
    std::span<const IndexFile> index_files() const { return index_files_; }
    std::span<const Release> releases() const { return releases_; }
    std::span<const SourcePackage> sources() const { return sources_; }
    size_t string_count() const { return string_count_; }

    // The name's index, or nullopt when no package, dependency or provide names it.
    std::optional<uint32_t> find_name(std::string_view name) const;
    std::string_view name_of(const Package& p) const { return str(names_[p.name].name); }
    std::span<const Package> packages_of(uint32_t name) const {
        return packages_.subspan(names_[name].first_package, names_[name].package_count);
    }
    // The package (name, architecture), or nullptr.
    const Package* find_package(std::string_view name, std::string_view arch) const;
    uint32_t index_of(const Package& p) const { return uint32_t(&p - packages_.data()); }
    uint32_t index_of(const Version& v) const { return uint32_t(&v - versions_.data()); }

    // Newest first.
    std::span<const Version> versions_of(const Package& p) const {
        return versions_.subspan(p.first_version, p.version_count);
    }
    const Version* current_version(const Package& p) const {
        return p.current_version == kNone ? nullptr : &versions_[p.current_version];
    }
    const Package& package_of(const Version& v) const { return packages_[v.package]; }
    std::span<const Dependency> dependencies_of(const Version& v) const {
        return dependencies_.subspan(v.first_dependency, v.dependency_count);
    }
    std::span<const Provide> provides_of(const Version& v) const {
        return provides_.subspan(v.first_provide, v.provide_count);
    }
    std::span<const VersionFile> files_of(const Version& v) const {
        return version_files_.subspan(v.first_file, v.file_count);
    }
    uint64_t size_of(const Version& v) const { return uint64_t(v.size_high) << 32 | v.size_low; }

    // Every dependency record naming `name` as its target, with the version
    // that declares it.
    std::span<const RevDep> rdepends(uint32_t name) const {
        return rev_deps_.subspan(names_[name].first_rdep, names_[name].rdep_count);
    }
    // Indices into provides() of every version providing `name`.
    std::span<const uint32_t> providers(uint32_t name) const {
        return providers_.subspan(names_[name].first_provider, names_[name].provider_count);
    }
    // Source packages named `name`, newest first.
    std::span<const SourcePackage> find_sources(std::string_view name) const;

    // The stanza of a version as written in its index file (Packages or
    // status); loads the index file on first use. Throws aptus::Error when
    // the file cannot be read or no longer matches.
    std::string_view stanza(const VersionFile& f) const;
    std::string_view stanza(const SourcePackage& s) const;
    // The Description field value (short line and raw continuation lines;
    // deb::field_text() unfolds it); "" when there is none.
    std::string_view long_description(const Version& v) const;

    // Hands back the resident pages of the cache file's mapping and of the
    // index files mapped so far (MappedFile::drop_resident): a pass over
    // every package, which reads most of them once, calls it now and then so
    // they do not all count in the process's memory at once. Everything
    // returned before stays valid; an in-memory cache keeps its image.
    void drop_resident_pages() const;

    // What the cache was built from (staleness.hpp).
    std::string_view stamp() const;
    // The warnings the build gave (a malformed stanza skipped, ...): a run
    // that reuses the cache shows them as the run that built it did.
    Diagnostics build_diagnostics() const;

private:
    struct Storage;
    Cache() = default;
    static Cache open_checked(const std::string& path, std::optional<uint64_t> known_checksum);
    void attach(std::optional<uint64_t> known_checksum = std::nullopt);
    // Every index and string id in range: a crafted or buggy file is refused.
    void validate_records() const;
    std::string_view region(uint32_t index_file, uint32_t offset, uint32_t length) const;

    std::unique_ptr<Storage> storage_;
    std::string_view image_;
    const Header* header_ = nullptr;
    const uint32_t* string_offsets_ = nullptr;
    const char* pool_ = nullptr;
    size_t string_count_ = 0;
    std::span<const Name> names_;
    std::span<const uint32_t> name_hash_;
    std::span<const Package> packages_;
    std::span<const Version> versions_;
    std::span<const Dependency> dependencies_;
    std::span<const Provide> provides_;
    std::span<const VersionFile> version_files_;
    std::span<const RevDep> rev_deps_;
    std::span<const uint32_t> providers_;
    std::span<const IndexFile> index_files_;
    std::span<const Release> releases_;
    std::span<const SourcePackage> sources_;
};

}  // namespace aptus::cache
