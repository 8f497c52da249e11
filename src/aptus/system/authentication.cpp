#include "aptus/system/authentication.hpp"

namespace aptus::system {

bool is_authenticated(const cache::Cache& cache, const cache::Version& version) {
    for (const cache::VersionFile& vf : cache.files_of(version)) {
        const cache::IndexFile& f = cache.index_files()[vf.index_file];
        if (f.kind == cache::IndexKind::Packages && (f.flags & cache::kIndexTrusted)) return true;
    }
    return false;
}

}  // namespace aptus::system
