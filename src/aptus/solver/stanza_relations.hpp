// The relation fields of one package record (Depends ... Breaks) as solver
// dependencies. Shared by the EDSP reader and the Universe's lazy parsing.
#pragma once

#include <string_view>
#include <vector>

#include "aptus/solver/universe.hpp"

namespace aptus::solver {

// `stanza` is the record's text; errors name `file`:`line`.
void parse_stanza_relations(Universe& u, std::string_view stanza, std::string_view file, uint32_t line,
                            std::vector<Dependency>& out);

}  // namespace aptus::solver
