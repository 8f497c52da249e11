#include "cli/commands/changelog_cmd.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <optional>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/request/version_select.hpp"
#include "aptus/system/changelog.hpp"
#include "cli/exit_status.hpp"
#include "cli/output.hpp"
#include "cli/pager.hpp"
#include "cli/print_uris.hpp"
#include "cli/read_session.hpp"
#include "cli/message.hpp"

namespace aptus::cli {
namespace {

// A changelog is no indexed file: nothing announces its size, so this bounds it.
constexpr uint64_t kMaxChangelog = 64u << 20;

// The version a word names: `=version`, else the installed one, else the candidate.
const cache::Version* version_of(const ReadSession& s, const request::PackageWord& w, const cache::Package& p) {
    const cache::Cache& c = s.cache();
    if (!w.version.empty()) {
        for (const cache::Version& v : c.versions_of(p))
            if (c.str(v.version) == w.version) return &v;
        return nullptr;
    }
    if (const cache::Version* v = c.current_version(p)) return v;
    return s.candidates->candidate(p);
}

void print_error(const std::string& text) {
    std::fflush(stdout);
    print_message(MessageLevel::Error, text);
}

}  // namespace

int run_changelog(Context& ctx) {
    const config::Config& config = ctx.config;
    auto session = open_read_session(ctx);
    const cache::Cache& cache = session->cache();
    std::vector<const cache::Version*> versions;
    std::vector<std::string> errors;
    for (const std::string& word : ctx.args) {
        const request::PackageWord w = request::parse_package_word(word);
        const cache::Package* p = request::find_word_package(cache, w);
        const cache::Version* v = p ? version_of(*session, w, *p) : nullptr;
        if (!p) errors.push_back("Unable to locate package " + word);
        else if (!v) errors.push_back("Can not find version '" + w.version + "' of package '" + w.name + "'");
        else versions.push_back(v);
    }
    if (versions.empty()) {
        errors.push_back("No packages found");
        for (const std::string& e : errors) print_error(e);
        return kExitError;
    }
    for (const std::string& e : errors) print_error(e);

    std::vector<system::ChangelogSource> sources;
    for (const cache::Version* v : versions) sources.push_back(system::changelog_source(cache, config, *v));
    if (print_uris_wanted(config)) {
        for (const system::ChangelogSource& s : sources) std::printf("'%s' %s\n", s.uri.c_str(), s.file_name.c_str());
        return errors.empty() ? kExitSuccess : kExitError;
    }

    const bool download_only = config.find_bool("APT::Get::Download-Only");
    std::string dir;
    std::optional<ScratchDirectory> temp;  // for changelogs only shown, gone afterwards
    if (download_only) {
        char cwd[PATH_MAX];
        if (!::getcwd(cwd, sizeof cwd)) throw system_error("Unable to read the current directory", ".", errno);
        dir = cwd;
    } else {
        temp.emplace("aptus-changelog");
        dir = temp->path();
    }
    std::vector<acquire::FetchRequest> requests;
    std::vector<size_t> of_request;
    bool failed = !errors.empty();
    for (size_t i = 0; i < sources.size(); ++i) {
        if (!sources[i].unavailable.empty()) {
            print_error("Failed to fetch " + sources[i].uri + "  " + sources[i].unavailable);
            failed = true;
            continue;
        }
        acquire::FetchRequest r;
        r.uri = sources[i].uri;
        r.destination = dir + "/" + sources[i].file_name;
        r.max_size = kMaxChangelog;
        r.durable = false;
        if (download_only) {
            // The same package named twice is one file.
            bool queued = false;
            for (const acquire::FetchRequest& q : requests) queued = queued || q.destination == r.destination;
            if (queued) continue;
        } else {
            r.destination += "." + std::to_string(i);  // shown twice: each its own file
        }
        requests.push_back(std::move(r));
        of_request.push_back(i);
    }
    std::vector<acquire::FetchResult> results = acquire::fetch(requests, acquire::fetch_options(config));
    std::vector<std::string> shown;
    for (size_t k = 0; k < results.size(); ++k) {
        const system::ChangelogSource& s = sources[of_request[k]];
        if (results[k].status == acquire::FetchStatus::Failed) {
            print_error("Failed to fetch " + s.uri + "  " + system::changelog_unavailable(cache, *versions[of_request[k]]) +
                        " (" + results[k].error + ")");
            failed = true;
            continue;
        }
        if (download_only) ::chmod(requests[k].destination.c_str(), 0644);
        else shown.push_back(requests[k].destination);
    }
    if (!shown.empty()) {
        auto pager = Pager::start(config, &ctx.diags);
        for (const std::string& path : shown) {
            const std::string text = read_file(path);
            std::fwrite(text.data(), 1, text.size(), stdout);
        }
        std::fflush(stdout);
    }
    return failed ? kExitError : kExitSuccess;
}

}  // namespace aptus::cli
