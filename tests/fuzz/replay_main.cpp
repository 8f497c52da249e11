// Replays tests/fuzz/regressions/<target>/* through each fuzz target's
// LLVMFuzzerTestOneInput, built with the normal compiler and no libFuzzer: the
// inputs that once crashed (and one seed per target at least) stay fixed in
// every test run. Each target's entry point is renamed at compile time
// (tests/CMakeLists.txt) so all of them fit in this one program.
// Usage: fuzz_replay REGRESSIONS_DIR
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define APTUS_FUZZ_TARGET(name) extern "C" int fuzz_one_input_##name(const uint8_t*, size_t);
#include "fuzz_targets.inc"
#undef APTUS_FUZZ_TARGET

namespace {
struct Target {
    const char* name;
    int (*one_input)(const uint8_t*, size_t);
};
const Target kTargets[] = {
#define APTUS_FUZZ_TARGET(name) {#name, fuzz_one_input_##name},
#include "fuzz_targets.inc"
#undef APTUS_FUZZ_TARGET
};
}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s REGRESSIONS_DIR\n", argv[0]);
        return 2;
    }
    namespace fs = std::filesystem;
    int failures = 0;
    for (const Target& t : kTargets) {
        fs::path dir = fs::path(argv[1]) / t.name;
        std::vector<fs::path> files;
        if (fs::is_directory(dir))
            for (const auto& e : fs::directory_iterator(dir))
                if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            std::fprintf(stderr, "%s: no inputs in %s\n", t.name, dir.c_str());
            ++failures;
            continue;
        }
        for (const fs::path& f : files) {
            std::ifstream in(f, std::ios::binary);
            std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::fprintf(stderr, "%s: %s\n", t.name, f.filename().c_str());
            t.one_input(reinterpret_cast<const uint8_t*>(data.data()), data.size());
        }
        std::printf("%-18s %zu inputs replayed\n", t.name, files.size());
    }
    return failures == 0 ? 0 : 1;
}
