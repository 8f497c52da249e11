// EDSP scenarios (what apt sends an external solver). The universe read must
// be consistent (every dependency's satisfiers found) and written back as a
// scenario that reads again.
#include <cstdint>
#include <string>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/edsp/edsp.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

namespace {
// Every relation of every version, resolved; false when one does not parse
// (relations are read lazily and then throw).
bool walk(const solver::Universe& u) {
    std::vector<uint32_t> found;
    for (uint32_t v = 0; v < u.versions.size(); ++v) {
        try {
            for (const solver::Dependency& d : u.deps(v))
                for (const solver::Target& t : d.alternatives) {
                    found.clear();
                    if (solver::is_negative(d.kind)) u.conflicts_with(v, t, found);
                    else u.satisfiers(v, t, found);
                    for (uint32_t s : found)
                        if (s >= u.versions.size()) fuzz::broken("satisfier out of range");
                }
        } catch (const Error&) {
            return false;
        }
    }
    return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    edsp::Scenario sc;
    try {
        sc = edsp::read_edsp(std::string(fuzz::text(data, size)), "fuzz.edsp");
    } catch (const Error&) {
        return 0;
    }
    if (!walk(sc.universe)) return 0;
    std::string written = edsp::format_edsp_scenario(sc.universe, sc.request);
    try {
        edsp::Scenario again = edsp::read_edsp(written, "written.edsp");
        if (again.universe.versions.size() != sc.universe.versions.size()) fuzz::broken("round trip lost versions");
    } catch (const Error& e) {
        fuzz::broken("the written scenario does not read back");
    }
    return 0;
}
