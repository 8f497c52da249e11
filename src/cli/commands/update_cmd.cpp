// Prints what the library's update reports, in apt's shape: one numbered
// line per item as it finishes, a progress line on a terminal only (redrawn
// in place and erased before any other line), "Fetched ...", the cache
// rebuild, the upgradable count (apt's, where APT::Cmd::Show-Update-Stats
// asks for it), then the collected E:/W:/N: messages. --print-uris lists
// what would be fetched instead; --no-download (APT::Get::Download=0) only
// rebuilds the cache from the lists there are.
#include "cli/commands/update_cmd.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>

#include "aptus/acquire/update.hpp"
#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/system.hpp"
#include "aptus/acquire/print_uris.hpp"
#include "aptus/sources/source_advice.hpp"
#include "aptus/sources/source_list.hpp"
#include "cli/fetch_screen.hpp"
#include "cli/package_line.hpp"
#include "cli/print_uris.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"
#include "cli/exit_status.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec update_table[] = {
    {0, "allow-releaseinfo-change", "Acquire::AllowReleaseInfoChange", ArgKind::Flag, "accept a Release whose Origin, Label, Suite, Codename or Version changed"},
    {0, "allow-insecure-repositories", "Acquire::AllowInsecureRepositories", ArgKind::Flag, "accept repositories that are not signed (their packages stay unauthenticated)"},
};

unsigned count_upgradable(const config::Config& config, Diagnostics& diags) {
    cache::OpenResult opened = system::open_cache(config, diags);
    policy::Policy policy = system::make_policy(config, opened.cache, diags);
    system::Candidates candidates(opened.cache, policy);
    VersionView view{opened.cache, candidates};
    unsigned n = 0;
    for (const cache::Package& p : opened.cache.packages())
        if (opened.cache.current_version(p) && view.upgradable(p)) ++n;
    return n;
}

}  // namespace

std::span<const OptionSpec> update_options() { return update_table; }

namespace {
// An error that ends update, and those apt reports after it, each as apt
// prints them (a message may span lines, each its own E:).
void print_error(const Error& e) {
    print_error_lines(e.what());
    for (const auto& more : e.followed_by()) print_error_lines(more);
}
// One line of apt's Debug::pkgAcquire::Worker trace, on stderr: the
// arrow ("->" asked, "<-" answered), the URI's scheme and the message with
// its spaces and line breaks escaped. Scripts (APT's tests among them) grep
// it to see what was asked for and what came back.
void print_worker_line(std::string_view arrow, const std::string& uri, const std::string& message) {
    std::string escaped;
    for (char c : message + "\n") escaped += c == ' ' ? "%20" : c == '\n' ? "%0a" : c == '%' ? "%25" : std::string(1, c);
    const std::string scheme = uri.substr(0, uri.find(':'));
    std::fflush(stdout);
    std::fprintf(stderr, " %.*s %s:%s\n", int(arrow.size()), arrow.data(), scheme.c_str(), escaped.c_str());
}
// The request apt sends a method.
void print_worker_request(const acquire::FetchRequest& r) {
    std::string message = "600 URI Acquire\nURI: " + r.uri + "\nFilename: " + r.destination + "\n";
    if (r.expected_size) message += "Expected-Size: " + std::to_string(*r.expected_size) + "\n";
    print_worker_line("->", r.uri, message);
}
// The other half of apt's trace: the method's answer. Our fetcher speaks no
// method protocol; this says in apt's words what it did: where the file
// went, its size and time, a 304 as an IMS hit, a failure's message. For a
// local compressed file whose uncompressed form lies beside it, apt's file
// method names that form as Alt-Filename; so does this.
void print_worker_done(const acquire::FetchRequest& r, const acquire::FetchResult& res) {
    std::string message;
    if (res.status == acquire::FetchStatus::Failed) {
        message = "400 URI Failure\nURI: " + r.uri + "\nMessage: " + res.error + "\n";
    } else {
        message = "201 URI Done\nURI: " + r.uri + "\nFilename: " + r.destination + "\n";
        if (res.status == acquire::FetchStatus::Ok) message += "Size: " + std::to_string(res.bytes) + "\n";
        if (res.last_modified) {
            char when[64];
            struct tm tm {};
            const std::time_t t = *res.last_modified;
            ::gmtime_r(&t, &tm);
            std::strftime(when, sizeof when, "%a, %d %b %Y %H:%M:%S GMT", &tm);
            message += std::string("Last-Modified: ") + when + "\n";
        }
        if (res.status == acquire::FetchStatus::NotModified) message += "IMS-Hit: true\n";
        if (acquire::is_local_uri(r.uri)) {
            const std::string path = acquire::local_path(r.uri);
            if (const Compression c = compression_from_path(path); c != Compression::None) {
                const std::string plain = path.substr(0, path.size() - 1 - compression_extension(c).size());
                struct stat st {};
                if (::stat(plain.c_str(), &st) == 0 && S_ISREG(st.st_mode))
                    message += "Alt-Filename: " + plain + "\nAlt-Size: " + std::to_string(st.st_size) + "\n";
            }
        }
    }
    print_worker_line("<-", r.uri, message);
}
// apt's Debug::pkgAcquire::Auth lines for a file that checked out.
void print_auth(const std::string& what, const std::vector<std::string>& received,
                const std::vector<std::string>& expected) {
    std::string text = "201 URI Done: " + what + "\nReceivedHash:\n";
    for (const auto& h : received) text += "\t- " + h + "\n";
    text += "ExpectedHash:\n";
    for (const auto& h : expected) text += "\t- " + h + "\n";
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", text.c_str());
}
}  // namespace

int run_update(Context& ctx) {
    const config::Config& config = ctx.config;
    if (!ctx.args.empty()) throw Error("The update command takes no arguments");
    const int quiet = effective_quiet(config);
    if (print_uris_wanted(config)) {
        try {
            std::vector<sources::SourceEntry> entries =
                sources::read_sources(config, ctx.diags, sources::SnapshotUse::AlongOriginal);
            print_uri_lines(acquire::update_uris(entries, config, ctx.diags));
        } catch (const Error& e) {
            print_error(e);
            return kExitError;
        }
        return 0;
    }
    acquire::UpdateResult result;
    std::vector<sources::SourceEntry> entries;
    if (config.find_bool("APT::Get::Download", true)) {
        FetchScreen screen(quiet, config);
        acquire::UpdateObserver observer;
        observer.line = [&](const acquire::UpdateLine& l) { screen.line(l); };
        observer.progress = [&](const acquire::FetchEvent& ev) { screen.progress(ev); };
        if (config.find_bool("Debug::pkgAcquire::Worker")) {
            observer.request = print_worker_request;
            observer.done = print_worker_done;
        }
        if (config.find_bool("Debug::pkgAcquire::Auth")) observer.hashes = print_auth;
        try {
            result = acquire::update_lists(config, ctx.diags, observer);
        } catch (const Error& e) {
            // What stops the whole update (the lock, unreadable sources) may
            // span lines, each its own error as apt prints them.
            screen.clear();
            print_error(e);
            return kExitError;
        }
        if (!result.error_pending) screen.fetched(result.fetched_bytes, result.seconds);
        // The entries again, for the advice at the end: read quietly, as
        // what is wrong with them was said by update already.
        Diagnostics again;
        entries = sources::read_sources(config, again);
    } else {
        try {
            entries = sources::read_sources(config, ctx.diags);
        } catch (const Error& e) {
            print_error(e);
            return kExitError;
        }
    }

    // apt counts the upgradable packages for apt (and aptus), not apt-get.
    const std::string binary = config.find("Binary", "aptus");
    // pkgCacheFile::Generate=false: no cache is built, so nothing is counted.
    const bool stats = config.find_bool("APT::Cmd::Show-Update-Stats", binary == "aptus") &&
                       config.find_bool("pkgCacheFile::Generate", true);
    Progress progress(config, false);
    progress.start("Reading package lists");
    unsigned upgradable = 0;
    bool cache_ok = true;
    try {
        if (stats) {
            progress.start("Building dependency tree");
            // As apt: the line is the reading of extended_states, so only when there is one.
            if (::access(config.find_file("Dir::State::extended_states").c_str(), F_OK) == 0)
                progress.start("Reading state information");
            upgradable = count_upgradable(config, ctx.diags);
        } else {
            system::open_cache(config, ctx.diags);
        }
    } catch (const Error& e) {
        progress.done();
        result.messages.push_back({acquire::UpdateMessage::Error, e.what()});
        result.failed = true;
        cache_ok = false;
    }
    progress.done();
    // Printed even with -qq, as apt does.
    if (stats && cache_ok && !result.failed) {
        if (upgradable == 0)
            std::printf("All packages are up to date.\n");
        else
            std::printf("%u package%s can be upgraded. Run '%s list --upgradable' to see %s.\n", upgradable,
                        upgradable == 1 ? "" : "s", binary == "aptus" ? "aptus" : "apt",
                        upgradable == 1 ? "it" : "them");
    }
    std::fflush(stdout);
    for (const auto& m : result.messages) {
        // apt shows notices only when not quiet.
        if (m.level == acquire::UpdateMessage::Notice && quiet > 0) continue;
        if (m.beyond_apt && binary != "aptus") continue;
        const char* prefix = m.level == acquire::UpdateMessage::Error   ? "E"
                             : m.level == acquire::UpdateMessage::Warning ? "W"
                                                                          : "N";
        std::fprintf(stderr, "%s: %s\n", prefix, m.text.c_str());
    }
    const bool audit = config.find_bool("APT::Audit", false);
    for (const auto& a : sources::source_advice(entries, config, binary == "aptus" ? "aptus" : "apt")) {
        if (a.level == sources::SourceAdvice::Audit ? !audit : quiet > 0) continue;
        std::fprintf(stderr, "%s: %s\n", a.level == sources::SourceAdvice::Audit ? "A" : "N", a.text.c_str());
    }
    return result.failed ? kExitError : kExitSuccess;
}

}  // namespace aptus::cli
