// Carrying out a plan the user accepted: the .debs fetched into the archives
// dir, the dpkg work ordered and run, then the state apt keeps (the
// Auto-Installed marks, history.log). The caller holds the dpkg lock from
// before it read the system until this returns, as apt does. Nothing is
// printed: the observer hears of downloads, dpkg and warnings as they come.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/install/archives.hpp"
#include "aptus/install/plan.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/dpkg_run.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::install {

struct Execution {
    const system::SystemUniverse& su;
    const cache::Cache& cache;
    const Plan& plan;
    system::DpkgLock& lock;
    // Named by the request, installed and automatic until now: manual after it.
    const std::vector<const cache::Package*>& now_manual;
};

struct ExecuteObserver {
    DownloadObserver download;
    // Called just before dpkg runs (after the downloads): the observer of
    // dpkg's progress and output for this run; dpkg_finished when it ended,
    // whether it failed or not (a front end gives its progress line back).
    std::function<system::DpkgObserver()> dpkg_starting;
    std::function<void()> dpkg_finished;
    // Warnings as they come: a damaged extended_states, an order problem
    // (Debug::Aptus::Order).
    std::function<void(const Diagnostic&)> diagnostic;
};

enum class Executed { Installed, DownloadOnly };

// Downloads, then (unless APT::Get::Download-Only) runs dpkg and writes the
// state. Throws aptus::Error for what ends the run: a failed download (kind
// Network), dpkg failing (kind Dpkg, after the failure was written to the
// history log; `dpkg --configure -a` finishes what dpkg left unfinished).
Executed execute_plan(const config::Config& config, const Execution& run, const ExecuteObserver& observer);

// Clears the automatic mark of `packages` in extended_states (and drops the
// stanzas of packages dpkg removed); problems with the file go to `diags`.
void write_manual_marks(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Package*>& packages, Diagnostics& diags);

}  // namespace aptus::install
