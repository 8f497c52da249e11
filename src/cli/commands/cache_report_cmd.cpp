// apt-cache stats, dump and gencaches on aptus's cache. stats prints apt's
// lines with aptus's numbers: its records are not apt's (no package
// records for names without versions, descriptions kept per version), so
// the counts are those of the same things in aptus's layout, the sizes
// what they take in its file. dump lists, as apt's does, every package,
// its versions with their first file and dependencies, then every index
// file with what the cache knows of it.
#include "cli/commands/cache_report_cmd.hpp"

#include <cstdio>
#include <ctime>
#include <set>
#include <tuple>

#include "aptus/base/error.hpp"
#include "aptus/system/system.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "aptus/request/apt_package_refs.hpp"
#include "cli/human_size.hpp"
#include "cli/stdout_buffer.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::cli {
namespace {

std::string count_and_size(size_t count, size_t each) {
    return std::to_string(count) + " (" + human_size(double(count) * double(each)) + ")";
}

std::string_view index_type(cache::IndexKind k) {
    switch (k) {
        case cache::IndexKind::Packages: return "Debian Package Index";
        case cache::IndexKind::Sources: return "Debian Source Index";
        case cache::IndexKind::Translation: return "Debian Translation Index";
        case cache::IndexKind::Status: return "Debian dpkg status file";
    }
    return "";
}

// apt's TimeRFC1123.
std::string rfc1123(int64_t ns) {
    std::time_t t = std::time_t(ns / 1000000000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    return buf;
}

}  // namespace

int run_stats(Context& ctx) {
    if (!ctx.args.empty()) throw Error("apt-cache stats does not take any arguments");
    cache::OpenResult opened = system::open_cache(ctx.config, ctx.diags);
    const cache::Cache& c = opened.cache;

    size_t normal = 0, pure_virtual = 0, single_virtual = 0, mixed = 0, missing = 0;
    for (uint32_t n = 0; n < c.names().size(); ++n) {
        bool versions = false;
        for (const auto& p : c.packages_of(n)) versions = versions || p.version_count > 0;
        size_t providers = c.providers(n).size();
        if (versions) (providers ? mixed : normal)++;
        else if (providers == 1) single_virtual++;
        else if (providers > 1) pure_virtual++;
        else missing++;
    }
    size_t descriptions = 0;
    for (const auto& v : c.versions()) descriptions += v.description_file != cache::kNone;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint8_t, uint8_t, uint8_t>> dep_data;
    for (const auto& d : c.dependencies())
        dep_data.insert({d.target, d.version, d.arch_qualifier, uint8_t(d.type), uint8_t(d.op), d.flags});
    size_t string_bytes = c.header().sections[size_t(cache::SectionId::StringBytes)].count;

    std::string out;
    out += "Total package names: " + count_and_size(c.names().size(), sizeof(cache::Name)) + "\n";
    out += "Total package structures: " + count_and_size(c.packages().size(), sizeof(cache::Package)) + "\n";
    out += "  Normal packages: " + std::to_string(normal) + "\n";
    out += "  Pure virtual packages: " + std::to_string(pure_virtual) + "\n";
    out += "  Single virtual packages: " + std::to_string(single_virtual) + "\n";
    out += "  Mixed virtual packages: " + std::to_string(mixed) + "\n";
    out += "  Missing: " + std::to_string(missing) + "\n";
    out += "Total distinct versions: " + count_and_size(c.versions().size(), sizeof(cache::Version)) + "\n";
    out += "Total distinct descriptions: " + count_and_size(descriptions, 3 * sizeof(uint32_t)) + "\n";
    out += "Total dependencies: " + std::to_string(c.dependencies().size()) + "/" + std::to_string(dep_data.size()) +
           " (" + human_size(double(c.dependencies().size() * sizeof(cache::Dependency))) + ")\n";
    out += "Total ver/file relations: " + count_and_size(c.version_files().size(), sizeof(cache::VersionFile)) + "\n";
    out += "Total Desc/File relations: " + count_and_size(descriptions, 3 * sizeof(uint32_t)) + "\n";
    out += "Total Provides mappings: " + count_and_size(c.provides().size(), sizeof(cache::Provide)) + "\n";
    out += "Total globbed strings: " + std::to_string(c.string_count()) + " (" + human_size(double(string_bytes)) + ")\n";
    out += "Total space accounted for: " + human_size(double(c.image().size())) + "\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

int run_dump(Context& ctx) {
    cache::OpenResult opened = system::open_cache(ctx.config, ctx.diags);
    const cache::Cache& c = opened.cache;
    std::vector<const cache::Package*> pkgs = request::packages_in_apt_order(c);
    StdoutBuffer out;
    out += "Using Versioning System: Standard .deb\n";
    for (const auto* p : pkgs) {
        out += "Package: " + request::full_name(c, *p) + "\n";
        for (const auto& v : c.versions_of(*p)) {
            out += " Version: " + std::string(c.str(v.version)) + "\n";
            if (v.file_count)
                out += "     File: " + std::string(c.str(c.index_files()[c.files_of(v).front().index_file].path)) + "\n";
            for (const auto& d : c.dependencies_of(v))
                out += "  Depends: " + request::dependency_target_name(c, d, *p) + " " +
                       (d.op == cache::DepOp::None ? std::string("(null)") : std::string(c.str(d.version))) + "\n";
        }
    }
    for (size_t i = 0; i < c.index_files().size(); ++i) {
        const cache::IndexFile& f = c.index_files()[i];
        const cache::Release* r = f.release == cache::kNone ? nullptr : &c.releases()[f.release];
        auto rel = [&](cache::StringId cache::Release::*field) { return r ? std::string(c.str(r->*field)) : std::string(); };
        out += "File: " + std::string(c.str(f.path)) + "\n";
        out += " Type: " + std::string(index_type(f.kind)) + "\n";
        out += " Size: " + std::to_string(f.size) + "\n";
        out += " ID: " + std::to_string(i) + "\n";
        out += " Time: " + rfc1123(f.mtime_ns) + "\n";
        out += " Archive: " + rel(&cache::Release::suite) + "\n";
        out += " Component: " + std::string(c.str(f.component)) + "\n";
        out += " Version: " + rel(&cache::Release::version) + "\n";
        out += " Origin: " + rel(&cache::Release::origin) + "\n";
        out += " Site: " + std::string(c.str(f.site)) + "\n";
        out += " Label: " + rel(&cache::Release::label) + "\n";
        out += " Architecture: " + std::string(c.str(f.architecture)) + "\n";
    }
    return 0;
}

int run_gencaches(Context& ctx) {
    system::open_cache(ctx.config, ctx.diags);
    return 0;
}

}  // namespace aptus::cli
