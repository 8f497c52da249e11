// apt-cache showpkg, block by block as apt prints them (each heading ends
// in a space, as apt's does):
//   Package: NAME
//   Versions:            each version with " (FILE)" per file holding it, its
//                        descriptions (language, file, md5) and a blank line;
//                        a blank line after the last
//   Reverse Depends:     "  DEPENDING,NAME[ VERSION]" per dependency on it
//   Dependencies:        "V - " then "TARGET (OP VERSION) " per dependency,
//                        OP as apt's number (1 <=, 2 >=, 3 <<, 4 >>, 5 =,
//                        plus 16 before another alternative), "(null)"
//                        for no version
//   Provides:            "V - NAME (= VERSION) " per name the version provides
//   Reverse Provides:    "PROVIDER VERSION (= VERSION)" per provider
// A package apt knows only by name (a dependency's target) has empty
// blocks but for its reverse lists; a word that names nothing gives apt's
// notice "Unable to locate package".
#include "cli/commands/showpkg_cmd.hpp"


#include <algorithm>
#include <cstdio>
#include <map>

#include "aptus/deb/description_md5.hpp"
#include "aptus/base/compression.hpp"
#include "aptus/base/file.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/request/apt_package_refs.hpp"
#include "aptus/request/apt_records.hpp"
#include "aptus/request/apt_build_order.hpp"
#include "cli/read_session.hpp"
#include "aptus/request/version_select.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

// apt's numbers for the comparison operators (pkgCache::Dep::DepCompareOp).
int apt_op_number(cache::DepOp op) {
    switch (op) {
        case cache::DepOp::LessEq: return 1;
        case cache::DepOp::GreaterEq: return 2;
        case cache::DepOp::Less: return 3;
        case cache::DepOp::Greater: return 4;
        case cache::DepOp::Equal: return 5;
        default: return 0;
    }
}

struct Description {
    std::string language, file, md5;
};

class ShowPkg {
public:
    ShowPkg(const cache::Cache& c, const config::Config& cfg) : c_(c), order_(c) {
        archs_.push_back(std::string(c.native_architecture()));
        for (const auto& a : cfg.find_list("APT::Architectures"))
            if (std::find(archs_.begin(), archs_.end(), a) == archs_.end()) archs_.push_back(a);
    }

    std::string render(const request::AptPackageRef& ref) {
        std::span<const cache::Version> versions;
        if (ref.real) versions = c_.versions_of(*ref.real);
        std::string out = "Package: " + request::ref_full_name(c_, ref) + "\nVersions: \n";
        for (const auto& v : versions) {
            out += c_.str(v.version);
            for (const auto& vf : c_.files_of(v)) out += " (" + path_of(vf.index_file) + ")";
            out += "\n";
            for (const auto& d : descriptions(v))
                out += " Description Language: " + d.language + "\n                 File: " + d.file +
                       "\n                  MD5: " + d.md5 + "\n";
            out += "\n";
        }
        out += "\nReverse Depends: \n";
        std::string self = request::ref_full_name(c_, ref);
        for (const auto& rd : reverse_dependencies(ref)) {
            const auto& d = c_.dependencies()[rd.dependency];
            out += "  " + request::full_name(c_, c_.package_of(c_.versions()[rd.version])) + "," + self;
            if (d.op != cache::DepOp::None) out += " " + std::string(c_.str(d.version));
            out += "\n";
        }
        out += "Dependencies: \n";
        for (const auto& v : versions) {
            out += std::string(c_.str(v.version)) + " - ";
            for (const auto* d : apt_ordered(v)) {
                int op = apt_op_number(d->op) | ((d->flags & cache::kDepOrNext) ? 16 : 0);
                out += request::dependency_target_name(c_, *d, *ref.real) + " (" + std::to_string(op) + " " +
                       (d->op == cache::DepOp::None ? std::string("(null)") : std::string(c_.str(d->version))) + ") ";
            }
            out += "\n";
        }
        out += "Provides: \n";
        for (const auto& v : versions) {
            out += std::string(c_.str(v.version)) + " - ";
            for (const auto& [name, provided] : provides(v)) out += name + " (= " + provided + ") ";
            out += "\n";
        }
        out += "Reverse Provides: \n";
        for (const auto& line : reverse_provides(ref)) out += line + "\n";
        return out;
    }

private:
    std::string path_of(uint32_t index_file) const { return std::string(c_.str(c_.index_files()[index_file].path)); }

    std::vector<const cache::Dependency*> apt_ordered(const cache::Version& v) const {
        std::vector<const cache::Dependency*> deps;
        for (const auto& d : c_.dependencies_of(v)) deps.push_back(&d);
        std::stable_sort(deps.begin(), deps.end(), [](const auto* a, const auto* b) {
            return request::apt_field_rank(a->type) < request::apt_field_rank(b->type);
        });
        return deps;
    }

    // Every dependency whose target is this record: apt's own list order
    // for a real package; for a name without versions, the newest first,
    // as apt's list grows at its head.
    std::vector<cache::RevDep> reverse_dependencies(const request::AptPackageRef& ref) const {
        if (ref.real) return order_.reverse_dependencies(*ref.real);
        std::vector<cache::RevDep> out;
        for (const auto& rd : c_.rdepends(ref.name)) {
            const auto& d = c_.dependencies()[rd.dependency];
            const cache::Package& from = c_.package_of(c_.versions()[rd.version]);
            bool mine = request::dependency_target(c_, d, from).arch == ref.arch;
            // apt files an unqualified Conflicts/Breaks/Replaces against
            // the records of every architecture.
            if (!mine && d.arch_qualifier == 0 && request::is_negative(d.type)) mine = true;
            if (mine) out.push_back(rd);
        }
        std::reverse(out.begin(), out.end());
        return out;
    }

    // The names a version provides, as apt lists them: the record of its
    // architecture, and of every architecture for Multi-Arch: foreign; the
    // last made first.
    std::vector<std::pair<std::string, std::string>> provides(const cache::Version& v) const {
        std::vector<std::pair<std::string, std::string>> out;
        const cache::Package& p = c_.package_of(v);
        std::string_view own = request::apt_architecture(c_, p);
        for (const auto& pr : c_.provides_of(v)) {
            std::string name(c_.str(c_.names()[pr.name].name));
            std::string version(c_.str(pr.provided_version));
            for (const auto& a : archs_) {
                if (a != own && v.multi_arch != cache::MultiArch::Foreign) continue;
                out.push_back({a == c_.native_architecture() ? name : name + ":" + a, version});
            }
        }
        std::reverse(out.begin(), out.end());
        return out;
    }

    std::vector<std::string> reverse_provides(const request::AptPackageRef& ref) const {
        std::vector<std::string> out;
        for (uint32_t pi : c_.providers(ref.name)) {
            const auto& pr = c_.provides()[pi];
            const cache::Version& v = c_.versions()[pr.version];
            const cache::Package& p = c_.package_of(v);
            if (request::apt_architecture(c_, p) != ref.arch && v.multi_arch != cache::MultiArch::Foreign) continue;
            out.push_back(request::full_name(c_, p) + " " + std::string(c_.str(v.version)) + " (= " +
                          std::string(c_.str(pr.provided_version)) + ")");
        }
        std::reverse(out.begin(), out.end());
        return out;
    }

    // The version's descriptions: the one in its own records (language
    // "", once per package file whose record has one) and those of the
    // Translation files with the same md5.
    std::vector<Description> descriptions(const cache::Version& v) {
        std::vector<Description> out;
        std::string md5;
        for (const auto& vf : c_.files_of(v)) {
            if (c_.index_files()[vf.index_file].kind == cache::IndexKind::Translation) continue;
            std::string_view text = c_.stanza(vf);
            deb::TagFileReader reader(text, path_of(vf.index_file), deb::TagFileOptions{.skip_malformed = true});
            deb::Stanza st;
            if (!reader.next(st)) continue;
            const deb::Field* desc = st.find("Description");
            if (md5.empty()) {
                if (auto given = st.get("Description-md5")) md5 = std::string(*given);
                else if (desc) md5 = deb::description_md5(desc->value);
            }
            if (desc) out.push_back({"", path_of(vf.index_file), ""});
        }
        if (md5.empty()) return out;
        for (auto& d : out) d.md5 = md5;
        std::string name(c_.name_of(c_.package_of(v)));
        for (uint32_t i = 0; i < c_.index_files().size(); ++i) {
            const auto& f = c_.index_files()[i];
            if (f.kind != cache::IndexKind::Translation) continue;
            if (translation_has(i, name, md5)) out.push_back({std::string(c_.str(f.language)), path_of(i), md5});
        }
        return out;
    }

    bool translation_has(uint32_t index_file, std::string_view name, std::string_view md5) {
        auto [it, fresh] = translations_.try_emplace(index_file);
        if (fresh) {
            try {
                it->second = read_decompressed(path_of(index_file));
            } catch (const std::exception&) {
                it->second.clear();
            }
        }
        deb::TagFileReader reader(it->second, path_of(index_file), deb::TagFileOptions{.skip_malformed = true});
        deb::Stanza st;
        while (reader.next(st))
            if (st.value_or_empty("Package") == name && st.value_or_empty("Description-md5") == md5) return true;
        return false;
    }

    const cache::Cache& c_;
    request::AptBuildOrder order_;
    std::vector<std::string> archs_;
    std::map<uint32_t, std::string> translations_;  // index file -> its text, read once
};

}  // namespace

int run_showpkg(Context& ctx) {
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    ShowPkg show(c, ctx.config);
    std::string out;
    std::vector<std::string> notices;
    for (const auto& word : ctx.args) {
        auto refs = request::apt_packages_for_word(c, ctx.config, word);
        if (refs.empty()) notices.push_back("Unable to locate package " + word);
        for (const auto& ref : refs) out += show.render(ref);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (effective_quiet(ctx.config) == 0)
        for (auto& n : notices) ctx.diags.push_back({Level::Notice, std::move(n)});
    return 0;
}

}  // namespace aptus::cli
