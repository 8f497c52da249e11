// `aptus source WORD...` (apt-get source): the source package a word names
// (system::choose_sources) fetched into the current directory, each file
// checked against the hash its Sources record gives, then unpacked with
// dpkg-source as apt does. --print-uris lists the files instead;
// --download-only stops after the fetch; --dsc-only, --tar-only and
// --diff-only fetch only those files (and never unpack); --compile (-b)
// then builds the binary packages with dpkg-buildpackage.
#include "cli/commands/source_cmd.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>

#include "aptus/acquire/archives.hpp"
#include "aptus/acquire/print_uris.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/deb/version.hpp"
#include "aptus/system/source_package.hpp"
#include "aptus/system/source_unpack.hpp"
#include "cli/archive_download.hpp"
#include "cli/human_size.hpp"
#include "cli/print_uris.hpp"
#include "cli/prompt.hpp"
#include "cli/package_line.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::cli {
namespace {

void print_need_to_get(uint64_t to_get, uint64_t total) {
    if (to_get != total)
        std::printf("Need to get %sB/%sB of source archives.\n", human_size(double(to_get)).c_str(),
                    human_size(double(total)).c_str());
    else
        std::printf("Need to get %sB of source archives.\n", human_size(double(total)).c_str());
}

// apt's notice for a package kept in a version control system (a Vcs-*
// field of its record other than Vcs-Browser), with the command that
// fetches it where apt knows one.
void print_vcs_notice(const system::SourceChoice& c) {
    deb::TagFileReader reader(c.record, c.package, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza st;
    if (!reader.next(st)) return;
    struct Vcs {
        const char *field, *name, *fetch;
    };
    static constexpr Vcs kinds[] = {{"Vcs-Arch", "Arch", nullptr}, {"Vcs-Bzr", "Bzr", "bzr branch"},
                                    {"Vcs-Cvs", "Cvs", nullptr},   {"Vcs-Darcs", "Darcs", nullptr},
                                    {"Vcs-Git", "Git", "git clone"}, {"Vcs-Hg", "Hg", nullptr},
                                    {"Vcs-Mtn", "Mtn", nullptr},   {"Vcs-Svn", "Svn", nullptr}};
    for (const Vcs& k : kinds) {
        const std::string url(trim(st.value_or_empty(k.field)));
        if (url.empty()) continue;
        std::printf("NOTICE: '%s' packaging is maintained in the '%s' version control system at:\n%s\n",
                    c.package.c_str(), k.name, url.c_str());
        if (k.fetch)
            std::printf("Please use:\n%s %s\nto retrieve the latest (possibly unreleased) updates to the package.\n",
                        k.fetch, url.c_str());
        return;
    }
}

}  // namespace

int run_source(Context& ctx) {
    const config::Config& config = ctx.config;
    if (ctx.args.empty()) throw Error("Must specify at least one package to fetch source for");
    Progress progress(config, false);
    progress.start("Reading package lists");
    auto session = open_read_session(ctx);
    progress.done();
    const cache::Cache& cache = session->cache();
    const bool only_source = config.find_bool("APT::Get::Only-Source");
    std::vector<system::SourceRequest> requests;
    for (const std::string& word : ctx.args) {
        system::SourceRequest r = system::parse_source_request(word);
        r.missing_version_name = r.name;  // apt-get source's words there
        requests.push_back(std::move(r));
    }
    std::vector<system::SourceChoice> chosen = system::choose_sources(cache, config, requests, only_source, session->candidates.get());
    // A source package named twice is fetched once.
    for (size_t i = 0; i < chosen.size(); ++i)
        for (size_t j = i + 1; j < chosen.size();)
            if (chosen[j].package == chosen[i].package && chosen[j].version == chosen[i].version)
                chosen.erase(chosen.begin() + long(j));
            else
                ++j;
    const bool print_uris = print_uris_wanted(config);
    for (const system::SourceChoice& c : chosen) {
        for (const std::string& n : c.notes) std::printf("%s\n", n.c_str());
        if (!print_uris) print_vcs_notice(c);
    }

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

    if (print_uris || config.find_bool("APT::Get::Simulate")) {
        // What would be fetched: a local repository's files are not.
        uint64_t total = 0, to_get = 0;
        for (const system::SourceChoice& c : chosen)
            for (const system::SourceFile& f : c.files) {
                total += f.size;
                if (!acquire::is_local_uri(f.uri)) to_get += f.size;
            }
        print_need_to_get(to_get, total);
    }
    if (config.find_bool("APT::Get::Simulate") && !print_uris) {
        for (const system::SourceChoice& c : chosen) std::printf("Fetch source %s\n", c.package.c_str());
        return 0;
    }
    if (print_uris) {
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
    // As apt: a file the Sources stanza vouches for with MD5/SHA1 only (or
    // nothing) is not downloaded unless unauthenticated ones are allowed,
    // and its package is not unpacked.
    const bool allow_unauthenticated = config.find_bool("APT::Get::AllowUnauthenticated", false);
    std::vector<const system::SourceChoice*> not_unpacked;
    for (const system::SourceChoice& c : chosen)
        for (const system::SourceFile& f : c.files) {
            total += f.size;
            const std::string path = std::string(cwd) + "/" + f.name;
            if (acquire::archive_matches(path, f.size, f.hash, f.hash_hex)) {
                std::printf("Skipping already downloaded file '%s'\n", f.name.c_str());
                continue;
            }
            const bool strong = f.hash == acquire::HashAlgo::Sha256 || f.hash == acquire::HashAlgo::Sha512;
            if (!strong && !allow_unauthenticated) {
                std::printf("Skipping download of file '%s' as requested hashsum is not available for authentication\n",
                            f.name.c_str());
                not_unpacked.push_back(&c);
                continue;
            }
            to_get += f.size;
            items.push_back(system::source_file_item(c, f));
        }
    print_need_to_get(to_get, total);
    std::fflush(stdout);
    if (!items.empty()) {
        acquire::ArchivesOutcome out = fetch_and_show(config, items, cwd, acquire::ArchivesMode::Plain);
        if (out.failed) throw Error("Failed to fetch some archives.");
    }
    if (config.find_bool("APT::Get::Download-Only") || some_only) {
        std::puts("Download complete and in download only mode");
        return 0;
    }
    for (const system::SourceChoice& c : chosen) {
        if (std::find(not_unpacked.begin(), not_unpacked.end(), &c) != not_unpacked.end()) continue;
        const std::string dir = system::unpack_directory(c);
        if (path_exists(std::string(cwd) + "/" + dir)) {
            std::printf("Skipping unpack of already unpacked source in %s\n", dir.c_str());
            continue;
        }
        for (const system::SourceFile& f : c.files)
            if (f.kind == "dsc") system::unpack_source(config, cwd, f.name);
    }
    if (config.find_bool("APT::Get::Compile"))
        for (const system::SourceChoice& c : chosen) system::build_source(config, std::string(cwd) + "/" + system::unpack_directory(c));
    return 0;
}

}  // namespace aptus::cli
