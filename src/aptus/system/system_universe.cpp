#include "aptus/system/system_universe.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/edsp/edsp.hpp"

namespace aptus::system {
namespace {

// nullopt for the relations that neither keep nor exclude anything.
std::optional<solver::DepKind> dep_kind(cache::DepType t) {
    switch (t) {
        case cache::DepType::Depends: return solver::DepKind::Depends;
        case cache::DepType::PreDepends: return solver::DepKind::PreDepends;
        case cache::DepType::Recommends: return solver::DepKind::Recommends;
        case cache::DepType::Suggests: return solver::DepKind::Suggests;
        case cache::DepType::Conflicts: return solver::DepKind::Conflicts;
        case cache::DepType::Breaks: return solver::DepKind::Breaks;
        case cache::DepType::Enhances:
        case cache::DepType::Replaces: break;
    }
    return std::nullopt;
}

// Cache names -> universe names, interned once each: most names are the
// target of many relations.
class NameMap {
public:
    explicit NameMap(const cache::Cache& c) : c_(c), ids_(c.names().size(), cache::kNone) {}
    uint32_t operator()(solver::NameInterner intern, uint32_t cache_name) {
        uint32_t& id = ids_[cache_name];
        if (id == cache::kNone) id = intern(c_.str(c_.names()[cache_name].name));
        return id;
    }

private:
    const cache::Cache& c_;
    std::vector<uint32_t> ids_;
};

void add_relations(const cache::Cache& c, const cache::Version& cv, NameMap& name, solver::NameInterner intern,
                   std::vector<solver::Dependency>& deps) {
    solver::Dependency group;
    bool open = false;
    for (const cache::Dependency& d : c.dependencies_of(cv)) {
        std::optional<solver::DepKind> kind = dep_kind(d.type);
        if (kind) {
            if (!open) group = solver::Dependency{*kind, {}};
            solver::Target t;
            t.name = name(intern, d.target);
            if (d.arch_qualifier) t.arch = std::string(c.str(d.arch_qualifier));
            t.op = deb::RelationOp(uint8_t(d.op));  // same values (format.hpp)
            if (d.version) t.version = std::string(c.str(d.version));
            group.alternatives.push_back(std::move(t));
        }
        open = (d.flags & cache::kDepOrNext) != 0;
        if (!open && kind) deps.push_back(std::move(group));
    }
}

// Cache strings -> universe texts, remembering the last string of each
// field: the cache stores a string once, so its id names it, and an
// architecture or a source repeats from one version to the next (looked up
// again, each would be hashed and compared anew).
class LastText {
public:
    solver::Text operator()(const cache::Cache& c, solver::Universe& u, cache::StringId id) {
        if (!known_ || id != id_) {
            text_ = u.text(c.str(id));
            id_ = id;
            known_ = true;
        }
        return text_;
    }

private:
    bool known_ = false;
    cache::StringId id_ = 0;
    solver::Text text_;
};

struct LastTexts {
    LastText arch, source, provided_arch;
};

void add_provides(const cache::Cache& c, const cache::Version& cv, NameMap& name, solver::Universe& u, solver::Version& v,
                  LastTexts& last) {
    for (const cache::Provide& pr : c.provides_of(cv)) {
        solver::Provide p{name(solver::NameInterner(u), pr.name), {}, {}};
        if (pr.provided_version) p.version = u.text(c.str(pr.provided_version));
        if (pr.provided_arch) p.arch = last.provided_arch(c, u, pr.provided_arch);
        v.provides.push_back(std::move(p));
    }
}

// Packages looked at between two Cache::drop_resident_pages() calls.
constexpr uint32_t kDropEvery = 4096;

// Relations read between two such calls. Few (~1,300 for `-s autoremove`)
// but spread over the cache, and a fault maps the 15 pages around the one
// read too (the kernel's fault-around), so even 128 of them touch
// megabytes.
constexpr uint32_t kRelationsDropEvery = 16;

// The one builder: `candidates` null means the installed-only scope, where
// every installed version is its own candidate.
SystemUniverse build(const cache::Cache& c, const Candidates* candidates) {
    SystemUniverse out;
    solver::Universe& u = out.universe;
    u.native_arch = std::string(c.native_architecture());
    u.architectures = {u.native_arch};
    if (candidates) u.reserve(c.packages().size(), c.versions().size(), c.names().size());
    out.universe_version.assign(c.versions().size(), cache::kNone);
    out.universe_package.assign(c.packages().size(), cache::kNone);
    // Relations are converted when the solver first asks for them: of the
    // ~130,000 versions a request looks at a few thousand. Provides are
    // needed up front (finalize() indexes the providers). The cache must
    // outlive the universe's use, as it does for Candidates.
    auto name = std::make_shared<NameMap>(c);
    LastTexts last;
    for (const cache::Package& p : c.packages()) {
        const uint32_t pi = c.index_of(p);
        // The pass reads most of the cache once: handed back now and then,
        // its pages do not all count beside the universe being built.
        if (pi % kDropEvery == kDropEvery - 1) c.drop_resident_pages();
        const cache::Version* current = c.current_version(p);
        const cache::Version* cand = candidates ? candidates->candidate(pi) : current;
        for (const cache::Version& cv : c.versions_of(p)) {
            if (!candidates && &cv != current) continue;
            // A version only the dpkg status knows, not installed (its
            // configuration files are left): nothing can install it, and apt
            // gives it to no solver (an external one included).
            if (&cv != current && std::all_of(c.files_of(cv).begin(), c.files_of(cv).end(), [&](const cache::VersionFile& f) {
                    return c.index_files()[f.index_file].kind == cache::IndexKind::Status;
                }))
                continue;
            const uint32_t ci = c.index_of(cv);
            solver::Version v;
            if (out.universe_package[pi] == cache::kNone) {
                out.universe_package[pi] = u.package((*name)(solver::NameInterner(u), p.name), c.str(p.architecture));
                solver::Package& up = u.packages[out.universe_package[pi]];
                up.automatic = (p.flags & cache::kPackageAuto) != 0;
                const std::string_view a = up.arch;
                if (a != u.native_arch && std::find(u.architectures.begin(), u.architectures.end(), a) == u.architectures.end())
                    u.architectures.emplace_back(a);
            }
            v.package = out.universe_package[pi];
            v.version = u.text(c.str(cv.version));
            v.arch = last.arch(c, u, cv.architecture);
            v.id = u.unique_text(std::to_string(ci));
            v.installed = &cv == current;
            v.candidate = &cv == cand;
            v.pin = candidates ? candidates->priority(ci) : 100;
            if (candidates && v.pin <= 0)
                if (const policy::PinRecord* pin = candidates->pin_of(ci))
                    v.pin_source = u.text(pin->file + ":" + std::to_string(pin->line));
            // A hold keeps the installed version (dpkg's selection, as apt reads it).
            v.hold = v.installed && p.selection == cache::Selection::Hold;
            v.multi_arch = solver::MultiArch(uint8_t(cv.multi_arch));  // same enumerators in both
            v.essential = (cv.flags & cache::kVersionEssential) != 0;
            v.important = (cv.flags & (cache::kVersionImportant | cache::kVersionProtected)) != 0;
            v.required = cv.priority == cache::Priority::Required;
            v.source = last.source(c, u, cv.source_name);
            // Most binaries carry their source's version.
            v.source_version = cv.source_version == cv.version ? v.version : u.text(c.str(cv.source_version));
            add_provides(c, cv, *name, u, v, last);
            v.deps_pending = true;
            out.universe_version[ci] = u.add_version(std::move(v));
            out.cache_version.push_back(ci);
        }
    }
    u.finalize();
    c.drop_resident_pages();
    auto cache_version = std::make_shared<std::vector<uint32_t>>(out.cache_version);
    // The solver reads the relations of a few thousand versions spread over
    // the whole cache, each copied out once: the pages read for them are
    // handed back now and then too.
    auto read = std::make_shared<uint32_t>(0);
    u.relation_source = [&c, name, cache_version, read](uint32_t v, solver::NameInterner intern,
                                                        std::vector<solver::Dependency>& deps) {
        if (++*read % kRelationsDropEvery == 0) c.drop_resident_pages();
        add_relations(c, c.versions()[(*cache_version)[v]], *name, intern, deps);
    };
    return out;
}

}  // namespace

std::optional<uint32_t> SystemUniverse::version_of(uint32_t cv) const {
    if (cv >= universe_version.size() || universe_version[cv] == cache::kNone) return std::nullopt;
    return universe_version[cv];
}

std::optional<uint32_t> SystemUniverse::package_of(uint32_t cp) const {
    if (cp >= universe_package.size() || universe_package[cp] == cache::kNone) return std::nullopt;
    return universe_package[cp];
}

SystemUniverse system_universe(const cache::Cache& cache, const Candidates& candidates) {
    return build(cache, &candidates);
}

SystemUniverse installed_universe(const cache::Cache& cache) { return build(cache, nullptr); }

void order_architectures(solver::Universe& u, const std::vector<std::string>& configured) {
    auto rank = [&](const std::string& a) {
        if (a == u.native_arch) return size_t(0);
        auto it = std::find(configured.begin(), configured.end(), a);
        return it == configured.end() ? configured.size() + 1 : size_t(it - configured.begin()) + 1;
    };
    std::stable_sort(u.architectures.begin(), u.architectures.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
}

void dump_edsp_request(const SystemUniverse& su, const solver::Request& request, const std::string& path) {
    if (compression_from_path(path) != Compression::None)
        throw Error("the solver scenario is written uncompressed: '" + path + "' names a compressed file");
    write_file_atomic(path, edsp::format_edsp_scenario(su.universe, request));
}

}  // namespace aptus::system
