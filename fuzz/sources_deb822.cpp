// deb822 .sources files.
#include <cstdint>

#include "aptus/base/error.hpp"
#include "aptus/sources/deb822_sources.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        for (const sources::SourceEntry& e : sources::parse_deb822_sources(fuzz::text(data, size), "fuzz.sources")) {
            (void)e.location.apt_name();
            (void)e.is_flat();
            for (const sources::SourceOption& o : e.options) (void)e.option_values(o.key, {"x"});
        }
    } catch (const Error&) {
    }
    return 0;
}
