// The on-disk layout of aptus's binary cache: one file, a header, then flat
// arrays of fixed-size records whose cross references are 32-bit indices, and
// a pool of interned strings. The file is mmap'd read-only and these structs
// are read in place, so every field has a fixed width and the layout is the
// same on every build (little-endian, naturally aligned, no pointers).
//
// Order, fixed at build time so that ranges are contiguous:
//   names     sorted by their text (byte order); the hash table points at them
//   packages  sorted by (name, architecture text): a name's packages are a range
//   versions  sorted by (package, version descending in dpkg order)
//   dependencies, provides: grouped by version, in the order versions were read
//   version files: grouped by version, in version order
//   rdepends, providers: grouped by target name, in name order
//
// Strings: id 0 is "". A string's bytes are pool[offsets[id], offsets[id+1]),
// each distinct string stored once. Text that is nearly always unique per
// version and only read for one package at a time (Filename, checksums,
// Maintainer, Homepage, the long description) is not copied: a version
// points at its stanza (and its Description field) in the index file, which
// is part of the cache's inputs, so the cache is stale the moment it
// changes. Copying those would make the pool several times larger and a
// cold build slower, for fields that `show` and the installer read from the
// stanza anyway.
#pragma once

#include <cstdint>

namespace aptus::cache {

using StringId = uint32_t;
inline constexpr uint32_t kNone = UINT32_MAX;

inline constexpr char kMagic[8] = {'A', 'P', 'T', 'U', 'S', 'C', 'C', '\n'};
inline constexpr uint32_t kFormatVersion = 12;

enum class SectionId : uint32_t {
    StringOffsets,  // uint32_t[string count + 1]
    StringBytes,    // char[]
    Names,          // Name[]
    NameHash,       // uint32_t[power of two]: name index or kNone, linear probing, by the
                    // name in ASCII lower case (names are case-insensitive, as apt's)
    Packages,       // Package[]
    Versions,       // Version[]
    Dependencies,   // Dependency[]
    Provides,       // Provide[]
    VersionFiles,   // VersionFile[]
    RevDeps,        // RevDep[]
    Providers,      // uint32_t[]: provide indices
    IndexFiles,     // IndexFile[]
    Releases,       // Release[]
    Sources,        // SourcePackage[]
    Stamp,          // char[]: what the cache was built from (see staleness.hpp)
    Warnings,       // char[]: the build's diagnostics, each "W" or "N", the text, '\0'
    Count
};
inline constexpr uint32_t kSectionCount = uint32_t(SectionId::Count);

struct SectionRef {
    uint64_t offset;  // from the start of the file, 8-byte aligned
    uint64_t count;   // elements, not bytes
};

struct Header {
    char magic[8];
    uint32_t format_version;
    uint32_t header_size;  // sizeof(Header)
    uint64_t file_size;
    // fast_hash (checksum.hpp) of the whole file with this field zeroed.
    uint64_t checksum;
    StringId native_architecture;
    uint32_t reserved;
    SectionRef sections[kSectionCount];
};

struct Name {
    StringId name;
    uint32_t first_package, package_count;    // into Packages
    uint32_t first_rdep, rdep_count;          // into RevDeps
    uint32_t first_provider, provider_count;  // into Providers
};

// dpkg's three status words (dpkg-query(1)).
enum class Selection : uint8_t { Unknown, Install, Hold, Deinstall, Purge };
enum class StatusFlag : uint8_t { Ok, Reinstreq };
enum class InstallState : uint8_t {
    NotInstalled, ConfigFiles, HalfInstalled, Unpacked, HalfConfigured, TriggersAwaited, TriggersPending, Installed
};

enum PackageFlags : uint8_t {
    kPackageAuto = 1,       // extended_states: Auto-Installed: 1
    kPackageInStatus = 2,   // the dpkg status has a stanza for it
};

struct Package {
    uint32_t name;  // index into Names
    StringId architecture;
    uint32_t first_version, version_count;
    // The version dpkg has on the system (status other than not-installed and
    // config-files); kNone otherwise.
    uint32_t current_version;
    Selection selection;
    StatusFlag status_flag;
    InstallState state;
    uint8_t flags;  // PackageFlags
};

enum class Priority : uint8_t { Unknown, Required, Important, Standard, Optional, Extra };
enum class MultiArch : uint8_t { No, Same, Foreign, Allowed };

enum VersionFlags : uint16_t {
    kVersionEssential = 1,
    kVersionImportant = 2,
    kVersionProtected = 4,
    kVersionInStatus = 8,  // one of its files is the dpkg status
    // Bits 8-15: Phased-Update-Percentage + 1 when the stanza that made the
    // version gave one below 100 (0: not phased). Kept in the flags so the
    // record keeps its size; read through phased_percentage().
    kVersionPhaseShift = 8,
};

// A version's Phased-Update-Percentage, 100 when it is not phased (as apt).
inline unsigned phased_percentage(uint16_t version_flags) {
    unsigned stored = version_flags >> kVersionPhaseShift;
    return stored == 0 ? 100 : stored - 1;
}

struct Version {
    uint32_t package;
    StringId version, architecture;  // architecture as written: "all" stays "all"
    StringId section, source_name, source_version;
    StringId short_description;
    uint32_t installed_size;  // KiB, as in Installed-Size
    uint32_t size_low, size_high;  // Size in bytes, split to keep 4-byte alignment
    uint32_t first_dependency, dependency_count;
    uint32_t first_provide, provide_count;
    uint32_t first_file, file_count;
    // Where the long description is: the whole Description(-<lang>) field value
    // (short line included, continuation lines raw) in an index file; kNone
    // when neither the stanza nor a Translation file has one.
    uint32_t description_file, description_offset, description_length;
    Priority priority;
    MultiArch multi_arch;
    uint16_t flags;  // VersionFlags
};

enum class DepType : uint8_t { Depends, PreDepends, Recommends, Suggests, Enhances, Breaks, Conflicts, Replaces };
// Same values as deb::RelationOp.
enum class DepOp : uint8_t { None, Less, LessEq, Equal, GreaterEq, Greater };

enum DependencyFlags : uint8_t {
    kDepOrNext = 1,  // the next record is another alternative of this group
};

struct Dependency {
    uint32_t target;           // index into Names
    StringId version;          // 0 when op is None
    StringId arch_qualifier;   // 0 when there is no ":arch"
    DepType type;
    DepOp op;
    uint8_t flags;  // DependencyFlags
    uint8_t reserved;
};

struct Provide {
    uint32_t version;  // the providing version
    uint32_t name;     // index into Names: what is provided
    StringId provided_version;  // 0 when unversioned
    // The architecture the Provides names ("bar:i386"); 0 when it names
    // none and the provider's own is meant.
    StringId provided_arch;
};

// One (version, index file) association: where the version's stanza is in
// the decompressed index file, so `show` can print it whole.
struct VersionFile {
    uint32_t version;
    uint32_t index_file;
    uint32_t offset, length;
};

struct RevDep {
    uint32_t version;     // the depending version
    uint32_t dependency;  // index into Dependencies
};

enum class IndexKind : uint8_t { Packages, Sources, Translation, Status };

enum IndexFileFlags : uint16_t {
    // Its repository is authenticated: a signed Release is stored beside it
    // (InRelease, or Release with Release.gpg), or its entry says trusted=yes
    // (and not trusted=no). What comes only from other files cannot be
    // authenticated, as apt-get's "WARNING: The following packages cannot be
    // authenticated!" says.
    kIndexTrusted = 1,
    // Given for this run only (--with-source, a .deb named on the command
    // line: system/volatile_sources.hpp); its files lie beside it.
    kIndexFromCommandLine = 2,
};

struct IndexFile {
    StringId path;
    IndexKind kind;
    uint8_t compression;  // aptus::Compression
    uint16_t flags;       // IndexFileFlags
    StringId component, architecture, language, site;
    uint32_t release;  // index into Releases, kNone for none (status, local files)
    StringId description;  // as apt shows the file: "http://host/debian bookworm/main amd64 Packages"
    uint64_t size;      // of the file as found (compressed)
    int64_t mtime_ns;
};

enum ReleaseFlags : uint32_t {
    kReleaseNotAutomatic = 1,
    kReleaseButAutomaticUpgrades = 2,
    kReleaseAcquireByHash = 4,
    kReleaseMissing = 8,  // the file could not be read or parsed
};

struct Release {
    StringId path;
    StringId origin, label, suite, codename, version, date, valid_until;
    StringId architectures, components;  // space-separated, as in the file
    uint32_t flags;  // ReleaseFlags
};

struct SourcePackage {
    StringId name, version;
    StringId binaries;  // the Binary field as written
    StringId section, maintainer, directory;
    uint32_t index_file, offset, length;  // the stanza, as in VersionFile
};

}  // namespace aptus::cache
