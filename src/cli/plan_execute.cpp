#include "cli/plan_execute.hpp"

#include <cstdio>
#include <memory>
#include <unistd.h>

#include "aptus/base/error.hpp"
#include "cli/archive_download.hpp"
#include "cli/dpkg_progress.hpp"
#include "cli/output.hpp"
#include "cli/terminal.hpp"
#include "cli/exit_status.hpp"
#include "cli/message.hpp"

namespace aptus::cli {

system::DpkgLock take_dpkg_lock(const config::Config& config) {
    const bool tty = ::isatty(STDOUT_FILENO) == 1;
    // The lock keeps its callback: nothing in it may refer to this frame.
    auto waited = std::make_shared<bool>(false);
    system::DpkgLock lock(config, [tty, waited](std::string_view reason, long seconds, long timeout) {
        *waited = true;
        std::string line = "Waiting for cache lock: " + std::string(reason) + "...";
        if (tty) {
            line = "\r" + line + " " + std::to_string(seconds);
            if (timeout >= 0) line += "/" + std::to_string(timeout);
            line += "s";
        } else {
            line += "\n";
        }
        std::fputs(line.c_str(), stdout);
        std::fflush(stdout);
    });
    if (*waited && tty) std::fputs("\n", stdout);
    return lock;
}

int execute_plan(const config::Config& config, const install::Execution& run) {
    FetchScreen screen(effective_quiet(config), config);
    std::unique_ptr<DpkgProgress> progress;
    install::ExecuteObserver observer;
    observer.download = download_observer(screen);
    observer.diagnostic = [](const Diagnostic& d) { render({d}); };
    observer.dpkg_starting = [&] {
        std::fflush(stdout);
        progress = std::make_unique<DpkgProgress>(config);
        return progress->observer();
    };
    observer.dpkg_finished = [&] { progress.reset(); };
    install::Executed done;
    try {
        done = install::execute_plan(config, run, observer);
    } catch (const Error& e) {
        screen.clear();
        if (e.kind() != ErrorKind::Dpkg) throw;
        std::fflush(stdout);
        print_message(MessageLevel::Error, e.what());
        print_message(MessageLevel::Notice, "dpkg did not finish: after fixing the cause, run 'dpkg --configure -a' "
                                            "(then 'aptus install' again).");
        return kExitError;
    }
    if (done == install::Executed::DownloadOnly) std::printf("Download complete and in download only mode\n");
    return 0;
}

void write_manual_marks(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Package*>& packages) {
    Diagnostics diags;
    install::write_manual_marks(config, cache, packages, diags);
    render(diags);
}

}  // namespace aptus::cli
