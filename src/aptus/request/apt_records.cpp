#include "aptus/request/apt_records.hpp"

namespace aptus::request {

std::string_view apt_architecture(const cache::Cache& cache, const cache::Package& p) {
    std::string_view arch = cache.str(p.architecture);
    return arch == "all" ? cache.native_architecture() : arch;
}

const cache::Package* package_for_arch(const cache::Cache& cache, uint32_t name, std::string_view arch) {
    for (const auto& p : cache.packages_of(name))
        if (apt_architecture(cache, p) == arch) return &p;
    return nullptr;
}

bool is_negative(cache::DepType t) {
    return t == cache::DepType::Conflicts || t == cache::DepType::Breaks || t == cache::DepType::Replaces;
}

namespace {

// Which records the name has without counting negative dependencies.
enum class Named { None, Other, This };

Named named_positively(const cache::Cache& cache, uint32_t name, std::string_view arch) {
    Named seen = Named::None;
    auto see = [&](std::string_view a) {
        if (a == arch) seen = Named::This;
        else if (seen == Named::None) seen = Named::Other;
    };
    for (const auto& p : cache.packages_of(name)) see(apt_architecture(cache, p));
    for (const auto& rd : cache.rdepends(name)) {
        if (seen == Named::This) return seen;
        const auto& d = cache.dependencies()[rd.dependency];
        if (d.arch_qualifier != 0) {
            std::string_view q = cache.str(d.arch_qualifier);
            if (q != "any") see(q == "native" ? cache.native_architecture() : q);
        } else if (!is_negative(d.type)) {
            see(apt_architecture(cache, cache.package_of(cache.versions()[rd.version])));
        }
    }
    for (uint32_t pi : cache.providers(name)) {
        if (seen == Named::This) return seen;
        see(apt_architecture(cache, cache.package_of(cache.versions()[cache.provides()[pi].version])));
    }
    return seen;
}

}  // namespace

bool apt_has_record(const cache::Cache& cache, uint32_t name, std::string_view arch) {
    Named n = named_positively(cache, name, arch);
    if (n != Named::None) return n == Named::This;
    // Only negative dependencies name it: the first one read created the
    // record of its package's architecture; apt reads the native lists first.
    bool from_native = false, from_arch = false;
    for (const auto& rd : cache.rdepends(name)) {
        const auto& d = cache.dependencies()[rd.dependency];
        if (d.arch_qualifier != 0 || !is_negative(d.type)) continue;
        std::string_view a = apt_architecture(cache, cache.package_of(cache.versions()[rd.version]));
        from_native |= a == cache.native_architecture();
        from_arch |= a == arch;
    }
    return from_arch && (from_native ? arch == cache.native_architecture() : true);
}

}  // namespace aptus::request
