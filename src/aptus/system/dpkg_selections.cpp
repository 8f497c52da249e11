#include "aptus/system/dpkg_selections.hpp"

#include <cstdio>

#include "aptus/base/error.hpp"
#include "aptus/base/subprocess.hpp"

namespace aptus::system {
namespace {

// dpkg with `args` after its base command and `input` on its stdin; its
// output passes through unless `quiet`.
void run_dpkg_with_input(const config::Config& config, const std::vector<std::string>& args, const std::string& input,
                         bool quiet) {
    std::vector<std::string> argv{config.find("Dir::Bin::dpkg", "dpkg")};
    for (auto& [name, value] : config.children("DPkg::Options"))
        if (!value.empty()) argv.push_back(value);
    argv.insert(argv.end(), args.begin(), args.end());
    SubprocessOptions options;
    options.input = input;
    options.inherit_stderr = true;
    options.inherit_stdout = !quiet;
    std::fflush(stdout);
    if (!run_subprocess(argv, options).success()) throw Error("Executing dpkg failed. Are you root?", ErrorKind::Dpkg);
}

}  // namespace

void set_dpkg_selections(const config::Config& config, const std::vector<DpkgSelection>& selections) {
    std::string placeholders, input;
    for (const DpkgSelection& s : selections) {
        if ((s.want == "hold" || s.want == "install") && !s.known_to_dpkg)
            placeholders += "Package: " + s.package + "\nVersion: 0~\nArchitecture: " + s.architecture +
                            "\nMaintainer: Dummy Example <dummy@example.org>\nDescription: dummy package record\n"
                            " A record is needed to put a package on hold, so here it is.\n\n";
        input += s.package + ":" + s.architecture + " " + s.want + "\n";
    }
    if (!placeholders.empty()) run_dpkg_with_input(config, {"--merge-avail", "-"}, placeholders, true);
    run_dpkg_with_input(config, {"--set-selections"}, input, false);
}

}  // namespace aptus::system
