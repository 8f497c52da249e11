// The hooks apt runs around dpkg: DPkg::Pre-Invoke and DPkg::Post-Invoke
// (plain shell commands) and DPkg::Pre-Install-Pkgs (told what is about to
// happen on a pipe, in apt's protocol versions 1 to 3).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "aptus/base/error.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/system/dpkg_run_detail.hpp"

namespace aptus::system::detail {

namespace {

// A hook that does not read its input must not kill us with SIGPIPE.
class IgnoreSigpipe {
public:
    IgnoreSigpipe() {
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ign, &old_);
    }
    ~IgnoreSigpipe() { ::sigaction(SIGPIPE, &old_, nullptr); }
    IgnoreSigpipe(const IgnoreSigpipe&) = delete;
    IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

private:
    struct sigaction old_ {};
};

void write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the hook stopped reading: its exit status tells
        data.remove_prefix(static_cast<size_t>(n));
    }
}

// apt's QuoteString: the listed bytes, '%', blanks, control and non-ASCII
// bytes become %xx, so one Key=Value pair stays on one line.
std::string quote(std::string_view s, std::string_view bad) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        if (bad.find(c) != std::string_view::npos || u == '%' || u <= 0x20 || u >= 0x7f) {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

std::string_view arch_of(std::string_view full) {
    auto colon = full.find(':');
    return colon == std::string_view::npos ? std::string_view{} : full.substr(colon + 1);
}

std::vector<std::string> hook_commands(const config::Config& config, std::string_view key) {
    std::vector<std::string> out;
    for (auto& [name, value] : config.children(key))
        if (!value.empty()) out.push_back(value);
    return out;
}

}  // namespace

std::string subprocess_failure(std::string_view name, int status) {
    std::string n(name);
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 0) return {};
        return "Sub-process " + n + " returned an error code (" + std::to_string(WEXITSTATUS(status)) + ")";
    }
    if (WIFSIGNALED(status)) {
        if (WTERMSIG(status) == SIGSEGV) return "Sub-process " + n + " received a segmentation fault.";
        return "Sub-process " + n + " received signal " + std::to_string(WTERMSIG(status)) + ".";
    }
    return "Sub-process " + n + " exited unexpectedly";
}

void run_invoke_hooks(const config::Config& config, std::string_view key) {
    for (const auto& command : hook_commands(config, key)) {
        SpawnSetup setup;
        setup.directory = config.find_dir("DPkg::Run-Directory", "/");
        int status = wait_process(spawn_process({"/bin/sh", "-c", command}, setup));
        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
            throw Error("Problem executing scripts " + std::string(key) + " '" + command +
                        "'\nE: Sub-process returned an error code");
    }
}

std::string pre_install_info(const config::Config& config, const std::vector<DpkgOperation>& ops,
                             const std::map<std::string, DpkgInstalled>& installed, unsigned version) {
    if (version > 3) version = 3;
    std::string out = "VERSION " + std::to_string(version) + "\n";
    config.for_each([&](const config::Config::Entry& e) {
        if (e.value.empty()) return;
        out += quote(e.full_name, "=\"\n");
        out += '=';
        out += quote(e.value, "\n");
        out += '\n';
    });
    out += '\n';
    for (const auto& op : ops) {
        out += package_name_part(op.package);
        out += ' ';
        const DpkgInstalled* current = nullptr;
        if (auto it = installed.find(op.package); it != installed.end() && !it->second.version.empty() &&
                                                   it->second.state != "not-installed")
            current = &it->second;
        if (current == nullptr) {
            out += version <= 2 ? "- " : "- - none ";
        } else {
            out += current->version + ' ';
            if (version >= 3) out += current->arch + ' ' + current->multi_arch + ' ';
        }
        bool removal = op.action == DpkgAction::Remove || op.action == DpkgAction::Purge;
        if (!removal) {
            int cmp = current == nullptr ? 1 : deb::compare_versions(op.version, current->version);
            out += cmp < 0 ? "> " : cmp == 0 ? "= " : "< ";
            out += op.version + ' ';
            if (version >= 3) {
                out += std::string(arch_of(op.package)) + ' ';
                out += (op.multi_arch.empty() ? std::string("none") : op.multi_arch) + ' ';
            }
        } else {
            out += version <= 2 ? "> - " : "> - - none ";
        }
        if (op.action == DpkgAction::Unpack)
            out += (op.archive.empty() || op.archive[0] != '/') ? "**ERROR**" : op.archive;
        else if (op.action == DpkgAction::Configure)
            out += "**CONFIGURE**";
        else
            out += "**REMOVE**";
        out += '\n';
    }
    return out;
}

void run_pre_install_hooks(const config::Config& config, const std::vector<DpkgOperation>& ops,
                           const std::map<std::string, DpkgInstalled>& installed, bool frontend_locked) {
    auto commands = hook_commands(config, "DPkg::Pre-Install-Pkgs");
    if (commands.empty()) return;
    IgnoreSigpipe no_sigpipe;
    for (const auto& command : commands) {
        // The program's own settings are named by the command's first word.
        std::string program = command.substr(0, command.find(' '));
        std::string options = "DPkg::Tools::Options::" + program;
        auto version = static_cast<unsigned>(config.find_int(options + "::Version", 1));
        int info_fd = static_cast<int>(config.find_int(options + "::InfoFD", STDIN_FILENO));

        std::string info;
        if (version <= 1) {
            for (const auto& op : ops)
                if (op.action == DpkgAction::Unpack && !op.archive.empty() && op.archive[0] == '/')
                    info += op.archive + '\n';
        } else {
            info = pre_install_info(config, ops, installed, version);
        }

        int pipe_fds[2];
        if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw system_error("pipe", "Pre-Install-Pkgs", errno);
        SpawnSetup setup;
        setup.fds.push_back({pipe_fds[0], info_fd});
        if (info_fd != STDIN_FILENO) {
            setup.fds.push_back({STDIN_FILENO, STDIN_FILENO});
        }
        setup.fds.push_back({STDOUT_FILENO, STDOUT_FILENO});
        setup.fds.push_back({STDERR_FILENO, STDERR_FILENO});
        setup.env.push_back({"APT_HOOK_INFO_FD", std::to_string(info_fd)});
        if (frontend_locked) setup.env.push_back({"DPKG_FRONTEND_LOCKED", "true"});
        int pid;
        try {
            pid = spawn_process({"/bin/sh", "-c", command}, setup);
        } catch (...) {
            ::close(pipe_fds[0]);
            ::close(pipe_fds[1]);
            throw;
        }
        ::close(pipe_fds[0]);
        write_all(pipe_fds[1], info);
        ::close(pipe_fds[1]);
        std::string failure = subprocess_failure(command, wait_process(pid));
        if (!failure.empty()) throw Error(failure + "\nE: Failure running script " + command);
    }
}

}  // namespace aptus::system::detail
