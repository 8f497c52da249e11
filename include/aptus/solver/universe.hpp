// The solver's view of the world as plain values: packages (name, arch), their
// versions with the facts the policy decided (pin, candidate, installed,
// automatic), and each version's relations. It does not know where it came
// from, nor any file format: an EDSP scenario (aptus/edsp/edsp.hpp) or the
// binary cache and policy (aptus/system/system_universe.hpp) build it, and
// whoever built it may leave the relations to be read later (RelationSource).
#pragma once

#include <cstdint>
#include <compare>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aptus/deb/relation.hpp"

namespace aptus::solver {

enum class MultiArch : uint8_t { No, Same, Foreign, Allowed };

enum class DepKind : uint8_t { Depends, PreDepends, Recommends, Suggests, Conflicts, Breaks };

std::string_view dep_kind_name(DepKind k);
// apt's pkgCache::DepType() names, as its reports print them: "PreDepends".
std::string_view apt_dep_type_name(DepKind k);
inline bool is_negative(DepKind k) { return k == DepKind::Conflicts || k == DepKind::Breaks; }

class TextTable;

// A short text of the universe (a version, an architecture, a source name),
// stored once in its universe's TextTable however many records carry it: of
// the ~120,000 versions of a system most share their architecture, many
// their version and source. 8 bytes where a std::string is 32 plus a heap
// block for anything past 15 characters. Only Universe::text() makes one
// (the default is ""); it stays valid as long as any copy of the universe
// that made it. Read it as a std::string_view.
class Text {
public:
    Text() : chars_(empty_chars()) {}
    operator std::string_view() const { return {chars_, size()}; }
    // A copy, for the many users that keep or pass a std::string (they did
    // when these fields were strings); the texts are short, mostly within
    // std::string's in-place buffer.
    operator std::string() const { return str(); }
    std::string_view view() const { return *this; }
    std::string str() const { return std::string(view()); }
    size_t size() const {
        uint32_t n;
        std::memcpy(&n, chars_ - sizeof n, sizeof n);
        return n;
    }
    bool empty() const { return size() == 0; }
    const char* c_str() const { return chars_; }  // NUL-terminated
    friend bool operator==(Text a, Text b) { return a.view() == b.view(); }
    friend bool operator==(Text a, std::string_view b) { return a.view() == b; }
    friend bool operator==(Text a, const char* b) { return a.view() == b; }
    friend bool operator==(Text a, const std::string& b) { return a.view() == b; }
    friend auto operator<=>(Text a, Text b) { return a.view() <=> b.view(); }
    friend std::string operator+(const std::string& a, Text b) { return a + std::string(b.view()); }
    friend std::string operator+(std::string&& a, Text b) { return std::move(a.append(b.view())); }
    friend std::string operator+(const char* a, Text b) { return std::string(a).append(b.view()); }
    friend std::string operator+(Text a, const char* b) { return a.str().append(b); }
    friend std::string operator+(Text a, const std::string& b) { return a.str().append(b); }
    template <class Stream>
    friend Stream& operator<<(Stream& os, Text t) { return os << t.view(); }

private:
    friend class TextTable;
    // Each stored text is [uint32 size][chars]['\0']; chars_ points at the chars.
    explicit Text(const char* chars) : chars_(chars) {}
    static const char* empty_chars();
    const char* chars_;
};

// The store behind Text: every distinct text once, in blocks that never
// move, found again through an open-addressing table of their addresses.
class TextTable {
public:
    TextTable() = default;
    TextTable(const TextTable&) = delete;
    TextTable& operator=(const TextTable&) = delete;
    Text intern(std::string_view s);
    // `s` stored without looking for an equal text: for a text known to be
    // unique (an APT-ID), which would only grow the table of lookups.
    Text add(std::string_view s);

private:
    size_t slot_of(std::string_view s, uint64_t hash) const;
    // Room for `s` in the blocks, as Text's layout has it.
    const char* store(std::string_view s);
    std::vector<std::unique_ptr<char[]>> blocks_;
    size_t block_used_ = 0, block_size_ = 0;
    std::vector<const char*> slots_;  // chars of each stored text, or null
    size_t count_ = 0;
};

// One alternative of a relation: name[:arch] [(op version)].
struct Target {
    uint32_t name = 0;       // Universe::names index
    std::string arch;        // qualifier as written ("", "any", "native", "amd64")
    deb::RelationOp op = deb::RelationOp::None;
    std::string version;
};

// One or-group (Conflicts and Breaks have exactly one alternative each).
struct Dependency {
    DepKind kind = DepKind::Depends;
    std::vector<Target> alternatives;
};

// The texts of Provide, Version and Package come from Universe::text() of
// the universe they are added to.
struct Provide {
    uint32_t name = 0;
    Text version;  // "" for an unversioned provide
    // "bar:i386" provides bar for i386 only, whatever the provider's
    // architecture; "" for the provider's own (or every one, Multi-Arch: foreign).
    Text arch;
};

// Fields in an order that leaves no padding: ~120,000 of these for a system.
struct Version {
    uint32_t package = 0;
    int pin = 500;
    Text version;
    Text arch;  // as the record says: "all" stays "all"
    Text id;    // APT-ID in EDSP; any unique text otherwise
    // Where a pin of 0 or less was set ("/etc/apt/preferences:3"), for the
    // explanation of a version it rules out; "" when not known.
    Text pin_source;
    MultiArch multi_arch = MultiArch::No;
    bool installed = false;
    bool candidate = false;
    bool essential = false;
    bool important = false;  // Protected: yes (or apt's Important)
    bool required = false;   // Priority: required
    bool hold = false;
    mutable bool deps_pending = false;  // beside the other flags: no padding of its own
    Text source, source_version;
    // Read through Universe::deps(), which asks the universe's
    // relation_source for them on first use when `deps_pending` (most
    // versions of a scenario never matter).
    mutable std::vector<Dependency> deps;
    std::vector<Provide> provides;
};

struct Package {
    uint32_t name = 0;
    bool automatic = false;  // installed as a dependency (extended_states); here, not last: no padding
    Text arch;  // "all" packages live under the native architecture
    std::vector<uint32_t> versions;
};

struct Provider {
    uint32_t version;
    uint32_t provide;  // index into Version::provides
};

class Universe;

// Interns names into a universe. A relation source gets one for the universe
// it fills, whose name table is the one thing that still grows once the
// universe is built: a name first seen in a relation is added as it is read.
class NameInterner {
public:
    explicit NameInterner(Universe& u) : u_(&u) {}
    uint32_t operator()(std::string_view name) const;

private:
    friend class Universe;
    explicit NameInterner(const Universe* u) : u_(u) {}
    const Universe* u_;
};

// Fills a version's relations (the version's index in the universe) when the
// solver first looks at them. Installed by whoever built the universe from
// something it can read again: the EDSP reader (the scenario's stanzas), the
// system universe (the binary cache). It may throw aptus::Error.
using RelationSource = std::function<void(uint32_t version, NameInterner intern, std::vector<Dependency>& deps)>;

class Universe {
public:
    std::string native_arch = "amd64";
    std::vector<std::string> architectures;  // native first

    // Where the relations of the versions marked deps_pending come from.
    RelationSource relation_source;

    // Mutable as a cache is: deps() interns the names a relation source
    // reads; an index once given never changes.
    mutable std::vector<std::string> names;
    std::vector<Package> packages;
    std::vector<Version> versions;

    // Room for this many of each up front, so a universe built in one go
    // (the system's ~130,000 versions) never moves what it has built.
    void reserve(size_t package_count, size_t version_count, size_t name_count);
    uint32_t intern(std::string_view name);
    // `s` stored once in this universe's text table, for the Text fields of
    // the records added to it.
    Text text(std::string_view s) { return texts_->intern(s); }
    // A text no other record carries (an APT-ID): stored, never looked up.
    Text unique_text(std::string_view s) { return texts_->add(s); }
    std::optional<uint32_t> find_name(std::string_view name) const;
    // The package (name, arch), created when missing. "all" maps to the native arch.
    uint32_t package(std::string_view name, std::string_view arch);
    // The same for a name already interned (an index into `names`).
    uint32_t package(uint32_t name, std::string_view arch);
    std::optional<uint32_t> find_package(std::string_view name, std::string_view arch) const;
    // Adds a version to its package (v.package must be set); returns its index.
    uint32_t add_version(Version v);

    // Builds the name -> packages and name -> providers indices; call after the
    // last add_version() and before satisfiers()/conflicts_with().
    void finalize();

    // A version's relations; parses them on first use (not thread-safe).
    const std::vector<Dependency>& deps(uint32_t version) const;

    std::span<const uint32_t> packages_named(uint32_t name) const;
    std::span<const Provider> providers_of(uint32_t name) const;

    // Every version that satisfies alternative `t` of a relation of `from`,
    // real packages first (their versions newest first), then providers.
    // Multi-Arch rules as dpkg: an unqualified relation is met within `from`'s
    // architecture or by Multi-Arch: foreign; `:any` by Multi-Arch: allowed.
    void satisfiers(uint32_t from, const Target& t, std::vector<uint32_t>& out) const;
    // The versions that `from`'s Conflicts/Breaks alternative `t` excludes: any
    // architecture, providers included, never `from`'s own package.
    void conflicts_with(uint32_t from, const Target& t, std::vector<uint32_t>& out) const;

    // "name:arch=version"
    std::string describe(uint32_t version) const;
    // "name:arch"
    std::string package_name(uint32_t package) const;
    std::string target_text(const Target& t) const;
    std::string dependency_text(const Dependency& d) const;

    const std::string& name_of_version(uint32_t v) const { return names[packages[versions[v].package].name]; }

private:
    friend class NameInterner;
    // Shared by copies of the universe, whose records point into it.
    std::shared_ptr<TextTable> texts_ = std::make_shared<TextTable>();
    uint32_t intern_name(std::string_view name) const;
    // Open addressing over indices into `names`, so a lookup costs no allocation.
    mutable std::vector<uint32_t> name_slots_;
    size_t name_slot_index(std::string_view name) const;
    std::unordered_map<uint64_t, uint32_t> package_ids_;  // (name, arch index) -> package
    std::vector<std::string> arch_names_;
    // name -> packages and name -> providers, each one flat array in name
    // order with the start of every name's run (a vector per name cost a
    // heap block for each of ~100,000 names).
    std::vector<uint32_t> by_name_start_, by_name_;
    std::vector<uint32_t> providers_start_;
    std::vector<Provider> providers_;
    uint32_t arch_index(std::string_view arch);
    std::optional<uint32_t> find_arch_index(std::string_view arch) const;
    bool arch_ok(uint32_t from, const Target& t, uint32_t candidate_version) const;
    // arch_ok for a provider, which a Provides with an architecture narrows.
    bool provide_arch_ok(uint32_t from, const Target& t, uint32_t provider, const Provide& pv) const;
};

}  // namespace aptus::solver
