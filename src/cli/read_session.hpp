// What every read command (policy, show, list, search, showsrc, depends,
// rdepends) starts from: system::open_system for the command's
// configuration, its notices in the command's diagnostics.
#pragma once

#include <memory>

#include "aptus/system/system.hpp"
#include "cli/command.hpp"

namespace aptus::cli {

using ReadSession = system::OpenSystem;

std::unique_ptr<ReadSession> open_read_session(Context& ctx);

}  // namespace aptus::cli
