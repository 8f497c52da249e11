#include "aptus/install/execute.hpp"

#include <algorithm>
#include <ctime>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "aptus/acquire/archives.hpp"
#include "aptus/base/error.hpp"
#include "aptus/install/archives.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/system/auto_marks.hpp"
#include "aptus/system/dpkg_order.hpp"
#include "aptus/system/history_log.hpp"

namespace aptus::install {
namespace {

void tell(const ExecuteObserver& observer, const Diagnostics& diags) {
    if (observer.diagnostic)
        for (const Diagnostic& d : diags) observer.diagnostic(d);
}


std::string version_text(const cache::Cache& c, const cache::Version* v) { return v ? std::string(c.str(v->version)) : ""; }

std::string arch_of(const cache::Cache& c, const cache::Package& p) { return std::string(c.str(p.architecture)); }

system::HistoryEntry history_of(const config::Config& config, const cache::Cache& c, const Plan& plan) {
    system::HistoryEntry e;
    e.start_date = system::history_date(std::time(nullptr));
    e.commandline = config.find("CommandLine::AsString");
    e.requested_by = system::history_requested_by();
    e.comment = config.find("APT::History::Comment");
    for (const Change& ch : plan.changes) {
        system::HistoryItem item;
        item.package = std::string(c.name_of(*ch.package)) + ":" + arch_of(c, *ch.package);
        switch (ch.kind) {
            case ChangeKind::Install:
                item.new_version = version_text(c, ch.new_version);
                item.automatic = ch.automatic;
                e.install.push_back(item);
                break;
            case ChangeKind::Upgrade:
            case ChangeKind::Downgrade:
                item.old_version = version_text(c, ch.old_version);
                item.new_version = version_text(c, ch.new_version);
                (ch.kind == ChangeKind::Upgrade ? e.upgrade : e.downgrade).push_back(item);
                break;
            case ChangeKind::Reinstall:
                item.new_version = version_text(c, ch.new_version);
                e.reinstall.push_back(item);
                break;
            case ChangeKind::Remove:
                item.old_version = version_text(c, ch.old_version);
                (ch.purge ? e.purge : e.remove).push_back(item);
                break;
        }
    }
    // apt lists each kind in its cache's hash order (it walks the packages
    // of the cache), not in dpkg's order.
    auto by_apt_hash = [](std::vector<system::HistoryItem>& items) {
        auto name = [](const system::HistoryItem& i) { return std::string_view(i.package).substr(0, i.package.find(':')); };
        std::stable_sort(items.begin(), items.end(), [&](const system::HistoryItem& a, const system::HistoryItem& b) {
            return request::apt_hash_key(name(a)) < request::apt_hash_key(name(b));
        });
    };
    for (auto* items : {&e.install, &e.upgrade, &e.downgrade, &e.reinstall, &e.remove, &e.purge}) by_apt_hash(*items);
    return e;
}

// The ordered steps as dpkg operations, each Unpack with its .deb.
std::vector<system::DpkgOperation> dpkg_operations(const Execution& run, const std::vector<system::DpkgStep>& steps,
                                                   const std::vector<std::string>& archive_of_version) {
    const cache::Cache& c = run.cache;
    std::vector<system::DpkgOperation> ops;
    ops.reserve(steps.size());
    for (const system::DpkgStep& step : steps) {
        const cache::Version& v = c.versions()[run.su.cache_version[step.version]];
        const cache::Package& p = c.package_of(v);
        system::DpkgOperation op;
        op.action = step.action;
        // As apt: qualified by the version's architecture, so an
        // Architecture: all package is "name:all" to dpkg whatever the
        // native architecture (which apt's may not be dpkg's).
        op.package = std::string(c.name_of(p)) + ":" + std::string(c.str(v.architecture));
        op.version = std::string(c.str(v.version));
        const solver::Version& uv = run.su.universe.versions[step.version];
        if (step.action == system::DpkgAction::Unpack) op.archive = archive_of_version[step.version];
        if (step.action == system::DpkgAction::Remove || step.action == system::DpkgAction::Purge)
            op.essential = uv.essential || uv.important;
        switch (uv.multi_arch) {
            case solver::MultiArch::Same: op.multi_arch = "same"; break;
            case solver::MultiArch::Foreign: op.multi_arch = "foreign"; break;
            case solver::MultiArch::Allowed: op.multi_arch = "allowed"; break;
            default: break;
        }
        ops.push_back(std::move(op));
    }
    return ops;
}

// What dpkg's success changes in extended_states: new packages marked as
// the plan says; write_auto_marks drops the marks of what dpkg removed.
// Called twice, as apt writes: before dpkg runs (`installing`: the new
// packages count as installed, so a dpkg failure or a kill -9 meanwhile
// does not lose their marks) and after it succeeded (now the status says
// what is installed, and the removed packages' stanzas go).
void write_marks(const config::Config& config, const cache::Cache& c, const Plan& plan,
                 const std::vector<const cache::Package*>& now_manual, bool installing,
                 const ExecuteObserver& observer) {
    std::vector<system::AutoMark> marks;
    for (const Change& ch : plan.changes)
        if (ch.kind != ChangeKind::Remove)
            marks.push_back({std::string(c.name_of(*ch.package)), arch_of(c, *ch.package), ch.automatic, installing});
    for (const cache::Package* p : now_manual) marks.push_back({std::string(c.name_of(*p)), arch_of(c, *p), false});
    // New stanzas are appended in this order: apt's is its cache's hash order.
    std::stable_sort(marks.begin(), marks.end(), [](const system::AutoMark& a, const system::AutoMark& b) {
        return request::apt_hash_key(a.package) < request::apt_hash_key(b.package);
    });
    Diagnostics diags;  // a damaged extended_states, told at once as dpkg's output is
    system::write_auto_marks(config, marks, diags);
    tell(observer, diags);
}

// apt's check before downloading: the .debs not already in the archives dir
// must fit there.
void check_free_space(const cache::Cache& c, const std::vector<const cache::Version*>& versions,
                      const std::string& archives) {
    uint64_t needed = 0;
    for (const cache::Version* v : versions) {
        const cache::Package& p = c.package_of(*v);
        std::string path = archives + acquire::archive_file_name(c.name_of(p), c.str(v->version), c.str(v->architecture));
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && uint64_t(st.st_size) == c.size_of(*v)) continue;
        needed += c.size_of(*v);
    }
    struct statvfs fs {};
    if (needed == 0 || ::statvfs(archives.c_str(), &fs) != 0) return;
    if (uint64_t(fs.f_bavail) * fs.f_frsize < needed)
        throw Error("You don't have enough free space in " + archives + ".");
}

}  // namespace

void write_manual_marks(const config::Config& config, const cache::Cache& cache,
                        const std::vector<const cache::Package*>& packages, Diagnostics& diags) {
    // Called with none too: the stanzas of packages dpkg removed go, so a run
    // killed between dpkg's end and its last write of extended_states is
    // finished by the next one, which finds nothing else to do. An unchanged
    // file is not written.
    std::vector<system::AutoMark> marks;
    for (const cache::Package* p : packages) marks.push_back({std::string(cache.name_of(*p)), arch_of(cache, *p), false});
    system::write_auto_marks(config, marks, diags);
}

Executed execute_plan(const config::Config& config, const Execution& run, const ExecuteObserver& observer) {
    const cache::Cache& c = run.cache;
    const Plan& plan = run.plan;
    // Packages with only configuration files left: purged first, outside the
    // order (nothing depends on what is not installed).
    std::vector<size_t> config_purges;
    system::DpkgWork work = plan_work(run.su, c, plan, config_purges);
    std::vector<system::DpkgOperation> ops;
    for (size_t i : config_purges) {
        const Change& ch = plan.changes[i];
        const std::string arch = ch.old_version ? std::string(c.str(ch.old_version->architecture)) : arch_of(c, *ch.package);
        ops.push_back({system::DpkgAction::Purge, std::string(c.name_of(*ch.package)) + ":" + arch,
                       version_text(c, ch.old_version), "", false, ""});
    }
    // The .debs, in the order of work.install.
    std::vector<const cache::Version*> fetch;
    for (const Change& ch : plan.changes)
        if (ch.kind != ChangeKind::Remove) fetch.push_back(ch.new_version);
    const std::vector<uint32_t>& fetch_universe = work.install;
    std::string archives = config.find_dir("Dir::Cache::Archives");
    check_free_space(c, fetch, archives);
    std::vector<std::string> paths = download_archives(config, c, fetch, archives, observer.download);
    if (config.find_bool("APT::Get::Download-Only")) return Executed::DownloadOnly;
    std::vector<std::string> archive_of_version(run.su.universe.versions.size());
    for (size_t i = 0; i < fetch.size(); ++i) archive_of_version[fetch_universe[i]] = paths[i];

    std::vector<system::DpkgStep> steps = system::order_dpkg_work(run.su.universe, work);
    if (config.find_bool("Debug::Aptus::Order")) {
        // The order is checked against dpkg's rules before dpkg sees it.
        Diagnostics problems;
        for (const std::string& problem : system::validate_dpkg_order(run.su.universe, work, steps))
            problems.push_back({Level::Warning, "order: " + problem});
        tell(observer, problems);
    }
    for (system::DpkgOperation& op : dpkg_operations(run, steps, archive_of_version)) ops.push_back(std::move(op));
    // As apt: what an earlier run left unpacked or half-configured is
    // configured at the end of this one.
    for (std::string& name : unfinished_packages(c)) {
        bool planned = false;
        for (const system::DpkgOperation& op : ops) planned = planned || op.package == name;
        if (!planned) ops.push_back({system::DpkgAction::Configure, std::move(name), "", "", false, ""});
    }

    system::HistoryEntry history = history_of(config, c, plan);
    write_marks(config, c, plan, run.now_manual, true, observer);
    try {
        system::DpkgObserver dpkg = observer.dpkg_starting ? observer.dpkg_starting() : system::DpkgObserver{};
        try {
            system::run_dpkg(config, ops, dpkg, &run.lock);
        } catch (...) {
            if (observer.dpkg_finished) observer.dpkg_finished();
            throw;
        }
        if (observer.dpkg_finished) observer.dpkg_finished();
    } catch (const Error& e) {
        history.error = e.what();
        history.end_date = system::history_date(std::time(nullptr));
        try {
            system::append_history(config, history);
        } catch (const Error&) {
            // The dpkg failure is what the user must see; a log that cannot
            // be written must not hide it.
        }
        throw Error(e.what(), ErrorKind::Dpkg);
    }
    write_marks(config, c, plan, run.now_manual, false, observer);
    history.end_date = system::history_date(std::time(nullptr));
    system::append_history(config, history);
    return Executed::Installed;
}

}  // namespace aptus::install
