#include "aptus/install/session.hpp"

#include <algorithm>
#include <optional>

#include "aptus/config/init.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/external_solver.hpp"
#include "aptus/system/system.hpp"
#include "aptus/system/system_universe.hpp"
#include "aptus/system/volatile_sources.hpp"

namespace aptus::install {

struct Session::State {
    config::Config config;
    Diagnostics diags;
    std::optional<system::DpkgLock> lock;  // taken before the system is read
    std::unique_ptr<system::OpenSystem> open;
    // Systems read before a path word reopened it: transactions resolved
    // against them still refer to them.
    std::vector<std::unique_ptr<system::OpenSystem>> earlier;
};

struct Transaction::State {
    Session::State& session;
    const system::OpenSystem& open;  // what it was resolved against
    system::SystemUniverse su;
    Goal goal;
    Plan plan;
};

Session::Session(std::unique_ptr<State> state) : state_(std::move(state)) {}
Session::~Session() = default;

std::unique_ptr<Session> Session::open(const SessionOptions& options) {
    auto state = std::make_unique<State>();
    config::LoadRequest load;
    load.binary = options.program;
    load.command_line = options.command_line;
    if (!options.root.empty()) load.root = options.root;
    if (!options.config_file.empty()) load.apt_config = options.config_file;
    for (const auto& [key, value] : options.settings)
        load.items.push_back({config::CommandLineItem::Kind::Set, key, value});
    state->config = config::load(load, state->diags);
    if (options.change_system) {
        state->lock.emplace(state->config);
        if (auto interrupted = system::dpkg_interrupted(state->config)) throw Error(*interrupted, ErrorKind::Dpkg);
    }
    state->open = system::open_system(state->config, state->diags);
    return std::unique_ptr<Session>(new Session(std::move(state)));
}

const config::Config& Session::config() const { return state_->config; }
const cache::Cache& Session::cache() const { return state_->open->cache(); }
const system::Candidates& Session::candidates() const { return *state_->open->candidates; }
const Diagnostics& Session::diagnostics() const { return state_->diags; }

Resolution Session::resolve(Verb verb, const std::vector<std::string>& words) {
    State& s = *state_;
    // A .deb named by its path joins the sources for the rest of the session.
    if (std::any_of(words.begin(), words.end(), [](const std::string& w) { return system::is_path_word(w); })) {
        system::add_path_words(s.config, words);
        s.earlier.push_back(std::move(s.open));
        s.open = system::open_system(s.config, s.diags);
    }
    // Reading the words changes the universe (candidates, holds) as apt
    // changes its depcache: each goal gets its own.
    system::SystemUniverse su = system::system_universe(cache(), *s.open->candidates);
    Goal goal = read_goal(s.config, su, cache(), *s.open->candidates, verb, words);
    return solve(std::move(su), std::move(goal));
}

Resolution Session::reach(const TargetState& target) {
    if (target.empty()) return {};
    State& s = *state_;
    system::SystemUniverse su = system::system_universe(cache(), *s.open->candidates);
    Goal goal = target_goal(s.config, su, cache(), *s.open->candidates, target);
    return solve(std::move(su), std::move(goal));
}

Resolution Session::solve(system::SystemUniverse su, Goal goal) {
    State& s = *state_;
    const cache::Cache& c = cache();
    Resolution out;
    out.notes = goal.request.notes;
    if (!goal.request.errors.empty()) {
        out.errors = goal.request.errors;
        return out;
    }
    system::SolveOutcome solved = system::solve_with(s.config, su, goal.request.request);
    s.diags.insert(s.diags.end(), solved.diagnostics.begin(), solved.diagnostics.end());
    if (!solved.solution.solved) {
        out.errors = solved.errors;
        out.error_kind = ErrorKind::Unsolvable;
        out.facts = solved.solution.facts;
        return out;
    }
    Plan plan = plan_goal(su, c, *s.open->candidates, goal, solved.solution, out.errors);
    if (!out.errors.empty()) return out;
    apply_mark_auto(s.config, su, c, goal.request, plan);
    out.transaction.reset(new Transaction(std::unique_ptr<Transaction::State>(
        new Transaction::State{s, *s.open, std::move(su), std::move(goal), std::move(plan)})));
    return out;
}

Resolution Session::resolve(Verb verb, const std::vector<PackageSpec>& packages) {
    std::vector<std::string> words;
    for (const PackageSpec& p : packages) words.push_back(goal_word(p));
    return resolve(verb, words);
}

std::vector<system::HistoryEntry> Session::history() const { return system::read_history(state_->config); }

Resolution Session::undo(const system::HistoryEntry& entry) { return reach(undo_target(std::span(&entry, 1), 1)); }

Transaction::Transaction(std::unique_ptr<State> state) : state_(std::move(state)) {}
Transaction::~Transaction() = default;

const Plan& Transaction::plan() const { return state_->plan; }

namespace {

std::vector<const cache::Version*> new_versions(const Plan& plan) {
    std::vector<const cache::Version*> out;
    for (const Change& ch : plan.changes)
        if (ch.kind != ChangeKind::Remove) out.push_back(ch.new_version);
    return out;
}

}  // namespace

std::optional<uint64_t> Transaction::download_size() const {
    const Session::State& s = state_->session;
    auto bytes = archive_bytes(s.config, state_->open.cache(), new_versions(state_->plan),
                               s.config.find_dir("Dir::Cache::Archives"));
    if (!bytes) return std::nullopt;
    return bytes->to_fetch;
}

std::vector<std::string> Transaction::download(const DownloadObserver& observer) {
    const Session::State& s = state_->session;
    return download_archives(s.config, state_->open.cache(), new_versions(state_->plan),
                             s.config.find_dir("Dir::Cache::Archives"), observer);
}

Executed Transaction::run(const ExecuteObserver& observer) {
    Session::State& s = state_->session;
    if (!s.lock) throw Error("the session was opened without change_system: it holds no dpkg lock", ErrorKind::Locked);
    return execute_plan(s.config, Execution{state_->su, state_->open.cache(), state_->plan, *s.lock, state_->goal.request.now_manual},
                        observer);
}

}  // namespace aptus::install
