// Reading apt.conf syntax into a Config, with apt's grammar and quirks:
// `A::B "v";`, scopes `A { B "v"; };`, list items `A:: "v";` and `A { "v"; };`,
// `#include FILE;` / `#include DIR/;`, `#clear A::B;`, comments (`//`, `#`,
// `/* */`). Syntax errors throw aptus::Error located at file:line.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/base/diagnostics.hpp"

namespace aptus::config {

// Parse `text` as if it were the file `name` (for messages and relative
// directives). `depth` counts nested #include levels.
void read_config_text(Config& config, std::string_view text, const std::string& name, Diagnostics& diags,
                      unsigned depth = 0);
void read_config_file(Config& config, const std::string& path, Diagnostics& diags, unsigned depth = 0);
// Every acceptable file of a directory (see config_dir_files), in order.
void read_config_dir(Config& config, const std::string& dir, Diagnostics& diags, unsigned depth = 0);

// The files of a parts directory apt would read, sorted bytewise: names of
// [A-Za-z0-9_:.-] only, not starting or ending with '.', regular files (or
// links to them), with extension ".conf" or none. Other names are skipped,
// with a notice unless they match a Dir::Ignore-Files-Silently regex or have
// a character outside that set (as apt does).
std::vector<std::string> config_dir_files(const Config& config, const std::string& dir, Diagnostics& diags);

// The same rules for any parts directory, with its own extensions:
// preferences.d takes "pref" or none, sources.list.d "list" and "sources".
std::vector<std::string> parts_dir_files(const Config& config, const std::string& dir,
                                         std::initializer_list<std::string_view> extensions, bool allow_no_extension,
                                         Diagnostics& diags);

}  // namespace aptus::config
