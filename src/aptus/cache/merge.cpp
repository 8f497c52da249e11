// Joining the state of a second Packages reader into the first. The second
// part's stanzas are replayed in read order, and each of its strings is
// interned into the first part's pool when the replay first needs it, in the
// order add_binary_stanza interns them. So the pool, the versions and every
// array come out as if one thread had read all the stanzas in order: the
// cache file does not depend on how the work was split or on timing.
#include "build_state.hpp"

namespace aptus::cache::detail {

void merge_part(BuildState& st, BuildState& part) {
    HugeVector<StringId> string_map(part.pool.size(), kNone);
    auto str = [&](StringId id) {
        StringId& m = string_map[id];
        if (m == kNone) m = st.pool.intern(part.pool.view(id));
        return m;
    };
    auto name = [&](uint32_t part_name) { return st.name(str(part.names[part_name])); };

    for (const BuildState::StanzaRecord& r : part.log) {
        if (r.name == kNone) {  // a file starts: its architecture is interned first
            str(r.index_arch);
            continue;
        }
        str(r.arch);
        StringId name_str = str(r.name);
        uint32_t pkg = st.package(st.name(name_str), str(r.pkg_arch));
        if (r.ver == kNone) continue;
        StringId ver_str = str(r.version);
        uint32_t ver = st.find_version(pkg, ver_str);
        if (ver == kNone) {
            // New to the first part: this record is the stanza that created
            // the version in the second part, so its fields are this stanza's.
            const Version& from = part.versions[r.ver];
            ver = uint32_t(st.versions.size());
            Version v = from;
            v.package = pkg;
            v.version = ver_str;
            v.architecture = str(from.architecture);
            v.section = str(from.section);
            v.source_name = str(from.source_name);
            v.source_version = str(from.source_version);
            v.short_description = str(from.short_description);
            v.first_dependency = uint32_t(st.dependencies.size());
            for (uint32_t i = 0; i < from.dependency_count; ++i) {
                Dependency d = part.dependencies[from.first_dependency + i];
                d.target = name(d.target);
                d.version = str(d.version);
                d.arch_qualifier = str(d.arch_qualifier);
                st.dependencies.push_back(d);
            }
            v.first_provide = uint32_t(st.provides.size());
            for (uint32_t i = 0; i < from.provide_count; ++i) {
                const Provide& p = part.provides[from.first_provide + i];
                uint32_t target = name(p.name);
                st.provides.push_back({ver, target, str(p.provided_version)});
            }
            st.versions.push_back(v);
            st.next_version.push_back(st.packages[pkg].first_version);
            st.version_md5.push_back(part.version_md5[r.ver]);
            st.packages[pkg].first_version = ver;
            ++st.packages[pkg].version_count;
        }
        st.files.push_back({ver, r.file, r.offset, r.length});
    }
    for (Diagnostic& d : part.diagnostics) st.diagnostics.push_back(std::move(d));
}

}  // namespace aptus::cache::detail
