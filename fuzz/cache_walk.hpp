// Every accessor of a validated cache over every record: after Cache::open
// accepted a file, none of this may read out of bounds. stanza() and
// long_description() are left out: they open the index files the cache
// names, which is not the cache file's reading.
#pragma once

#include "aptus/base/compression.hpp"
#include "aptus/cache/cache.hpp"
#include "fuzz/fuzz_util.hpp"

namespace aptus::fuzz {

// The enums open() promises are in range (readers switch on them or index
// tables by them, as depends' apt_field_rank does).
inline void check_enums(const cache::Cache& c) {
    using namespace cache;
    for (const Package& p : c.packages())
        if (p.selection > Selection::Purge || p.status_flag > StatusFlag::Reinstreq || p.state > InstallState::Installed)
            broken("package state out of range");
    for (const Version& v : c.versions())
        if (v.priority > Priority::Extra || v.multi_arch > MultiArch::Allowed) broken("version enum out of range");
    for (const Dependency& d : c.dependencies())
        if (d.type > DepType::Replaces || d.op > DepOp::Greater) broken("dependency type or op out of range");
    for (const IndexFile& f : c.index_files())
        if (f.kind > IndexKind::Status || f.compression > uint8_t(Compression::Bzip2)) broken("index file enum out of range");
}

inline void walk_cache(const cache::Cache& c) {
    check_enums(c);
    size_t sink = c.native_architecture().size() + c.stamp().size() + c.image().size();
    for (size_t i = 0; i < c.string_count(); ++i) sink += c.str(cache::StringId(i)).size();
    for (uint32_t n = 0; n < c.names().size(); ++n) {
        std::string_view name = c.str(c.names()[n].name);
        (void)c.find_name(name);  // a corrupt table may miss it, but must end
        for (const cache::Package& p : c.packages_of(n)) {
            sink += c.name_of(p).size() + c.index_of(p);
            (void)c.find_package(name, c.str(p.architecture));
            if (const cache::Version* cur = c.current_version(p)) sink += cur->installed_size;
            for (const cache::Version& v : c.versions_of(p)) {
                sink += c.index_of(v) + c.size_of(v) + c.name_of(c.package_of(v)).size();
                sink += c.str(v.version).size() + c.str(v.source_name).size() + c.str(v.short_description).size();
                for (const cache::Dependency& d : c.dependencies_of(v))
                    sink += c.str(c.names()[d.target].name).size() + c.str(d.version).size();
                for (const cache::Provide& pr : c.provides_of(v))
                    sink += c.str(c.names()[pr.name].name).size() + c.versions()[pr.version].installed_size;
                for (const cache::VersionFile& f : c.files_of(v))
                    sink += c.str(c.index_files()[f.index_file].path).size() + c.versions()[f.version].file_count;
            }
        }
        for (const cache::RevDep& r : c.rdepends(n))
            sink += c.dependencies()[r.dependency].target + c.versions()[r.version].package;
        for (uint32_t pr : c.providers(n)) sink += c.provides()[pr].version;
    }
    for (const cache::IndexFile& f : c.index_files()) {
        sink += c.str(f.path).size() + c.str(f.description).size();
        if (f.release != cache::kNone) sink += c.str(c.releases()[f.release].suite).size();
    }
    for (const cache::SourcePackage& s : c.sources()) sink += c.find_sources(c.str(s.name)).size();
    (void)c.find_name("no-such-package-name");
    asm volatile("" : : "r"(sink));
}

}  // namespace aptus::fuzz
