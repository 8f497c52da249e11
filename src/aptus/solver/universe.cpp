#include "aptus/solver/universe.hpp"

#include <algorithm>

#include "aptus/deb/version.hpp"

namespace aptus::solver {

std::string_view dep_kind_name(DepKind k) {
    switch (k) {
    case DepKind::Depends: return "Depends";
    case DepKind::PreDepends: return "Pre-Depends";
    case DepKind::Recommends: return "Recommends";
    case DepKind::Suggests: return "Suggests";
    case DepKind::Conflicts: return "Conflicts";
    case DepKind::Breaks: return "Breaks";
    }
    return "?";
}

std::string_view apt_dep_type_name(DepKind k) { return k == DepKind::PreDepends ? "PreDepends" : dep_kind_name(k); }

const char* Text::empty_chars() {
    // The layout of a stored text: the size (0) and then the chars ("").
    alignas(uint32_t) static const char empty[sizeof(uint32_t) + 1] = {};
    return empty + sizeof(uint32_t);
}

namespace {
uint64_t text_hash(std::string_view s) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : s) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return h;
}
}  // namespace

size_t TextTable::slot_of(std::string_view s, uint64_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = size_t(hash) & mask;; i = (i + 1) & mask)
        if (!slots_[i] || Text(slots_[i]).view() == s) return i;
}

Text TextTable::intern(std::string_view s) {
    if (s.empty()) return Text();
    if (count_ * 2 >= slots_.size()) {
        std::vector<const char*> old(std::max<size_t>(1024, slots_.size() * 2), nullptr);
        old.swap(slots_);
        for (const char* chars : old)
            if (chars) slots_[slot_of(Text(chars).view(), text_hash(Text(chars).view()))] = chars;
    }
    const size_t slot = slot_of(s, text_hash(s));
    if (slots_[slot]) return Text(slots_[slot]);
    slots_[slot] = store(s);
    ++count_;
    return Text(slots_[slot]);
}

Text TextTable::add(std::string_view s) { return s.empty() ? Text() : Text(store(s)); }

const char* TextTable::store(std::string_view s) {
    // Stored as [uint32 size][chars]['\0'], the size aligned for its own read.
    const size_t need = (sizeof(uint32_t) + s.size() + 1 + alignof(uint32_t) - 1) & ~(alignof(uint32_t) - 1);
    if (block_used_ + need > block_size_) {
        block_size_ = std::max<size_t>(64 * 1024, need);
        blocks_.push_back(std::make_unique<char[]>(block_size_));
        block_used_ = 0;
    }
    char* at = blocks_.back().get() + block_used_;
    block_used_ += need;
    const uint32_t size = uint32_t(s.size());
    std::memcpy(at, &size, sizeof size);
    std::memcpy(at + sizeof size, s.data(), s.size());
    at[sizeof size + s.size()] = '\0';
    return at + sizeof size;
}

constexpr uint32_t empty_slot = ~uint32_t{0};

size_t Universe::name_slot_index(std::string_view name) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : name) h = (h ^ uint8_t(c)) * 1099511628211ull;
    size_t mask = name_slots_.size() - 1;
    for (size_t i = size_t(h) & mask;; i = (i + 1) & mask)
        if (name_slots_[i] == empty_slot || names[name_slots_[i]] == name) return i;
}

void Universe::reserve(size_t package_count, size_t version_count, size_t name_count) {
    packages.reserve(package_count);
    versions.reserve(version_count);
    package_ids_.reserve(package_count);
    names.reserve(name_count);
    size_t slots = 1024;
    while (slots <= name_count * 2) slots *= 2;
    if (slots > name_slots_.size()) {
        name_slots_.assign(slots, empty_slot);
        for (uint32_t i = 0; i < names.size(); ++i) name_slots_[name_slot_index(names[i])] = i;
    }
}

uint32_t NameInterner::operator()(std::string_view name) const { return u_->intern_name(name); }

uint32_t Universe::intern(std::string_view name) { return intern_name(name); }

uint32_t Universe::intern_name(std::string_view name) const {
    if (names.size() * 2 >= name_slots_.size()) {
        name_slots_.assign(std::max<size_t>(1024, name_slots_.size() * 2), empty_slot);
        for (uint32_t i = 0; i < names.size(); ++i) name_slots_[name_slot_index(names[i])] = i;
    }
    size_t slot = name_slot_index(name);
    if (name_slots_[slot] != empty_slot) return name_slots_[slot];
    uint32_t id = uint32_t(names.size());
    names.emplace_back(name);
    name_slots_[slot] = id;
    return id;
}

std::optional<uint32_t> Universe::find_name(std::string_view name) const {
    if (name_slots_.empty()) return std::nullopt;
    uint32_t id = name_slots_[name_slot_index(name)];
    if (id == empty_slot) return std::nullopt;
    return id;
}

const std::vector<Dependency>& Universe::deps(uint32_t v) const {
    const Version& ver = versions[v];
    if (ver.deps_pending) {
        // Names first seen here are interned: the name table is a cache of
        // the source, and the indices built by finalize() simply do not know
        // them (nothing real or provided carries such a name).
        if (relation_source) relation_source(v, NameInterner(this), ver.deps);
        ver.deps_pending = false;
    }
    return ver.deps;
}

uint32_t Universe::arch_index(std::string_view arch) {
    if (auto i = find_arch_index(arch)) return *i;
    arch_names_.emplace_back(arch);
    return uint32_t(arch_names_.size() - 1);
}

std::optional<uint32_t> Universe::find_arch_index(std::string_view arch) const {
    for (size_t i = 0; i < arch_names_.size(); ++i)
        if (arch_names_[i] == arch) return uint32_t(i);
    return std::nullopt;
}

uint32_t Universe::package(std::string_view name, std::string_view arch) { return package(intern(name), arch); }

uint32_t Universe::package(uint32_t name, std::string_view arch) {
    if (arch == "all" || arch.empty()) arch = native_arch;
    uint64_t key = (uint64_t(name) << 16) | arch_index(arch);
    auto it = package_ids_.find(key);
    if (it != package_ids_.end()) return it->second;
    uint32_t id = uint32_t(packages.size());
    Package p;
    p.name = uint32_t(key >> 16);
    p.arch = text(arch);
    packages.push_back(std::move(p));
    package_ids_.emplace(key, id);
    return id;
}

std::optional<uint32_t> Universe::find_package(std::string_view name, std::string_view arch) const {
    if (arch == "all" || arch.empty()) arch = native_arch;
    auto n = find_name(name);
    auto a = find_arch_index(arch);
    if (!n || !a) return std::nullopt;
    auto it = package_ids_.find((uint64_t(*n) << 16) | *a);
    if (it == package_ids_.end()) return std::nullopt;
    return it->second;
}

uint32_t Universe::add_version(Version v) {
    uint32_t id = uint32_t(versions.size());
    packages[v.package].versions.push_back(id);
    versions.push_back(std::move(v));
    return id;
}

void Universe::finalize() {
    for (uint32_t p = 0; p < packages.size(); ++p) {
        // Newest first: the order satisfiers() offers versions of one package in.
        std::stable_sort(packages[p].versions.begin(), packages[p].versions.end(), [&](uint32_t a, uint32_t b) {
            return deb::compare_versions(versions[a].version, versions[b].version) > 0;
        });
    }
    // Counting sort into the flat arrays: count per name, prefix sums, fill
    // in index order (so each run keeps the order of packages and versions).
    const size_t n = names.size();
    by_name_start_.assign(n + 1, 0);
    providers_start_.assign(n + 1, 0);
    for (const Package& p : packages) ++by_name_start_[p.name + 1];
    for (const Version& v : versions)
        for (const Provide& pv : v.provides) ++providers_start_[pv.name + 1];
    for (size_t i = 0; i < n; ++i) {
        by_name_start_[i + 1] += by_name_start_[i];
        providers_start_[i + 1] += providers_start_[i];
    }
    by_name_.resize(by_name_start_[n]);
    providers_.resize(providers_start_[n]);
    std::vector<uint32_t> next(by_name_start_.begin(), by_name_start_.end() - 1);
    for (uint32_t p = 0; p < packages.size(); ++p) by_name_[next[packages[p].name]++] = p;
    next.assign(providers_start_.begin(), providers_start_.end() - 1);
    for (uint32_t v = 0; v < versions.size(); ++v)
        for (uint32_t i = 0; i < versions[v].provides.size(); ++i)
            providers_[next[versions[v].provides[i].name]++] = {v, i};
}

std::span<const uint32_t> Universe::packages_named(uint32_t name) const {
    // Names interned after finalize() (first seen in a relation) have none.
    if (name + size_t(1) >= by_name_start_.size()) return {};
    return {by_name_.data() + by_name_start_[name], by_name_start_[name + 1] - by_name_start_[name]};
}

std::span<const Provider> Universe::providers_of(uint32_t name) const {
    if (name + size_t(1) >= providers_start_.size()) return {};
    return {providers_.data() + providers_start_[name], providers_start_[name + 1] - providers_start_[name]};
}

bool Universe::arch_ok(uint32_t from, const Target& t, uint32_t cand) const {
    const Version& cv = versions[cand];
    const std::string_view carch = packages[cv.package].arch;
    const std::string_view farch = packages[versions[from].package].arch;
    if (t.arch.empty()) return carch == farch || cv.multi_arch == MultiArch::Foreign;
    if (t.arch == "any")
        return carch == farch || cv.multi_arch == MultiArch::Allowed || cv.multi_arch == MultiArch::Foreign;
    if (t.arch == "native") return carch == native_arch;
    return carch == t.arch;
}

bool Universe::provide_arch_ok(uint32_t from, const Target& t, uint32_t provider, const Provide& pv) const {
    if (pv.arch.empty()) return arch_ok(from, t, provider);
    // "Provides: bar:i386" is bar for i386 alone: the architecture the
    // relation asks for (its own qualifier, else the asking package's).
    if (t.arch == "any") return true;
    const std::string_view wanted = t.arch.empty() ? packages[versions[from].package].arch.view()
                                : t.arch == "native" ? native_arch
                                                     : t.arch;
    return pv.arch == wanted;
}

void Universe::satisfiers(uint32_t from, const Target& t, std::vector<uint32_t>& out) const {
    for (uint32_t p : packages_named(t.name))
        for (uint32_t v : packages[p].versions)
            if (arch_ok(from, t, v) && deb::relation_satisfied_by(t.op, t.version, versions[v].version))
                out.push_back(v);
    size_t real_end = out.size();
    for (const Provider& pr : providers_of(t.name)) {
        const Provide& pv = versions[pr.version].provides[pr.provide];
        if (t.op != deb::RelationOp::None &&
            (pv.version.empty() || !deb::relation_satisfied_by(t.op, t.version, pv.version)))
            continue;
        if (!provide_arch_ok(from, t, pr.version, pv)) continue;
        if (std::find(out.begin(), out.begin() + real_end, pr.version) != out.begin() + real_end) continue;
        if (std::find(out.begin() + real_end, out.end(), pr.version) != out.end()) continue;
        out.push_back(pr.version);
    }
}

void Universe::conflicts_with(uint32_t from, const Target& t, std::vector<uint32_t>& out) const {
    uint32_t self = versions[from].package;
    for (uint32_t p : packages_named(t.name)) {
        if (p == self) continue;
        if (!t.arch.empty() && t.arch != "any" && packages[p].arch.view() != (t.arch == "native" ? native_arch : t.arch)) continue;
        for (uint32_t v : packages[p].versions)
            if (deb::relation_satisfied_by(t.op, t.version, versions[v].version)) out.push_back(v);
    }
    for (const Provider& pr : providers_of(t.name)) {
        if (versions[pr.version].package == self) continue;
        const Provide& pv = versions[pr.version].provides[pr.provide];
        if (t.op != deb::RelationOp::None &&
            (pv.version.empty() || !deb::relation_satisfied_by(t.op, t.version, pv.version)))
            continue;
        if (!pv.arch.empty() && !provide_arch_ok(from, t, pr.version, pv)) continue;
        if (std::find(out.begin(), out.end(), pr.version) == out.end()) out.push_back(pr.version);
    }
}

std::string Universe::package_name(uint32_t p) const { return names[packages[p].name] + ":" + packages[p].arch; }

std::string Universe::describe(uint32_t v) const { return package_name(versions[v].package) + "=" + versions[v].version; }

std::string Universe::target_text(const Target& t) const {
    std::string s = names[t.name];
    if (!t.arch.empty()) s += ":" + t.arch;
    if (t.op != deb::RelationOp::None) {
        s += " (";
        s += deb::relation_op_text(t.op);
        s += " " + t.version + ")";
    }
    return s;
}

std::string Universe::dependency_text(const Dependency& d) const {
    std::string s;
    for (size_t i = 0; i < d.alternatives.size(); ++i) {
        if (i) s += " | ";
        s += target_text(d.alternatives[i]);
    }
    return s;
}

}  // namespace aptus::solver
