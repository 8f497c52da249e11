// apt-get download's rules: every word must name a version (apt's errors for
// each that does not, and then nothing is fetched); the files land in the
// current directory under apt's archive names, without lock or partial/; a
// file already there with the right size and hash is kept silently. With
// --print-uris each version's URI line instead, and nothing is fetched.
#include "cli/commands/download_cmd.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>

#include "aptus/base/error.hpp"
#include "cli/archive_download.hpp"
#include "aptus/system/authentication.hpp"
#include "cli/print_uris.hpp"
#include "cli/prompt.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/exit_status.hpp"
#include "cli/message.hpp"

namespace aptus::cli {

int run_download(Context& ctx) {
    if (ctx.args.empty()) throw Error("No packages found");
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    request::Selection selection;
    std::vector<std::string> errors;
    for (const std::string& word : ctx.args)
        request::select_versions(cache, *session->candidates, word, request::Select::Candidate, selection, errors);
    if (!errors.empty()) {
        for (const auto& e : errors) print_message(MessageLevel::Error, e);
        return kExitError;
    }
    // apt fetches in the order of its cache's version ids, which is the
    // order the records were read: index file, then place in it. A version
    // named twice is fetched once.
    auto place = [&](const cache::Version* v) {
        const cache::VersionFile* f = request::record_file(cache, *v);
        return f ? std::pair(f->index_file, f->offset) : std::pair(cache::kNone, 0u);
    };
    std::stable_sort(selection.versions.begin(), selection.versions.end(),
                     [&](const cache::Version* a, const cache::Version* b) { return place(a) < place(b); });
    selection.versions.erase(std::unique(selection.versions.begin(), selection.versions.end()),
                             selection.versions.end());
    if (print_uris_wanted(ctx.config)) {
        // As apt: every version's line, whether or not its file is here already.
        std::vector<acquire::UriLine> lines;
        for (const acquire::ArchiveItem& item : install::archive_items(ctx.config, cache, selection.versions))
            lines.push_back(acquire::archive_uri(item));
        print_uri_lines(lines);
        return 0;
    }
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd)) throw system_error("Unable to read the current directory", ".", errno);
    auto items = install::archive_items(ctx.config, cache, selection.versions);
    // As apt: nothing from a repository that cannot be authenticated
    // without --allow-unauthenticated (no question asked).
    std::vector<std::string> unauthenticated;
    for (const cache::Version* v : selection.versions)
        if (!system::is_authenticated(cache, *v)) unauthenticated.emplace_back(cache.name_of(cache.package_of(*v)));
    if (!unauthenticated.empty()) confirm_unauthenticated(ctx.config, unauthenticated, false);
    acquire::ArchivesOutcome out = fetch_and_show(ctx.config, items, cwd, acquire::ArchivesMode::Plain);
    return out.failed ? kExitError : kExitSuccess;
}

}  // namespace aptus::cli
