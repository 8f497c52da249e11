#include "aptus/system/source_unpack.hpp"

#include <cstdio>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/base/subprocess.hpp"

namespace aptus::system {

acquire::ArchiveItem source_file_item(const SourceChoice& choice, const SourceFile& file) {
    acquire::ArchiveItem item;
    item.package = choice.package;
    item.version = choice.version;
    item.uri = file.uri;
    item.print_uri = file.print_uri;
    item.file_name = file.name;
    item.size = file.size;
    item.hash = file.hash;
    item.hash_hex = file.hash_hex;
    item.label = choice.label + " (" + file.kind + ")";
    return item;
}

std::string unpack_directory(const SourceChoice& choice) {
    std::string_view v = choice.version;
    if (size_t colon = v.find(':'); colon != std::string_view::npos) v.remove_prefix(colon + 1);
    if (size_t dash = v.rfind('-'); dash != std::string_view::npos) v = v.substr(0, dash);
    return choice.package + "-" + std::string(v);
}

void unpack_source(const config::Config& config, const std::string& directory, const std::string& dsc) {
    const std::string dpkg_source = config.find("Dir::Bin::dpkg-source", "dpkg-source");
    const std::string command = dpkg_source + " --no-check -x " + dsc;
    std::fflush(stdout);
    SubprocessResult r;
    try {
        r = run_subprocess({dpkg_source, "--no-check", "-x", dsc},
                           {.inherit_stderr = true, .inherit_stdout = true, .working_directory = directory});
    } catch (const Error& e) {
        throw Error("Unpack command '" + command + "' failed: " + e.what() +
                    "\nCheck if the 'dpkg-dev' package is installed.");
    }
    if (!r.success()) throw Error("Unpack command '" + command + "' failed.");
}

void build_source(const config::Config& config, const std::string& tree) {
    std::vector<std::string> argv{config.find("Dir::Bin::dpkg-buildpackage", "dpkg-buildpackage")};
    if (std::string host = config.find("APT::Get::Host-Architecture"); !host.empty()) argv.push_back("-a" + host);
    if (std::string profiles = config.find("APT::Build-Profiles"); !profiles.empty()) argv.push_back("-P" + profiles);
    for (std::string_view w : split_words(config.find("DPkg::Build-Options", "-b -uc"))) argv.emplace_back(w);
    std::string text;
    for (const std::string& a : argv) text += (text.empty() ? "" : " ") + a;
    std::fflush(stdout);
    SubprocessResult r;
    try {
        r = run_subprocess(argv, {.inherit_stderr = true, .inherit_stdout = true, .working_directory = tree});
    } catch (const Error& e) {
        throw Error("Build command '" + text + "' failed: " + e.what());
    }
    if (!r.success()) throw Error("Build command '" + text + "' failed.");
}

}  // namespace aptus::system
