// apt preferences (pinning) files.
#include <cstdint>

#include "aptus/base/error.hpp"
#include "aptus/policy/preferences.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Diagnostics diags;
    try {
        for (const policy::PinRecord& r : policy::parse_preferences(fuzz::text(data, size), "fuzz.pref", diags))
            for (const std::string& p : r.packages) (void)p.size();
    } catch (const Error&) {
    }
    return 0;
}
