// The relation fields of one package record (Depends ... Breaks) as solver
// dependencies: what the EDSP reader's relation source fills a version with.
#pragma once

#include <string_view>
#include <vector>

#include "aptus/solver/universe.hpp"

namespace aptus::edsp {

// `stanza` is the record's text; names are interned with `intern`; errors
// name `file`:`line`.
void parse_stanza_relations(solver::NameInterner intern, std::string_view stanza, std::string_view file, uint32_t line,
                            std::vector<solver::Dependency>& out);

}  // namespace aptus::edsp
