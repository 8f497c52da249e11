// The one place that says what a run's exit status is. apt's programs exit
// 0 on success, 100 for every error, and 1 when the user declined or a
// command is missing; aptus keeps those codes under every name, since the
// scripts written for apt-get test `$? -eq 100`. The error's kind
// (aptus::ErrorKind) is for front ends that need to tell failures apart;
// it does not change the status.
#pragma once

#include "aptus/base/error.hpp"

namespace aptus::cli {

constexpr int kExitSuccess = 0;
constexpr int kExitDeclined = 1;  // the user said no, or a usage error apt reports the same way
constexpr int kExitError = 100;

constexpr int exit_status(ErrorKind) { return kExitError; }

}  // namespace aptus::cli
