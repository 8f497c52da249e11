#include "aptus/cache/staleness.hpp"

#include <sys/stat.h>

#include <cstdint>

namespace aptus::cache {
namespace {

class StampWriter {
public:
    void u64(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
    // Length-prefixed, so no two different input lists give the same bytes.
    void str(std::string_view s) {
        u64(s.size());
        out_.append(s);
    }
    void file(const std::string& path) {
        str(path);
        struct stat st {};
        if (path.empty() || ::stat(path.c_str(), &st) != 0) {
            u64(0);
            return;
        }
        u64(1);
        u64(uint64_t(st.st_size));
        u64(uint64_t(st.st_mtim.tv_sec) * 1000000000ull + uint64_t(st.st_mtim.tv_nsec));
        u64(uint64_t(st.st_ino));
        u64(uint64_t(st.st_dev));
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

}  // namespace

std::string compute_stamp(const CacheInputs& in) {
    StampWriter w;
    w.str("aptus-cache-inputs-1");
    w.str(in.fingerprint);
    w.str(in.native_architecture);
    w.u64(in.releases.size());
    for (const ReleaseInput& r : in.releases) w.file(r.path);
    w.u64(in.indices.size());
    for (const IndexInput& i : in.indices) {
        w.file(i.path);
        w.u64(uint64_t(i.kind));
        w.u64(i.release);
        w.str(i.component);
        w.str(i.architecture);
        w.str(i.language);
        w.str(i.site);
        w.str(i.description);
        w.u64(i.trusted);
        w.u64(i.from_command_line);
    }
    w.file(in.status_path);
    w.file(in.extended_states_path);
    return w.take();
}

bool is_up_to_date(const Cache& cache, const CacheInputs& inputs) { return cache.stamp() == compute_stamp(inputs); }

}  // namespace aptus::cache
