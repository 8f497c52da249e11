// `aptus changelog PKG...` (apt-get changelog): each package's changelog,
// of its installed version, else its candidate (or `=version`), fetched from
// where system::changelog_source says and shown (through the pager on a
// terminal); --print-uris lists the URIs, -d stores SOURCE.changelog in the
// current directory.
#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

int run_changelog(Context& ctx);

}  // namespace aptus::cli
