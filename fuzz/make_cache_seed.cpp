// Writes a real cache file built from a dpkg status file and Packages files:
// the seed scripts/fuzz gives fuzz_cache.
// Usage: fuzz_make_cache_seed OUT STATUS [PACKAGES...]
#include <cstdio>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/cache/build.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s OUT STATUS [PACKAGES...]\n", argv[0]);
        return 2;
    }
    try {
        aptus::cache::CacheInputs in;
        in.native_architecture = "amd64";
        in.status_path = argv[2];
        for (int i = 3; i < argc; ++i) {
            aptus::cache::IndexInput p;
            p.path = argv[i];
            p.component = "main";
            p.architecture = "amd64";
            p.description = "seed main amd64 Packages";
            in.indices.push_back(p);
        }
        aptus::write_file_atomic(argv[1], aptus::cache::build_cache(in).image);
    } catch (const aptus::Error& e) {
        std::fprintf(stderr, "E: %s\n", e.what());
        return 100;
    }
    return 0;
}
