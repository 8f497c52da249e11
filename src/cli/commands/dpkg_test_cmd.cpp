#include "cli/commands/dpkg_test_cmd.hpp"

#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/subprocess.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/dpkg_run.hpp"
#include "cli/dpkg_progress.hpp"
#include "cli/plan_execute.hpp"

namespace aptus::cli {

namespace {

using system::DpkgAction;
using system::DpkgOperation;

// The package a .deb holds, as dpkg-deb reads its control file.
void fill_from_deb(DpkgOperation& op) {
    auto r = run_subprocess({"dpkg-deb", "-f", op.archive, "Package", "Version", "Architecture", "Multi-Arch"});
    if (!r.success()) throw Error("dpkg-deb -f " + op.archive + " failed: " + r.err);
    std::istringstream lines(r.out);
    std::string line, name, arch;
    while (std::getline(lines, line)) {
        auto colon = line.find(": ");
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon), value = line.substr(colon + 2);
        if (key == "Package") name = value;
        else if (key == "Version") op.version = value;
        else if (key == "Architecture") arch = value;
        else if (key == "Multi-Arch") op.multi_arch = value;
    }
    op.package = name + ":" + arch;
}

std::vector<DpkgOperation> read_ops(const std::string& path) {
    std::vector<DpkgOperation> ops;
    std::istringstream lines(read_file(path));
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
        if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string verb, target, word;
        if (!(words >> verb)) continue;
        std::string where = path + ":" + std::to_string(n);
        if (!(words >> target)) throw Error(where + ": " + verb + " needs an argument");
        DpkgOperation op;
        if (verb == "unpack") {
            op.action = DpkgAction::Unpack;
            op.archive = target;
            std::string name, version;
            if (words >> name >> version) {
                op.package = name;
                op.version = version;
            } else {
                fill_from_deb(op);
            }
        } else if (verb == "configure" || verb == "remove" || verb == "purge") {
            op.action = verb == "configure" ? DpkgAction::Configure
                        : verb == "remove"  ? DpkgAction::Remove
                                            : DpkgAction::Purge;
            op.package = target;
            while (words >> word) {
                if (word == "essential" && op.action != DpkgAction::Configure) op.essential = true;
                else if (op.version.empty()) op.version = word;
                else throw Error(where + ": unknown word " + word);
            }
        } else {
            throw Error(where + ": unknown operation " + verb);
        }
        // A configure without a version is the one an earlier unpack brought.
        if (op.action == DpkgAction::Configure && op.version.empty())
            for (const auto& earlier : ops)
                if (earlier.action == DpkgAction::Unpack && earlier.package == op.package) {
                    op.version = earlier.version;
                    op.multi_arch = earlier.multi_arch;
                }
        ops.push_back(std::move(op));
    }
    return ops;
}

}  // namespace

int run_internal_dpkg_test(Context& ctx) {
    if (ctx.args.size() != 1) throw Error("internal-dpkg-test needs one OPS-FILE");
    auto ops = read_ops(ctx.args[0]);

    system::DpkgLock lock = take_dpkg_lock(ctx.config);
    if (auto interrupted = system::dpkg_interrupted(ctx.config)) throw Error(*interrupted);

    try {
        DpkgProgress progress(ctx.config);
        system::run_dpkg(ctx.config, ops, progress.observer(), &lock);
    } catch (const Error& e) {
        if (auto interrupted = system::dpkg_interrupted(ctx.config))
            throw Error(std::string(e.what()) + "\nE: " + *interrupted);
        throw;
    }
    return 0;
}

}  // namespace aptus::cli
