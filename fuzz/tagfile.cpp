// deb822 tag files (Packages, Sources, status, Release bodies): every stanza
// and field the reader returns must lie inside the buffer it was given.
#include <cstdint>

#include "aptus/base/error.hpp"
#include "aptus/deb/tagfile.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view in = fuzz::text(data, size);
    for (int mode = 0; mode < 3; ++mode) {
        deb::TagFileOptions options;
        options.allow_comments = mode == 1;
        if (mode == 2) options.max_line_length = 64;
        try {
            deb::TagFileReader reader(in, "fuzz", options);
            deb::Stanza s;
            while (reader.next(s)) {
                if (!fuzz::within(s.raw, in)) fuzz::broken("stanza outside the buffer");
                for (const deb::Field& f : s.fields) {
                    if (!fuzz::within(f.name, in) || !fuzz::within(f.value, in)) fuzz::broken("field outside the buffer");
                    if (f.name.empty()) fuzz::broken("empty field name");
                    (void)deb::field_text(f.value);
                    if (s.find(f.name) == nullptr) fuzz::broken("a field find() cannot find");
                }
                (void)s.value_or_empty("Package");
            }
        } catch (const Error&) {
        }
    }
    return 0;
}
