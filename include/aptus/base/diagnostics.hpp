// Notices and warnings found while reading configuration, sources and the like. The library never
// prints: it appends here and the front end decides how (and whether) to show
// them, e.g. the CLI as "N: ..." and "W: ...".
#pragma once

#include <string>
#include <vector>

namespace aptus {

enum class Level { Notice, Warning };

struct Diagnostic {
    Level level;
    std::string message;
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace aptus
