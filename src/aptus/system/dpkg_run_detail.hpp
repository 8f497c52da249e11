// The parts of the dpkg driver (dpkg_run.cpp) that live in their own files:
// the --status-fd reader (dpkg_status_fd.cpp) and the hooks (dpkg_hooks.cpp).
// Private to the system module; the unit tests include it directly.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/system/dpkg_run.hpp"

namespace aptus::system::detail {

// What dpkg's status file says about one installed (or half-installed,
// config-files...) package, as the driver needs it before the run.
struct DpkgInstalled {
    std::string version;
    std::string arch;
    std::string multi_arch;  // "none" when the field is absent
    std::string state;       // the third word of Status: installed, unpacked, config-files...
};

// Keyed by "name:arch" as the operations name packages. A missing file is
// an empty map (a fresh root).
std::map<std::string, DpkgInstalled> read_dpkg_status(const std::string& path);

// "foo" of "foo:amd64" (and of a plain "foo").
inline std::string_view package_name_part(std::string_view full) { return full.substr(0, full.find(':')); }

// The dpkg states each operation passes through, counted as apt counts its
// steps: Unpack half-installed, unpacked; Configure half-configured,
// installed; Remove half-configured, half-installed (the first skipped for
// a package that was only unpacked); Purge config-files, not-installed,
// after the two remove states when the package was installed (a removal
// of a package dpkg does not have counts nothing). One more
// step than all of these, so the bar never shows 100 % while dpkg still
// works (apt's reason: triggers run at the end).
class DpkgStatusTracker {
public:
    DpkgStatusTracker(const std::vector<DpkgOperation>& ops, const std::map<std::string, DpkgInstalled>& installed);

    struct Update {
        double percent;
        std::string text;  // "Unpacking foo (amd64)", "Preparing to configure foo (amd64)"...
    };
    // One line of --status-fd output without its newline. Returns the new
    // progress when the line moved a package on (or announced work).
    std::optional<Update> line(std::string_view text);

    // dpkg's "status: <pkg> : error : <message>" lines, in order.
    const std::vector<std::string>& errors() const { return errors_; }
    unsigned done() const { return done_; }
    unsigned total() const { return total_; }

private:
    struct State {
        const char* state;
        const char* text;
    };
    struct Package {
        std::string full_name;  // "name:arch"
        std::vector<State> states;
        size_t next = 0;
    };
    Package* find(std::string_view dpkg_name);
    Update update(std::string_view format, const Package* pkg, std::string_view dpkg_name) const;

    std::vector<Package> packages_;
    std::vector<std::string> errors_;
    unsigned done_ = 0;
    unsigned total_ = 0;
};

// A child process as the driver starts them: `fds` maps our descriptors
// to the child's (every other descriptor above the highest is closed),
// `env` adds or replaces variables, `env_default` adds them only when
// unset, `new_session` puts the child in a session of its own (so the
// terminal's ^C reaches aptus, not a dpkg in the middle of its work).
// Signal dispositions are reset to the default. Throws when it cannot start.
struct SpawnSetup {
    std::vector<std::pair<int, int>> fds;
    std::vector<std::pair<std::string, std::string>> env;
    std::vector<std::pair<std::string, std::string>> env_default;
    bool new_session = false;
    std::string directory;  // empty: ours
    // With new_session: a terminal the child opens by this path on each of
    // terminal_fds (after the `fds` mapping), which makes it the child's
    // controlling terminal (the open comes after setsid in posix_spawn).
    std::string terminal;
    std::vector<int> terminal_fds;
};
int spawn_process(const std::vector<std::string>& argv, const SpawnSetup& setup);
// Waits (through EINTR) and returns the raw wait status.
int wait_process(int pid);
// apt's words for a child that did not succeed: "Sub-process <name>
// returned an error code (N)", "... received a segmentation fault.",
// "... received signal N."; empty for success.
std::string subprocess_failure(std::string_view name, int wait_status);

// DPkg::Pre-Invoke or DPkg::Post-Invoke: every entry through /bin/sh -c,
// in order; the first that fails throws apt's "Problem executing scripts
// <key> '<command>'" / "Sub-process returned an error code".
void run_invoke_hooks(const config::Config& config, std::string_view key);

// DPkg::Pre-Install-Pkgs: every entry through /bin/sh -c with the
// operations on its standard input (or the descriptor of
// DPkg::Tools::Options::<program>::InfoFD): version 1, the .deb paths of
// the unpacks, one a line; versions 2 and 3 (DPkg::Tools::Options::<program>::Version),
// "VERSION n", the whole configuration as Key=Value lines, a blank line,
// then one line per operation. `frontend_locked` adds DPKG_FRONTEND_LOCKED.
void run_pre_install_hooks(const config::Config& config, const std::vector<DpkgOperation>& ops,
                           const std::map<std::string, DpkgInstalled>& installed, bool frontend_locked);

// The text a version 2 or 3 hook reads (exposed for the tests).
std::string pre_install_info(const config::Config& config, const std::vector<DpkgOperation>& ops,
                             const std::map<std::string, DpkgInstalled>& installed, unsigned version);

// term.log opened for appending (created when missing) with apt's owner and
// mode, set on every open as apt's dpkgpm sets them: mode 0640 and, when
// we run as root, owner root and group adm (where the system has both).
// -1 when it cannot be opened (apt goes on without the log).
int open_term_log(const std::string& path);

}  // namespace aptus::system::detail
