// The dpkg status file and apt's extended_states, as the cache builder reads
// them (with a Packages file beside them, so marks and installed versions
// meet available ones). Input: status, extended_states and Packages,
// separated by NUL bytes. Whatever they hold, the cache built from them must
// pass the cache's own validation and walk.
#include <cstdint>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/cache/build.hpp"
#include "aptus/cache/cache.hpp"
#include "fuzz/cache_walk.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto files = fuzz::parts(fuzz::text(data, size), 3);
    fuzz::Scratch& scratch = fuzz::Scratch::get();
    cache::CacheInputs in;
    in.native_architecture = "amd64";
    in.status_path = scratch.write("status", files[0]);
    in.extended_states_path = scratch.write("extended_states", files[1]);
    cache::IndexInput packages;
    packages.path = scratch.write("fuzz_dists_main_binary-amd64_Packages", files[2]);
    packages.kind = cache::IndexKind::Packages;
    packages.component = "main";
    packages.architecture = "amd64";
    packages.site = "fuzz.invalid";
    packages.description = "fuzz main amd64 Packages";
    in.indices.push_back(packages);
    cache::BuildResult built;
    try {
        built = cache::build_cache(in);
    } catch (const Error&) {
        return 0;
    }
    try {
        cache::Cache c = cache::Cache::from_image(std::move(built.image));
        fuzz::walk_cache(c);
    } catch (const Error& e) {
        fuzz::broken("the builder wrote a cache its own validation refuses");
    }
    return 0;
}
