// The JSON a command asked for with --json prints when it fails: the same
// envelope as its answer (schema_version, command) with an "error" object,
// so a script always gets a document to parse; the exit status and the
// "E:" line on stderr stay as they are.
#pragma once

#include <string>
#include <string_view>

#include "aptus/base/error.hpp"

namespace aptus::cli {

// "other", "locked", "network", "verification", "unsolvable", "dpkg".
std::string_view error_kind_name(ErrorKind kind);

// {"schema_version": 1, "command": ..., "error": {"kind": ..., "message": ...}}
// (message: what() with the follow-up lines after it).
std::string error_json(std::string_view command, const Error& error);

}  // namespace aptus::cli
