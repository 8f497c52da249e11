#include "aptus/system/simulated_state.hpp"

#include <algorithm>
#include <limits>

namespace aptus::system {
namespace {

constexpr uint32_t none = std::numeric_limits<uint32_t>::max();

bool critical(solver::DepKind k) {
    return k == solver::DepKind::Depends || k == solver::DepKind::PreDepends || solver::is_negative(k);
}

}  // namespace

SimulatedState::SimulatedState(const solver::Universe& u, const std::vector<uint32_t>& planned)
    : u_(u), state_(u.packages.size(), none), broken_(u.packages.size(), 0), indexed_(u.versions.size(), 0) {
    for (uint32_t v = 0; v < u.versions.size(); ++v)
        if (u.versions[v].installed) {
            state_[u.versions[v].package] = v;
            index(v);
        }
    for (uint32_t v : planned) index(v);
    for (uint32_t p = 0; p < u.packages.size(); ++p)
        if (state_[p] != none && evaluate(p)) {
            broken_[p] = 1;
            ++broken_count_;
        }
}

// Who must be looked at again when a name's meaning changes.
void SimulatedState::index(uint32_t version) {
    if (indexed_[version]) return;
    indexed_[version] = 1;
    const uint32_t p = u_.versions[version].package;
    for (const solver::Dependency& d : u_.deps(version)) {
        if (!critical(d.kind)) continue;
        for (const solver::Target& t : d.alternatives) {
            auto& users = users_[t.name];
            if (users.empty() || users.back() != p) users.push_back(p);
        }
    }
}

bool SimulatedState::evaluate(uint32_t package) const { return !unmet(package).empty(); }

std::vector<std::pair<solver::DepKind, solver::Target>> SimulatedState::unmet(uint32_t package) const {
    std::vector<std::pair<solver::DepKind, solver::Target>> out;
    const uint32_t v = state_[package];
    if (v == none) return out;
    std::vector<uint32_t> hits;
    auto present = [&](uint32_t x) { return state_[u_.versions[x].package] == x; };
    for (const solver::Dependency& d : u_.deps(v)) {
        if (!critical(d.kind) || d.alternatives.empty()) continue;
        hits.clear();
        if (solver::is_negative(d.kind)) u_.conflicts_with(v, d.alternatives[0], hits);
        else
            for (const solver::Target& t : d.alternatives) u_.satisfiers(v, t, hits);
        const bool any = std::any_of(hits.begin(), hits.end(), present);
        if (any == solver::is_negative(d.kind)) out.emplace_back(d.kind, d.alternatives[0]);
    }
    return out;
}

void SimulatedState::refresh(uint32_t package) {
    const uint8_t now = evaluate(package) ? 1 : 0;
    if (now == broken_[package]) return;
    broken_count_ = broken_count_ + now - broken_[package];
    broken_[package] = now;
}

void SimulatedState::touched(uint32_t package, uint32_t old_version) {
    std::vector<uint32_t> names{u_.packages[package].name};
    for (uint32_t v : {old_version, state_[package]})
        if (v != none)
            for (const solver::Provide& pr : u_.versions[v].provides) names.push_back(pr.name);
    refresh(package);
    for (uint32_t n : names)
        if (auto it = users_.find(n); it != users_.end())
            for (uint32_t user : it->second) refresh(user);
}

void SimulatedState::install(uint32_t version) {
    const uint32_t p = u_.versions[version].package;
    const uint32_t old = state_[p];
    index(version);
    state_[p] = version;
    touched(p, old);
}

void SimulatedState::remove(uint32_t package) {
    const uint32_t old = state_[package];
    state_[package] = none;
    touched(package, old);
}

std::vector<uint32_t> SimulatedState::broken_packages() const {
    std::vector<uint32_t> out;
    for (uint32_t p = 0; p < broken_.size(); ++p)
        if (broken_[p]) out.push_back(p);
    return out;
}

}  // namespace aptus::system
