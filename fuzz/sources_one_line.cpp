// One-line sources.list files.
#include <cstdint>

#include "aptus/base/error.hpp"
#include "aptus/sources/one_line.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        for (const sources::SourceEntry& e : sources::parse_one_line_file(fuzz::text(data, size), "fuzz.list")) {
            (void)e.is_flat();
            (void)e.location.apt_name();
            for (const sources::SourceOption& o : e.options) (void)e.option_values(o.key, {"x"});
        }
    } catch (const Error&) {
    }
    return 0;
}
