// apt.conf syntax. '#include' reads other files, which is not this text's
// parsing: inputs naming it are skipped.
#include <cstdint>

#include "aptus/base/error.hpp"
#include "aptus/config/config.hpp"
#include "aptus/config/parser.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view in = fuzz::text(data, size);
    if (in.find("include") != std::string_view::npos) return 0;
    config::Config config;
    Diagnostics diags;
    try {
        config::read_config_text(config, in, "fuzz.conf", diags);
    } catch (const Error&) {
    }
    size_t n = 0;
    config.for_each([&](const config::Config::Entry& e) {
        if (++n < 64) try {
            (void)config.find(e.full_name);
            (void)config.find_list(e.full_name);
            (void)config.find_bool(e.full_name);
            (void)config.find_int(e.full_name);
            (void)config.children(e.full_name);
        } catch (const Error&) {
        }
    });
    (void)config.find_dir("Dir::State");
    (void)config.find_file("Dir::State::status");
    return 0;
}
