// The whole job behind one object, for a front end that is not the aptus
// program (a GUI, a binding, an unattended upgrader): open the system
// (configuration, cache, policy, candidates) in one call, resolve a goal
// given in the words the aptus and apt-get command lines take, then download
// and run the transaction with an observer. Nothing here prints.
//
//   auto session = aptus::install::Session::open({.root = "/srv/chroot", .change_system = true});
//   auto resolution = session->resolve(aptus::install::Verb::Install, {"hello"});
//   if (!resolution.transaction) { /* resolution.errors, resolution.facts */ }
//   resolution.transaction->run(observer);
//
// docs/api.md describes it with examples/install_and_undo.cpp.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/base/error.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/install/execute.hpp"
#include "aptus/install/goal.hpp"
#include "aptus/install/history_target.hpp"
#include "aptus/install/plan.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/history_log.hpp"

namespace aptus::install {

struct SessionOptions {
    // A system root (the directory holding etc/apt, var/lib/dpkg, ...), as
    // `aptus --root`; empty: the running system. Its own apt.conf is read.
    std::string root;
    // A configuration file read before the system's (apt's APT_CONFIG).
    std::string config_file;
    // Settings applied after the configuration files, as `-o KEY=VALUE`.
    std::vector<std::pair<std::string, std::string>> settings;
    // Take the dpkg lock before reading the system, as apt does before it
    // changes anything; needed by Transaction::run. Throws aptus::Error of
    // kind Locked when another process holds it.
    bool change_system = false;
    // The program name whose apt defaults apply (Binary::<name>::*).
    std::string program = "aptus";
    // What the history log's Commandline: says for this session's runs.
    std::string command_line;
};

class Transaction;

// What resolve() gives: a transaction, or the reasons there is none.
struct Resolution {
    std::vector<std::string> notes;   // apt's notes: "Note, selecting ...", "... is already the newest version"
    // When there is no transaction: apt's errors for the request (a name
    // that names nothing, ...) or the solver's.
    std::vector<std::string> errors;
    ErrorKind error_kind = ErrorKind::Other;  // Unsolvable when the solver found no answer
    std::vector<solver::Fact> facts;          // then: the facts that cannot all hold
    std::unique_ptr<Transaction> transaction;
};

class Session {
public:
    static std::unique_ptr<Session> open(const SessionOptions& options);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    const config::Config& config() const;
    const cache::Cache& cache() const;
    const system::Candidates& candidates() const;
    // Notices and warnings from opening (a sources file with an unknown
    // option, a damaged extended_states, ...).
    const Diagnostics& diagnostics() const;

    // The goal's words are read as `aptus VERB WORDS...` reads them (names,
    // name=version, name/release, name:arch, a trailing +/-, globs, apt's
    // patterns, a .deb's path such as "./foo_1.0_amd64.deb": the file joins
    // the session's sources and the system is read again), then solved on
    // the whole system. One session can resolve several goals; each starts
    // from the system as it was opened.
    Resolution resolve(Verb verb, const std::vector<std::string>& words);
    // The same with the packages given as values (goal.hpp's PackageSpec).
    Resolution resolve(Verb verb, const std::vector<PackageSpec>& packages);

    // The entries of the history log (apt's and aptus's runs), oldest first.
    std::vector<system::HistoryEntry> history() const;
    // A target state resolved (install/history_target.hpp: undo_target,
    // redo_target, rollback_target of history()): the install goal that
    // reaches it, with the marks the log gives. A resolution without
    // transaction and without errors: nothing to do.
    Resolution reach(const TargetState& target);
    // reach(undo_target of `entry` alone).
    Resolution undo(const system::HistoryEntry& entry);

private:
    friend class Transaction;
    struct State;
    explicit Session(std::unique_ptr<State> state);
    // A goal read on `su`, solved and planned.
    Resolution solve(system::SystemUniverse su, Goal goal);
    std::unique_ptr<State> state_;
};

// A transaction refers to its session: it must not outlive it.
class Transaction {
public:
    ~Transaction();
    // The changes (kinds, versions, automatic marks) in dpkg's order, and
    // the dpkg steps.
    const Plan& plan() const;
    // Bytes of .deb files still to fetch (not already in the archives
    // directory), when every version has a repository.
    std::optional<uint64_t> download_size() const;
    // Bytes the plan adds to the disk (negative: frees).
    int64_t disk_space_change() const { return install::disk_space_change(plan()); }
    // Only the downloads, into Dir::Cache::Archives; returns the files.
    std::vector<std::string> download(const DownloadObserver& observer);
    // Downloads, runs dpkg and writes the marks and the history log. Needs
    // a session opened with change_system. Throws aptus::Error (kind
    // Network, Dpkg, ...). Open a new Session afterwards to see the new state.
    Executed run(const ExecuteObserver& observer);

private:
    friend class Session;
    struct State;
    explicit Transaction(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace aptus::install
