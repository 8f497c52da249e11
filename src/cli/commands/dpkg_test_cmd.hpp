#pragma once

#include "cli/command.hpp"

namespace aptus::cli {

// Hidden `internal-dpkg-test OPS-FILE`: takes the dpkg lock and runs the
// operations of OPS-FILE through the dpkg driver with the progress bar, so
// tests drive real dpkg in a sandbox root before a solver plans the work.
// One operation a line ('#' starts a comment):
//   unpack /abs/path.deb [NAME:ARCH VERSION]   (else read with dpkg-deb -f)
//   configure NAME:ARCH [VERSION]
//   remove NAME:ARCH [essential]
//   purge NAME:ARCH [essential]
// Exit 0 when dpkg succeeded; an error (exit 100) carries apt's text, and
// apt's `dpkg --configure -a` advice when dpkg left its journal behind.
int run_internal_dpkg_test(Context& ctx);

}  // namespace aptus::cli
