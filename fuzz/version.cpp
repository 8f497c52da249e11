// Debian versions: parsing in both strictness levels, the warning text, and
// comparison, which must be an order: antisymmetric, reflexive, transitive.
// Input: up to three versions separated by NUL bytes.
#include <cstdint>

#include "aptus/base/error.hpp"
#include "aptus/deb/version.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

namespace {
int sign(int x) { return (x > 0) - (x < 0); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto v = fuzz::parts(fuzz::text(data, size), 3);
    for (std::string_view s : v) {
        for (auto check : {deb::VersionCheck::Errors, deb::VersionCheck::Strict}) {
            try {
                deb::Version p = deb::parse_version(s, check);
                if (p.upstream.empty()) fuzz::broken("parsed version with an empty upstream");
                if (deb::compare_versions(p, p) != 0) fuzz::broken("parsed version unequal to itself");
            } catch (const Error&) {
            }
        }
        (void)deb::version_warning(s);
        if (deb::compare_versions(s, s) != 0) fuzz::broken("version unequal to itself");
    }
    int ab = sign(deb::compare_versions(v[0], v[1]));
    int ba = sign(deb::compare_versions(v[1], v[0]));
    if (ab != -ba) fuzz::broken("compare_versions not antisymmetric");
    int bc = sign(deb::compare_versions(v[1], v[2]));
    int ac = sign(deb::compare_versions(v[0], v[2]));
    if (ab <= 0 && bc <= 0 && ac > 0) fuzz::broken("compare_versions not transitive");
    if (ab >= 0 && bc >= 0 && ac < 0) fuzz::broken("compare_versions not transitive");
    return 0;
}
