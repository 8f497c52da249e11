// The binary cache file: outside data (anyone who can write the cache
// directory, a truncated write, a disk error), so open must validate it and
// then every accessor must stay in bounds. The input becomes the file; its
// size and checksum fields are set to match first, or the fuzzer would never
// get past the checksum.
#include <cstdint>
#include <cstring>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/cache/hash.hpp"
#include "fuzz/cache_walk.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string file(fuzz::text(data, size));
    if (file.size() >= sizeof(cache::Header)) {
        cache::Header h;
        std::memcpy(&h, file.data(), sizeof h);
        h.file_size = file.size();
        h.checksum = 0;
        uint64_t sum = cache::detail::checksum(reinterpret_cast<const char*>(&h), sizeof h);
        sum = cache::detail::checksum(file.data() + sizeof h, file.size() - sizeof h, sum);
        h.checksum = sum;
        std::memcpy(file.data(), &h, sizeof h);
    }
    std::string path = fuzz::Scratch::get().write("pkgcache.bin", file);
    try {
        cache::Cache c = cache::Cache::open(path);
        fuzz::walk_cache(c);
    } catch (const Error&) {
    }
    try {
        cache::Cache c = cache::Cache::from_image(file);
        fuzz::walk_cache(c);
    } catch (const Error&) {
    }
    return 0;
}
