#include "cli/commands/edit_sources_cmd.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/sources/source_list.hpp"
#include "cli/exit_status.hpp"
#include "cli/prompt.hpp"
#include "cli/message.hpp"

extern char** environ;

namespace aptus::cli {
namespace {

// The file apt edits: Dir::Etc::sourcelist, or NAME in Dir::Etc::sourceparts
// (".list" added when the name has neither that nor ".sources").
std::string file_to_edit(const config::Config& config, const std::vector<std::string>& args) {
    if (args.empty()) return config.find_file("Dir::Etc::sourcelist");
    std::string name = args[0];
    if (name.find('/') != std::string::npos) return name;
    if (!name.ends_with(".list") && !name.ends_with(".sources")) name += ".list";
    return config.find_dir("Dir::Etc::sourceparts") + name;
}

// The editor on the user's terminal (stdin, stdout and stderr are ours).
void edit(const std::string& path) {
    std::string editor = "sensible-editor";
    if (::access("/usr/bin/sensible-editor", X_OK) != 0) {
        const char* visual = std::getenv("VISUAL");
        const char* plain = std::getenv("EDITOR");
        editor = visual && *visual ? visual : plain && *plain ? plain : "vi";
    }
    std::string file = path;
    char* argv[] = {editor.data(), file.data(), nullptr};
    std::fflush(stdout);
    pid_t pid = 0;
    if (int rc = ::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv, environ); rc != 0)
        throw system_error("Could not run the editor", editor, rc);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

std::string content_of(const std::string& path) {
    try {
        return read_file(path);
    } catch (const Error&) {
        return {};
    }
}

}  // namespace

int run_edit_sources(Context& ctx) {
    const config::Config& config = ctx.config;
    const std::string path = file_to_edit(config, ctx.args);
    const std::string before = content_of(path);
    for (;;) {
        edit(path);
        try {
            Diagnostics ignored;
            sources::read_sources(config, ignored);
            break;
        } catch (const Error& e) {
            std::fflush(stdout);
            print_message(MessageLevel::Error, e.what());
            if (!ask_yes_no(config, "Failed to parse " + path + ". Edit again?")) return kExitError;
        }
    }
    if (content_of(path) != before)
        std::printf("Your '%s' file changed, please run '%s update'.\n", path.c_str(),
                    advice_program(config) == "aptus" ? "aptus" : "apt-get");
    return kExitSuccess;
}

}  // namespace aptus::cli
