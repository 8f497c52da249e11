// `aptus download PKG[=VER|/RELEASE]...`: the candidate (or named) version's
// .deb into the current directory, as apt-get download.
#pragma once

#include <span>

#include "cli/command.hpp"

namespace aptus::cli {

int run_download(Context& ctx);

}  // namespace aptus::cli
