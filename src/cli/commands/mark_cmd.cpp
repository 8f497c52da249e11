#include "cli/commands/mark_cmd.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <unordered_map>

#include "aptus/base/error.hpp"
#include "aptus/system/auto_marks.hpp"
#include "cli/apt_hash_order.hpp"
#include "cli/commands/mark_words.hpp"
#include "cli/read_session.hpp"

extern char** environ;

namespace aptus::cli {
namespace {

constexpr OptionSpec mark_table[] = {
    {'f', "file", "Dir::State::extended_states", ArgKind::Value},
};

void out(const std::string& line) { std::fputs((line + "\n").c_str(), stdout); }

int finish(const std::vector<std::string>& errors) {
    std::fflush(stdout);
    for (const std::string& e : errors) std::fprintf(stderr, "E: %s\n", e.c_str());
    return errors.empty() ? 0 : 100;
}

bool simulate(const config::Config& config) {
    return config.find_bool("APT::Mark::Simulate") || config.find_bool("APT::Get::Simulate");
}

bool installed(const cache::Package* p) { return p != nullptr && p->current_version != cache::kNone; }
bool automatic(const cache::Package& p) { return (p.flags & cache::kPackageAuto) != 0; }

int usage() {
    out("Usage: aptus mark [options] {auto|manual} pkg1 [pkg2 ...]\n"
        "       aptus mark [options] {hold|unhold} pkg1 [pkg2 ...]\n"
        "       aptus mark [options] {showauto|showmanual|showhold} [pkg1 ...]\n"
        "\n"
        "Marks packages as installed automatically (autoremove may take them once\n"
        "nothing needs them) or manually, and holds packages at their version.\n"
        "Options: -s (simulate), -f FILE (extended_states to use), -o, -c.");
    return 1;
}

// auto / manual: apt-mark prints what cannot change or is already so while
// it goes through the words, and what changed after.
int mark_auto(Context& ctx, bool want_auto) {
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    MarkWords words = resolve_mark_words(c, *session->candidates, ctx.config, ctx.args);
    if (words.targets.empty()) {
        words.errors.push_back("No packages found");
        return finish(words.errors);
    }
    const char* state = want_auto ? "automatically" : "manually";
    std::unordered_map<const cache::Package*, bool> now;  // marks changed so far
    std::vector<const MarkTarget*> changed;
    for (const MarkTarget& t : words.targets) {
        if (!installed(t.package)) {
            out(t.name + " can not be marked as it is not installed.");
            continue;
        }
        auto it = now.find(t.package);
        bool is_auto = it != now.end() ? it->second : automatic(*t.package);
        if (is_auto == want_auto) {
            out(t.name + " was already set to " + state + " installed.");
            continue;
        }
        now[t.package] = want_auto;
        changed.push_back(&t);
    }
    for (const MarkTarget* t : changed) out(t->name + " set to " + state + " installed.");
    if (!changed.empty() && !simulate(ctx.config)) {
        // apt appends new stanzas in its cache's hash order, not in word order.
        std::vector<const MarkTarget*> order = changed;
        std::stable_sort(order.begin(), order.end(), [&](const MarkTarget* a, const MarkTarget* b) {
            return apt_hash_key(c.name_of(*a->package)) < apt_hash_key(c.name_of(*b->package));
        });
        std::vector<system::AutoMark> marks;
        for (const MarkTarget* t : order)
            marks.push_back({std::string(c.name_of(*t->package)), std::string(c.str(t->package->architecture)), want_auto});
        system::write_auto_marks(ctx.config, marks, ctx.diags);
    }
    return finish(words.errors);
}

// dpkg with `args` after its base command (Dir::Bin::dpkg and
// DPkg::Options, as apt-mark runs it) and `input` on its stdin; dpkg's
// stderr goes to ours, its stdout too unless `quiet`.
void run_dpkg(const config::Config& config, std::vector<std::string> args, const std::string& input, bool quiet) {
    std::vector<std::string> argv{config.find("Dir::Bin::dpkg", "dpkg")};
    for (auto& [name, value] : config.children("DPkg::Options"))
        if (!value.empty()) argv.push_back(value);
    for (auto& a : args) argv.push_back(std::move(a));
    std::vector<char*> cargs;
    for (auto& a : argv) cargs.push_back(a.data());
    cargs.push_back(nullptr);

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw system_error("pipe", argv[0], errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
    if (quiet) posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::fflush(stdout);
    pid_t pid = 0;
    int rc = ::posix_spawnp(&pid, cargs[0], &actions, nullptr, cargs.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[0]);
    if (rc != 0) {
        ::close(fds[1]);
        throw system_error("Could not execute", argv[0], rc);
    }
    size_t done = 0;
    while (done < input.size()) {
        ssize_t n = ::write(fds[1], input.data() + done, input.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // dpkg went away; its status says why
        done += size_t(n);
    }
    ::close(fds[1]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw Error("Executing dpkg failed. Are you root?");
}

// hold / unhold: through the installed version, else the candidate, as
// apt-mark selects them; its architecture ("all" included) names the package
// for dpkg.
int mark_hold(Context& ctx, bool hold) {
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    MarkWords words = resolve_mark_words(c, *session->candidates, ctx.config, ctx.args);
    struct Selected {
        const MarkTarget* target;
        const cache::Version* version;
    };
    std::vector<Selected> selected;
    for (const MarkTarget& t : words.targets) {
        const cache::Version* v = t.package ? c.current_version(*t.package) : nullptr;
        if (v == nullptr && t.package) v = session->candidates->candidate(*t.package);
        if (v == nullptr) {
            words.errors.push_back("Can't select installed nor candidate version from package '" + t.name +
                                   "' as it has neither of them");
            continue;
        }
        selected.push_back({&t, v});
    }
    if (selected.empty()) {
        words.errors.push_back("No packages found");
        return finish(words.errors);
    }
    std::vector<Selected> change;
    for (const Selected& s : selected) {
        bool held = s.target->package->selection == cache::Selection::Hold;
        if (hold && held) out(s.target->name + " was already set on hold.");
        else if (!hold && !held) out(s.target->name + " was already not on hold.");
        else change.push_back(s);
    }
    if (change.empty()) return finish(words.errors);
    if (!simulate(ctx.config)) {
        // dpkg refuses a selection for a package it has never seen; apt-mark
        // first gives it a placeholder record of each one not installed.
        std::string dummies;
        for (const Selected& s : change) {
            if (!hold || installed(s.target->package)) continue;
            dummies += "Package: " + std::string(c.name_of(*s.target->package)) + "\nVersion: 0~\nArchitecture: " +
                       std::string(c.str(s.version->architecture)) +
                       "\nMaintainer: Dummy Example <dummy@example.org>\nDescription: dummy package record\n"
                       " A record is needed to put a package on hold, so here it is.\n\n";
        }
        if (!dummies.empty()) run_dpkg(ctx.config, {"--merge-avail", "-"}, dummies, true);
        std::string input;
        for (const Selected& s : change) {
            const cache::Package& p = *s.target->package;
            input += std::string(c.name_of(p)) + ":" + std::string(c.str(s.version->architecture)) + " ";
            input += hold ? "hold" : installed(&p) ? "install" : "deinstall";
            input += "\n";
        }
        run_dpkg(ctx.config, {"--set-selections"}, input, false);
    }
    for (const Selected& s : change) out(hold ? s.target->name + " set on hold." : "Canceled hold on " + s.target->name + ".");
    return finish(words.errors);
}

enum class Show { Auto, Manual, Hold };

// showauto / showmanual / showhold: sorted names; words that name nothing
// are no error here, as in apt-mark.
int mark_show(Context& ctx, Show what) {
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    auto wanted = [&](const cache::Package& p) {
        switch (what) {
        case Show::Auto: return installed(&p) && automatic(p);
        case Show::Manual: return installed(&p) && !automatic(p);
        case Show::Hold: return p.selection == cache::Selection::Hold;
        }
        return false;
    };
    std::vector<std::string> names;
    // A word that is no valid pattern or expression is an error here too
    // (after the names found); one that names nothing is not.
    std::vector<std::string> errors;
    if (ctx.args.empty()) {
        for (const cache::Package& p : c.packages()) {
            if (!wanted(p)) continue;
            std::string name(c.name_of(p));
            if (c.str(p.architecture) != c.native_architecture()) name += ":" + std::string(c.str(p.architecture));
            names.push_back(std::move(name));
        }
    } else {
        MarkWords words = resolve_mark_words(c, *session->candidates, ctx.config, ctx.args);
        for (const MarkTarget& t : words.targets)
            if (t.package && wanted(*t.package)) names.push_back(t.name);
        errors = std::move(words.syntax_errors);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const std::string& n : names) out(n);
    return finish(errors);
}

}  // namespace

std::span<const OptionSpec> mark_options() { return mark_table; }

int run_mark(Context& ctx) {
    if (ctx.args.empty()) return usage();
    std::string op = ctx.args.front();
    ctx.args.erase(ctx.args.begin());
    if (op == "auto" || op == "markauto") return mark_auto(ctx, true);
    if (op == "manual" || op == "unmarkauto") return mark_auto(ctx, false);
    if (op == "hold") return mark_hold(ctx, true);
    if (op == "unhold") return mark_hold(ctx, false);
    if (op == "showauto") return mark_show(ctx, Show::Auto);
    if (op == "showmanual") return mark_show(ctx, Show::Manual);
    if (op == "showhold" || op == "showholds") return mark_show(ctx, Show::Hold);
    throw Error("Invalid operation " + op);
}

}  // namespace aptus::cli
