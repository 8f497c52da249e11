// clean: every file of the archives dir and its partial/ (the lock and the
// partial/ directory itself stay), the lists dir's partial/ files, and the
// binary caches (apt's pkgcache.bin and srcpkgcache.bin, and aptus's own).
// autoclean: only the archives no configured repository offers any more, as
// apt-get autoclean decides it from the file name. Both take the archives
// lock as apt does; with -s nothing is locked or removed, and apt's Del
// lines say what would go. distclean: clean, and the lists' indices too.
#include "cli/commands/clean_cmd.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "aptus/acquire/lists_clean.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/acquire/lists_store.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/install/archive_clean.hpp"
#include "aptus/system/system.hpp"
#include "cli/fetch_screen.hpp"
#include "cli/human_size.hpp"
#include "cli/package_line.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"
#include "cli/exit_status.hpp"

namespace aptus::cli {
namespace {

// The entries of a directory in readdir order (apt's order), minus what
// apt's cleaners never touch.
std::vector<std::string> entries(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        std::string_view n = e->d_name;
        if (n == "." || n == ".." || n == "lock" || n == "partial" || n == "lost+found" || n == "auxfiles") continue;
        out.emplace_back(n);
    }
    ::closedir(d);
    return out;
}

void unlink_or_warn(Context& ctx, const std::string& dir, const std::string& name, const char* where) {
    if (::unlink((dir + name).c_str()) == 0 || errno == ENOENT) return;
    int err = errno;
    ctx.diags.push_back({Level::Warning, "Problem unlinking the file " + name + " - " + where + " (" +
                                             std::to_string(err) + ": " + std::strerror(err) + ")"});
}

// apt's clean names the directory when its lock is held, autoclean says
// "the download directory"; both after the line naming the holder.
void lock_archives(std::optional<acquire::ListsLock>& lock, const std::string& dir, bool autoclean) {
    try {
        lock.emplace(dir);
    } catch (const Error& e) {
        std::string text = e.what();
        if (autoclean) text = text.substr(0, text.find('\n')) + "\nUnable to lock the download directory";
        throw Error(text);
    }
}

bool simulate(const config::Config& config) { return config.find_bool("APT::Get::Simulate"); }

std::string archives_dir(const config::Config& config) { return config.find_dir("Dir::Cache::Archives"); }

int clean(Context& ctx) {
    const config::Config& config = ctx.config;
    const std::string archives = archives_dir(config);
    const std::string lists = config.find_dir("Dir::State::lists");
    std::vector<std::string> caches;
    for (const char* key : {"Dir::Cache::pkgcache", "Dir::Cache::srcpkgcache"})
        if (!config.find(key).empty()) caches.push_back(config.find_file(key));
    caches.push_back(system::cache_path(config));
    if (simulate(config)) {
        std::printf("Del %s* %spartial/*\n", archives.c_str(), archives.c_str());
        std::printf("Del %spartial/*\n", lists.c_str());
        std::printf("Del");
        for (const auto& c : caches) std::printf(" %s", c.c_str());
        std::printf("\n");
        return 0;
    }
    {
        std::optional<acquire::ListsLock> lock;
        if (is_directory(archives)) {
            lock_archives(lock, archives, false);
            // As apt, whose lock makes it: an existing directory has its partial/ afterwards.
            ::mkdir((archives + "partial").c_str(), 0700);
            for (const auto& dir : {archives, archives + "partial/"})
                for (const auto& name : entries(dir)) unlink_or_warn(ctx, dir, name, "pkgAcquire::Clean");
        }
    }
    if (is_directory(lists)) {
        acquire::ListsLock lock(lists);
        ::mkdir((lists + "partial").c_str(), 0700);
        for (const auto& name : entries(lists + "partial/")) unlink_or_warn(ctx, lists + "partial/", name, "pkgAcquire::Clean");
    }
    for (const auto& c : caches) ::unlink(c.c_str());
    ::unlink(cache::verified_mark_path(system::cache_path(config)).c_str());
    return 0;
}

// apt's distclean: the stored indices go, under the lists lock, then clean.
int distclean(Context& ctx) {
    const std::string lists = ctx.config.find_dir("Dir::State::lists");
    std::vector<std::string> names = acquire::distclean_list_files(lists);
    if (simulate(ctx.config)) {
        if (!names.empty()) {
            std::printf("Del");
            for (const auto& n : names) std::printf(" %s%s", lists.c_str(), n.c_str());
            std::printf("\n");
        }
        return clean(ctx);
    }
    if (is_directory(lists)) {
        acquire::ListsLock lock(lists);
        for (const auto& name : acquire::distclean_list_files(lists)) unlink_or_warn(ctx, lists, name, "DoDistClean");
    }
    return clean(ctx);
}

int autoclean(Context& ctx) {
    const config::Config& config = ctx.config;
    const std::string archives = archives_dir(config);
    const bool sim = simulate(config);
    const int quiet = effective_quiet(config);
    std::optional<acquire::ListsLock> lock;
    if (!sim && is_directory(archives)) lock_archives(lock, archives, true);

    Progress progress(config, false);
    progress.start("Reading package lists");
    progress.start("Building dependency tree");
    cache::OpenResult opened = system::open_cache(config, ctx.diags);
    progress.done();
    const cache::Cache& cache = opened.cache;
    const install::ArchiveCleaner cleaner(config, cache);
    for (const auto& dir : {archives, archives + "partial/"}) {
        for (const auto& name : entries(dir)) {
            if (cleaner.keep(name)) continue;
            struct stat st {};
            if (::stat((dir + name).c_str(), &st) != 0) continue;
            if (quiet < 2) {
                const install::ArchiveName n = *install::parse_archive_name(name);  // kept otherwise
                std::printf("Del %s %s [%sB]\n", n.package.c_str(), n.version.c_str(), human_size(double(st.st_size)).c_str());
            }
            if (!sim) unlink_or_warn(ctx, dir, name, "Cleaner::Erase");
        }
    }
    std::fflush(stdout);
    return 0;
}

}  // namespace

int run_clean(Context& ctx) {
    try {
        return clean(ctx);
    } catch (const Error& e) {
        print_error_lines(e.what());
        return kExitError;
    }
}

int run_distclean(Context& ctx) {
    try {
        return distclean(ctx);
    } catch (const Error& e) {
        print_error_lines(e.what());
        return kExitError;
    }
}

int run_autoclean(Context& ctx) {
    try {
        return autoclean(ctx);
    } catch (const Error& e) {
        print_error_lines(e.what());
        return kExitError;
    }
}

}  // namespace aptus::cli
