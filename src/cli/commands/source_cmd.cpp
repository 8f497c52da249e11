// `aptus source WORD...` (apt-get source): the source package a word names
// (system::choose_sources) fetched into the current directory, each file
// checked against the hash its Sources record gives, then unpacked with
// dpkg-source as apt does. --print-uris lists the files instead;
// --download-only stops after the fetch; --dsc-only, --tar-only and
// --diff-only fetch only those files (and never unpack); --compile (-b)
// then builds the binary packages with dpkg-buildpackage.
#include "cli/commands/source_cmd.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>

#include "aptus/acquire/archives.hpp"
#include "aptus/acquire/print_uris.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/base/subprocess.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/system/source_package.hpp"
#include "cli/archive_download.hpp"
#include "cli/human_size.hpp"
#include "cli/print_uris.hpp"
#include "cli/prompt.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::cli {
namespace {

// The directory dpkg-source unpacks into: "name-upstreamversion".
std::string unpack_dir(const system::SourceChoice& c) {
    std::string_view v = c.version;
    if (size_t colon = v.find(':'); colon != std::string_view::npos) v.remove_prefix(colon + 1);
    if (size_t dash = v.rfind('-'); dash != std::string_view::npos) v = v.substr(0, dash);
    return c.package + "-" + std::string(v);
}

// --compile: dpkg-buildpackage in the unpacked tree, with apt's options
// (DPkg::Build-Options, default "-b -uc"; -a for --host-architecture, -P for
// build profiles); its output as it comes.
void build_binaries(const config::Config& config, const std::string& dir) {
    std::vector<std::string> argv{config.find("Dir::Bin::dpkg-buildpackage", "dpkg-buildpackage")};
    if (std::string host = config.find("APT::Get::Host-Architecture"); !host.empty()) argv.push_back("-a" + host);
    if (std::string profiles = config.find("APT::Build-Profiles"); !profiles.empty()) argv.push_back("-P" + profiles);
    for (std::string_view w : split_words(config.find("DPkg::Build-Options", "-b -uc"))) argv.emplace_back(w);
    std::string text;
    for (const std::string& a : argv) text += (text.empty() ? "" : " ") + a;
    std::fflush(stdout);
    SubprocessResult r;
    try {
        r = run_subprocess(argv, {.inherit_stderr = true, .inherit_stdout = true, .working_directory = dir});
    } catch (const Error& e) {
        throw Error("Build command '" + text + "' failed: " + e.what());
    }
    if (!r.success()) throw Error("Build command '" + text + "' failed.");
}

}  // namespace

int run_source(Context& ctx) {
    const config::Config& config = ctx.config;
    if (ctx.args.empty()) throw Error("Must specify at least one package to fetch source for");
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    const bool only_source = config.find_bool("APT::Get::Only-Source");
    std::vector<system::SourceRequest> requests;
    for (const std::string& word : ctx.args) {
        const request::PackageWord w = request::parse_package_word(word);  // an architecture suffix says nothing of a source
        requests.push_back({word, w.name, w.version, w.release});
    }
    std::vector<system::SourceChoice> chosen = system::choose_sources(cache, config, requests, only_source);

    // --dsc-only, --tar-only, --diff-only: those files alone.
    const bool dsc_only = config.find_bool("APT::Get::Dsc-Only");
    const bool tar_only = config.find_bool("APT::Get::Tar-Only");
    const bool diff_only = config.find_bool("APT::Get::Diff-Only");
    const bool some_only = dsc_only || tar_only || diff_only;
    for (system::SourceChoice& c : chosen)
        if (some_only)
            std::erase_if(c.files, [&](const system::SourceFile& f) {
                return !((dsc_only && f.kind == "dsc") || (tar_only && f.kind == "tar") ||
                         (diff_only && f.kind == "diff"));
            });

    if (print_uris_wanted(config)) {
        std::vector<acquire::UriLine> lines;
        for (const system::SourceChoice& c : chosen)
            for (const system::SourceFile& f : c.files)
                lines.push_back({f.print_uri, f.name, f.size,
                                 std::string(acquire::hash_algo_name(f.hash)) + ":" + f.hash_hex});
        print_uri_lines(lines);
        return 0;
    }

    // As apt: nothing from a repository that cannot be authenticated
    // without --allow-unauthenticated.
    std::vector<std::string> unauthenticated;
    for (const system::SourceChoice& c : chosen)
        if (!c.trusted) unauthenticated.push_back(c.package);
    if (!unauthenticated.empty()) confirm_unauthenticated(config, unauthenticated, false);

    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd)) throw system_error("Unable to read the current directory", ".", errno);
    std::vector<acquire::ArchiveItem> items;
    uint64_t total = 0, to_get = 0;
    for (const system::SourceChoice& c : chosen)
        for (const system::SourceFile& f : c.files) {
            total += f.size;
            const std::string path = std::string(cwd) + "/" + f.name;
            if (acquire::archive_matches(path, f.size, f.hash, f.hash_hex)) {
                std::printf("Skipping already downloaded file '%s'\n", f.name.c_str());
                continue;
            }
            to_get += f.size;
            acquire::ArchiveItem item;
            item.package = c.package;
            item.version = c.version;
            item.uri = f.uri;
            item.print_uri = f.print_uri;
            item.file_name = f.name;
            item.size = f.size;
            item.hash = f.hash;
            item.hash_hex = f.hash_hex;
            item.label = c.label + " (" + f.kind + ")";
            items.push_back(std::move(item));
        }
    if (to_get != total)
        std::printf("Need to get %sB/%sB of source archives.\n", human_size(double(to_get)).c_str(),
                    human_size(double(total)).c_str());
    else
        std::printf("Need to get %sB of source archives.\n", human_size(double(total)).c_str());
    std::fflush(stdout);
    if (!items.empty()) {
        acquire::ArchivesOutcome out = fetch_and_show(config, items, cwd, acquire::ArchivesMode::Plain);
        if (out.failed) throw Error("Failed to fetch some archives.");
    }
    if (config.find_bool("APT::Get::Download-Only") || some_only) {
        std::puts("Download complete and in download only mode");
        return 0;
    }
    const std::string dpkg_source = config.find("Dir::Bin::dpkg-source", "dpkg-source");
    for (const system::SourceChoice& c : chosen) {
        const std::string dir = unpack_dir(c);
        if (path_exists(std::string(cwd) + "/" + dir)) {
            std::printf("Skipping unpack of already unpacked source in %s\n", dir.c_str());
            continue;
        }
        std::string dsc;
        for (const system::SourceFile& f : c.files)
            if (f.kind == "dsc") dsc = f.name;
        if (dsc.empty()) continue;
        // The hashes were checked here: dpkg-source's signature check has no
        // keyring to check against (apt passes --no-check too).
        std::fflush(stdout);
        SubprocessResult r;
        try {
            r = run_subprocess({dpkg_source, "--no-check", "-x", dsc}, {.max_output = 64u << 20, .inherit_stderr = true});
        } catch (const Error& e) {
            throw Error(std::string("Unpack command '") + dpkg_source + " --no-check -x " + dsc + "' failed: " + e.what() +
                        "\nCheck if the 'dpkg-dev' package is installed.");
        }
        std::fwrite(r.out.data(), 1, r.out.size(), stdout);
        std::fflush(stdout);
        if (!r.success())
            throw Error(std::string("Unpack command '") + dpkg_source + " --no-check -x " + dsc + "' failed.");
    }
    if (config.find_bool("APT::Get::Compile"))
        for (const system::SourceChoice& c : chosen) build_binaries(config, std::string(cwd) + "/" + unpack_dir(c));
    return 0;
}

}  // namespace aptus::cli
