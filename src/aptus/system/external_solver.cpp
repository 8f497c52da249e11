#include "aptus/system/external_solver.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/subprocess.hpp"
#include "aptus/edsp/edsp.hpp"

namespace aptus::system {
namespace {

constexpr std::string_view kDefaultSolverDir = "/usr/lib/apt/solvers";

// apt's flCombine: a name that is a path of its own stays one.
std::string combine(std::string_view dir, std::string_view name) {
    if (name.empty()) return std::string(dir);
    if (name[0] == '/' || dir.empty() || name.starts_with("./")) return std::string(name);
    std::string out(dir);
    if (out.back() != '/') out += '/';
    out += name;
    return out;
}

bool regular_file(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string first_line(std::string_view text) { return std::string(text.substr(0, text.find('\n'))); }

// Writes all of `data` to a new file (apt's dump solver truncates an old one).
bool write_plain(const char* path, std::string_view data) {
    int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    while (!data.empty()) {
        ssize_t put = ::write(fd, data.data(), data.size());
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) {
            ::close(fd);
            return false;
        }
        data.remove_prefix(size_t(put));
    }
    return ::close(fd) == 0;
}

// What the exit of the solver program says, as apt's ExecWait words it; "" for success.
std::string exit_problem(std::string_view name, const SubprocessResult& r) {
    std::string who = "Sub-process " + std::string(name);
    if (r.signal == SIGSEGV) return who + " received a segmentation fault.";
    if (r.signal != 0) return who + " received signal " + std::to_string(r.signal) + ".";
    if (r.exit_status != 0) return who + " returned an error code (" + std::to_string(r.exit_status) + ")";
    return "";
}

}  // namespace

std::string external_solver_name(const config::Config& config) {
    std::string name = config.find("APT::Solver");
    if (name.empty() || name == "internal" || name == "3.0" || name == "3.1" || name == "aptus") return "";
    return name;
}

std::optional<std::string> find_external_solver(const config::Config& config, std::string_view name) {
    // apt's FindVector: a value of the node itself (comma-separated) wins
    // over its children, so `Dir::Bin::Solvers "DIR";` replaces the
    // built-in list item "/usr/lib/apt/solvers" (APT's test framework relies on it).
    std::vector<std::string> dirs;
    if (std::string value = config.find("Dir::Bin::Solvers"); !value.empty()) {
        for (std::string_view rest = value; !rest.empty();) {
            size_t comma = rest.find(',');
            dirs.emplace_back(rest.substr(0, comma));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    } else {
        dirs = config.find_list("Dir::Bin::Solvers");
    }
    if (dirs.empty()) dirs.emplace_back(kDefaultSolverDir);
    for (const std::string& dir : dirs) {
        std::string path = combine(dir, name);
        if (regular_file(path)) return path;
    }
    return std::nullopt;
}

std::string dump_solver_answer(std::string_view scenario, const char* file) {
    if (file == nullptr || *file == '\0')
        return edsp::format_edsp_error(
            "ERR_NO_FILENAME",
            "You have to set the environment variable APT_EDSP_DUMP_FILENAME\n"
            "to a valid filename to store the dump of EDSP solver input in.\n"
            "For example with: export APT_EDSP_DUMP_FILENAME=/tmp/dump.edsp");
    if (!write_plain(file, scenario))
        return edsp::format_edsp_error("ERR_CREATE_FILE", "Writing EDSP solver input to file '" + std::string(file) +
                                                                "' failed: " + std::strerror(errno));
    return edsp::format_edsp_error("ERR_JUST_DUMPING",
                                     "I am too dumb, i can just dump!\nPlease use one of my friends instead!");
}

SolveOutcome run_external_solver(std::string_view name, const std::string& program, const SystemUniverse& su,
                                 const solver::Request& request) {
    SolveOutcome o;
    o.external = true;
    const std::string scenario = edsp::format_edsp_scenario(su.universe, request, name);
    SubprocessResult run;
    if (program.empty()) {
        run.exit_status = 0;
        run.out = dump_solver_answer(scenario, std::getenv("APT_EDSP_DUMP_FILENAME"));
    } else {
        SubprocessOptions options;
        options.input = scenario;
        options.inherit_stderr = true;
        options.max_output = size_t{256} << 20;
        run = run_subprocess({program}, options);
    }
    std::string exit_error = exit_problem(name, run);
    if (run.output_truncated) {
        o.errors.push_back("External solver " + std::string(name) + " answered more than " +
                           std::to_string(size_t{256} << 20) + " bytes; it was stopped");
        return o;
    }

    edsp::EdspAnswer answer;
    try {
        answer = edsp::read_edsp_answer(run.out, su.universe, "solver " + std::string(name));
    } catch (const Error& e) {
        if (exit_error.empty()) o.errors.push_back(std::string("External solver answered no EDSP: ") + e.what());
        else o.errors.push_back(exit_error);
        return o;
    }
    for (const std::string& w : answer.warnings) o.diagnostics.push_back({Level::Warning, w});
    if (answer.failed) {
        std::string message = answer.error_message;
        if (message.empty()) {
            message = "External solver failed without a proper error message";
            o.errors.push_back(message);
        } else {
            o.errors.push_back("External solver failed with: " + first_line(message));
        }
        o.report = "The solver encountered an error of type: " + answer.error_id +
                   "\nThe following information might help you to understand what is wrong:\n" + message + "\n\n";
        o.solution.error_id = answer.error_id;
        o.solution.message = message;
        if (!exit_error.empty()) o.errors.push_back(exit_error);
        return o;
    }
    for (const std::string& e : answer.errors) o.errors.push_back(e);
    if (!exit_error.empty()) o.errors.push_back(exit_error);
    if (!o.errors.empty()) {
        o.solution.error_id = "ERR_BAD_ANSWER";
        return o;
    }
    o.solution = edsp::solution_from_answer(su.universe, request, answer);
    if (!o.solution.solved) o.errors.push_back(o.solution.message);
    return o;
}

namespace {

// apt's Dir::Log::Solver for an external solver: the scenario it was
// given, kept only when it answered a solution (apt writes none for a
// failed run, the dump solver's included).
void log_scenario(const config::Config& config, std::string_view name, const SystemUniverse& su,
                  const solver::Request& request, SolveOutcome& o) {
    std::string path = config.find_file("Dir::Log::Solver");
    if (path.empty() || !o.solution.solved) return;
    if (compression_from_path(path) != Compression::None) {
        o.diagnostics.push_back({Level::Warning, "The solver scenario is written uncompressed only; '" + path +
                                                     "' (Dir::Log::Solver) names a compressed file, so it was not written"});
        return;
    }
    try {
        write_file_atomic(path, edsp::format_edsp_scenario(su.universe, request, name));
    } catch (const Error& e) {
        o.diagnostics.push_back({Level::Warning, e.what()});
    }
}

}  // namespace

SolveOutcome solve_with(const config::Config& config, const SystemUniverse& su, const solver::Request& request,
                        const std::function<void(std::string_view)>& progress) {
    std::string name = external_solver_name(config);
    if (name.empty()) {
        // apt's Dir::Log::Solver: the request as an EDSP scenario, for replay.
        if (auto dump = config.find("Dir::Log::Solver"); !dump.empty()) dump_edsp_request(su, request, dump);
        SolveOutcome o;
        o.solution = solver::solve(su.universe, request);
        if (!o.solution.solved) o.errors.push_back(o.solution.message);
        return o;
    }
    std::optional<std::string> program = find_external_solver(config, name);
    if (!program && name != "dump")
        throw Error("Can't call external solver '" + name + "' as it is not in a configured directory!");
    if (progress) progress("Execute external solver");
    SolveOutcome o = run_external_solver(name, program.value_or(""), su, request);
    log_scenario(config, name, su, request, o);
    return o;
}

}  // namespace aptus::system
