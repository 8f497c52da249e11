// Prints what the library's update reports, in apt's shape: one numbered
// line per item as it finishes, a progress line on a terminal only (redrawn
// in place and erased before any other line), "Fetched ...", the cache
// rebuild, the upgradable count, then the collected E:/W:/N: messages.
#include "cli/commands/update_cmd.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "aptus/acquire/update.hpp"
#include "aptus/base/error.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/system.hpp"
#include "cli/human_size.hpp"
#include "cli/package_line.hpp"
#include "cli/version_select.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec update_table[] = {
    {0, "allow-releaseinfo-change", "Acquire::AllowReleaseInfoChange", ArgKind::Flag},
    {0, "allow-insecure-repositories", "Acquire::AllowInsecureRepositories", ArgKind::Flag},
};

// apt's TimeToStr: "4s", "1min 5s", "2h 3min 4s".
std::string time_text(double seconds) {
    long s = std::lround(seconds);
    if (s >= 3600) return std::to_string(s / 3600) + "h " + std::to_string(s / 60 % 60) + "min " + std::to_string(s % 60) + "s";
    if (s >= 60) return std::to_string(s / 60) + "min " + std::to_string(s % 60) + "s";
    return std::to_string(s) + "s";
}

class Screen {
public:
    Screen(int quiet) : quiet_(quiet), progress_(quiet == 0 && ::isatty(STDOUT_FILENO)) {}

    void line(const acquire::UpdateLine& l) {
        if (quiet_ >= 2) return;
        clear();
        static const char* kinds[] = {"Hit", "Get", "Ign", "Err"};
        std::printf("%s:%u %s", kinds[l.kind], l.number, l.description.c_str());
        if (l.kind == acquire::UpdateLine::Get && l.size) std::printf(" [%sB]", human_size(double(l.size)).c_str());
        std::putchar('\n');
        for (const auto& d : l.details) {
            // A multi-line reason keeps the indentation on every line.
            size_t pos = 0;
            while (pos <= d.size()) {
                size_t end = d.find('\n', pos);
                if (end == std::string::npos) end = d.size();
                std::printf("  %.*s\n", int(end - pos), d.data() + pos);
                pos = end + 1;
            }
        }
        std::fflush(stdout);
        redraw();
    }

    void progress(const acquire::FetchEvent& ev) {
        if (!progress_ || ev.kind != acquire::FetchEvent::Progress) return;
        auto now = std::chrono::steady_clock::now();
        if (last_bytes_ == 0) start_ = now;
        double secs = std::chrono::duration<double>(now - start_).count();
        unsigned pct = ev.bytes_expected ? unsigned(std::min<uint64_t>(100, ev.bytes_done * 100 / ev.bytes_expected)) : 0;
        text_ = std::to_string(pct) + "% [" + std::to_string(ev.finished) + "/" + std::to_string(ev.total) + " files";
        if (secs > 0.5) text_ += " " + human_size(double(ev.bytes_done) / secs) + "B/s";
        text_ += "]";
        last_bytes_ = ev.bytes_done + 1;
        redraw();
    }

    void clear() {
        if (!shown_.empty()) std::printf("\r%*s\r", int(shown_.size()), "");
        shown_.clear();
    }

private:
    void redraw() {
        if (!progress_ || text_.empty()) return;
        clear();
        std::fputs(text_.c_str(), stdout);
        std::fflush(stdout);
        shown_ = text_;
    }
    int quiet_;
    bool progress_;
    std::string text_, shown_;
    uint64_t last_bytes_ = 0;
    std::chrono::steady_clock::time_point start_{};
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

int run_update(Context& ctx) {
    const config::Config& config = ctx.config;
    const int quiet = effective_quiet(config);
    Screen screen(quiet);
    acquire::UpdateObserver observer;
    observer.line = [&](const acquire::UpdateLine& l) { screen.line(l); };
    observer.progress = [&](const acquire::FetchEvent& ev) { screen.progress(ev); };
    acquire::UpdateResult result;
    try {
        result = acquire::update_lists(config, ctx.diags, observer);
    } catch (const Error& e) {
        // What stops the whole update (the lock, unreadable sources) may
        // span lines, each its own error as apt prints them.
        screen.clear();
        std::fflush(stdout);
        std::string_view text = e.what();
        for (size_t pos = 0; pos <= text.size();) {
            size_t end = std::min(text.find('\n', pos), text.size());
            std::fprintf(stderr, "E: %.*s\n", int(end - pos), text.data() + pos);
            pos = end + 1;
        }
        return 100;
    }
    screen.clear();
    if (result.fetched_bytes > 0 && quiet < 2) {
        double rate = result.seconds > 0 ? double(result.fetched_bytes) / result.seconds : 0;
        std::printf("Fetched %sB in %s (%sB/s)\n", human_size(double(result.fetched_bytes)).c_str(),
                    time_text(result.seconds).c_str(), human_size(rate).c_str());
    }
    std::fflush(stdout);

    Progress progress(config, false);
    progress.start("Reading package lists");
    unsigned upgradable = 0;
    bool cache_ok = true;
    try {
        progress.start("Building dependency tree");
        progress.start("Reading state information");
        upgradable = count_upgradable(config, ctx.diags);
    } catch (const Error& e) {
        progress.done();
        result.messages.push_back({acquire::UpdateMessage::Error, e.what()});
        result.failed = true;
        cache_ok = false;
    }
    progress.done();
    if (cache_ok && !result.failed && quiet < 2) {
        if (upgradable == 0)
            std::printf("All packages are up to date.\n");
        else
            std::printf("%u package%s can be upgraded. Run 'aptus list --upgradable' to see %s.\n", upgradable,
                        upgradable == 1 ? "" : "s", upgradable == 1 ? "it" : "them");
    }
    std::fflush(stdout);
    for (const auto& m : result.messages) {
        // apt shows notices only when not quiet.
        if (m.level == acquire::UpdateMessage::Notice && quiet > 0) continue;
        const char* prefix = m.level == acquire::UpdateMessage::Error   ? "E"
                             : m.level == acquire::UpdateMessage::Warning ? "W"
                                                                          : "N";
        std::fprintf(stderr, "%s: %s\n", prefix, m.text.c_str());
    }
    return result.failed ? 100 : 0;
}

}  // namespace aptus::cli
