#include "aptus/request/request.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <optional>

#include "aptus/system/installed_system.hpp"
#include "aptus/system/volatile_sources.hpp"
#include "aptus/request/apt_build_order.hpp"
#include "aptus/request/package_pattern.hpp"
#include "aptus/request/release_walk.hpp"
#include "aptus/request/version_select.hpp"

namespace aptus::request {
namespace {

class Reader {
public:
    Reader(system::SystemUniverse& su, const cache::Cache& c, const system::Candidates& cand, CommandRequest& out,
           const config::Config& config, bool reinstall)
        : su_(su), c_(c), cand_(cand), out_(out), config_(config), reinstall_(reinstall) {}

    void word(std::string_view text, RequestAction default_action) {
        if (system::is_path_word(text)) return path_word(text, default_action);
        if (is_pattern_word(text)) return pattern(text, default_action);
        RequestWord w = classify_word(text, default_action, whole_word_exists(parse_package_word(text)));
        // apt (the program) leaves '?' to its patterns: "foo?" is a name.
        if (w.glob && config_.find("Binary", "aptus") == "apt" &&
            parse_package_word(w.text).name.find_first_of("*[") == std::string::npos)
            w.glob = false;
        if (w.glob) return glob(w);
        PackageWord pw = parse_package_word(w.text);
        const cache::Package* p = find_word_package(c_, pw);
        if (p && p->version_count == 0) p = nullptr;  // a name only relations mention
        if (!p) return virtual_word(w, pw);
        if (w.action == RequestAction::Remove) return remove(*p);
        const cache::Version* v = cand_.candidate(*p);
        if (!pw.version.empty() || !pw.release.empty()) {
            v = nullptr;
            for (const cache::Version& cv : c_.versions_of(*p)) {
                bool match = pw.version.empty() ? in_release(c_, cv, pw.release) : c_.str(cv.version) == pw.version;
                if (match) {
                    v = &cv;
                    break;
                }
            }
            // No version of that number, but one that provides its own name
            // at it ("Provides: selfprov (= 1)"): apt takes that one and says so.
            if (!v && !pw.version.empty())
                for (const cache::Version& cv : c_.versions_of(*p)) {
                    for (const cache::Provide& pr : c_.provides_of(cv))
                        if (c_.str(c_.names()[pr.name].name) == c_.name_of(*p) && c_.str(pr.provided_version) == pw.version)
                            v = &cv;
                    if (v) {
                        out_.notes.push_back("Selected version '" + std::string(c_.str(v->version)) + "' (" +
                                             release_text(c_, *v) + ") for '" + full_name(c_, *p) + "'");
                        break;
                    }
                }
            if (!v) {
                if (!pw.version.empty())
                    out_.errors.push_back("Version '" + pw.version + "' for '" + pw.name + "' was not found");
                else
                    out_.errors.push_back("Release '" + pw.release + "' for '" + pw.name + "' was not found");
                return;
            }
            if (!pw.release.empty())
                out_.notes.push_back("Selected version '" + std::string(c_.str(v->version)) + "' (" +
                                     release_text(c_, *v) + ") for '" + full_name(c_, *p) + "'");
        }
        if (!v) {
            out_.errors.push_back("Package '" + full_name(c_, *p) + "' has no installation candidate");
            return;
        }
        install(*p, *v);
        if (!pw.release.empty()) follow_release(*su_.version_of(c_.index_of(*v)), pw.release);
    }

private:
    // A .deb named by its path (system/volatile_sources.hpp added it to the
    // cache): that very version, whatever the candidate or a pin says.
    void path_word(std::string_view text, RequestAction action) {
        const cache::Version* v = system::volatile_version(c_, text);
        if (!v) {
            out_.errors.push_back("Unsupported file " + std::string(text) + " given on commandline");
            return;
        }
        const cache::Package& p = c_.package_of(*v);
        const system::PathWord given = system::split_path_word(text);
        out_.notes.push_back("Note, selecting '" + full_name(c_, p) + "' instead of '" + given.path + "'");
        if (action == RequestAction::Remove) return remove(p);
        // "./foo.deb/experimental": its dependencies from that release, as
        // apt walks them (without its notes for a file).
        if (const std::string& release = given.release; !release.empty()) {
            install(p, *v);
            request::follow_release(su_, c_, *su_.version_of(c_.index_of(*v)), release,
                                    out_.request.install_recommends, out_.request.install_suggests);
            return;
        }
        // Not the package dpkg has although the version is the same (apt
        // keeps them apart by their relations): installed again.
        if (!reinstall_ && c_.current_version(p) == v && system::differs_from_installed(c_, *v)) {
            reinstall_ = true;
            install(p, *v);
            reinstall_ = false;
            out_.reinstall.push_back(&p);
            return;
        }
        install(p, *v);
    }

    void install(const cache::Package& p, const cache::Version& v) {
        if (!c_.current_version(p) && config_.find_bool("APT::Get::Only-Upgrade")) {
            out_.notes.push_back("Skipping " + full_name(c_, p) +
                                 ", it is not installed and only upgrades are requested.");
            return;
        }
        uint32_t up = *su_.package_of(c_.index_of(p));
        uint32_t uv = *su_.version_of(c_.index_of(v));
        solver::Universe& u = su_.universe;
        // apt's SetCandidateVersion: what the user names is what is installed.
        for (uint32_t o : u.packages[up].versions) u.versions[o].candidate = o == uv;
        lift_hold(up);
        // A name held before it was ever installed (apt-mark hold): naming it
        // changes a held package too, as apt lists it.
        if (!c_.current_version(p) && p.selection == cache::Selection::Hold) add(out_.unheld, up);
        if (c_.current_version(p) == &v) {
            out_.already_installed.push_back(&p);
            if (!reinstall_)
                out_.notes.push_back(full_name(c_, p) + " is already the newest version (" +
                                     std::string(c_.str(v.version)) + ").");
            // As apt: --only-upgrade, --download-only and --reinstall change no marks.
            const bool keeps_marks = reinstall_ || config_.find_bool("APT::Get::Only-Upgrade") ||
                                     config_.find_bool("APT::Get::Download-Only");
            if (u.packages[up].automatic && !keeps_marks) {
                out_.notes.push_back(full_name(c_, p) + " set to manually installed.");
                out_.now_manual.push_back(&p);
            }
            if (keeps_marks) {
                add(out_.request.install, up);
                return;
            }
        }
        u.packages[up].automatic = false;
        add(out_.request.install, up);
    }

    void remove(const cache::Package& p) {
        if (!c_.current_version(p) && p.state == cache::InstallState::ConfigFiles) {
            // Only its configuration is left: purge takes it, remove says so.
            out_.config_files.push_back(&p);
            return;
        }
        if (!c_.current_version(p)) {
            out_.notes.push_back("Package '" + full_name(c_, p) + "' is not installed, so not removed");
            return;
        }
        uint32_t up = *su_.package_of(c_.index_of(p));
        lift_hold(up);
        add(out_.request.remove, up);
    }

    void lift_hold(uint32_t up) {
        for (uint32_t o : su_.universe.packages[up].versions)
            if (su_.universe.versions[o].hold) {
                su_.universe.versions[o].hold = false;
                add(out_.unheld, up);
            }
    }

    void follow_release(uint32_t version, const std::string& release) {
        const auto moves = request::follow_release(su_, c_, version, release, out_.request.install_recommends,
                                                   out_.request.install_suggests);
        for (std::string& n : release_move_notes(su_, c_, moves)) out_.notes.push_back(std::move(n));
    }

    // A name no package has versions of: its providers stand in, as in apt.
    // One version per providing package: its candidate when that provides
    // the name (and, for name=ver or name/release, matches), else its first
    // version that does. Foreign-architecture twins of one package count once.
    struct Provider {
        const cache::Version* version;
        cache::StringId provided_version;
        int priority;
    };
    std::vector<Provider> pick_providers(uint32_t name, const PackageWord& pw) const {
        auto provides_it = [&](const cache::Version& v) -> std::optional<cache::StringId> {
            for (uint32_t pi : c_.providers(name)) {
                const cache::Provide& pr = c_.provides()[pi];
                if (pr.version != c_.index_of(v)) continue;
                if (!pw.version.empty() && c_.str(pr.provided_version) != pw.version) continue;
                if (!pw.release.empty() && !in_release(c_, v, pw.release)) continue;
                return pr.provided_version;
            }
            return std::nullopt;
        };
        std::vector<Provider> out;
        std::vector<const cache::Package*> seen;
        const auto list = c_.providers(name);
        for (auto it = list.rbegin(); it != list.rend(); ++it) {
            const cache::Package& p = c_.package_of(c_.versions()[c_.provides()[*it].version]);
            if (std::find(seen.begin(), seen.end(), &p) != seen.end()) continue;
            seen.push_back(&p);
            const cache::Version* chosen = nullptr;
            std::optional<cache::StringId> provided;
            const cache::Version* cand = cand_.candidate(p);
            if (cand) provided = provides_it(*cand);
            if (provided) chosen = cand;
            else if (!pw.version.empty() || !pw.release.empty())
                for (const cache::Version& v : c_.versions_of(p))
                    if ((provided = provides_it(v))) {
                        chosen = &v;
                        break;
                    }
            if (!chosen) continue;
            // The same package of another architecture: keep the one of the
            // architecture asked for, else the one apt's architecture order prefers.
            auto twin = std::find_if(out.begin(), out.end(), [&](const Provider& o) {
                return c_.name_of(c_.package_of(*o.version)) == c_.name_of(p);
            });
            if (twin != out.end()) {
                if (arch_rank(p, pw) < arch_rank(c_.package_of(*twin->version), pw))
                    *twin = {chosen, *provided, cand_.priority(c_.index_of(*chosen))};
                continue;
            }
            out.push_back({chosen, *provided, cand_.priority(c_.index_of(*chosen))});
        }
        // apt walks its provides list, where the last provider read comes
        // first, and names each package where its chosen version is met.
        auto place = [&](const Provider& o) {
            for (size_t i = 0; i < list.size(); ++i)
                if (c_.provides()[list[list.size() - 1 - i]].version == c_.index_of(*o.version)) return i;
            return list.size();
        };
        std::stable_sort(out.begin(), out.end(), [&](const Provider& a, const Provider& b) { return place(a) < place(b); });
        return out;
    }

    size_t arch_rank(const cache::Package& p, const PackageWord& pw) const {
        std::string_view arch = c_.str(p.architecture);
        const std::string wanted = pw.arch.empty() ? std::string(c_.native_architecture()) : pw.arch;
        if (arch == wanted || arch == "all") return 0;
        auto archs = config_.find_list("APT::Architectures");
        auto at = std::find(archs.begin(), archs.end(), std::string(arch));
        return 1 + size_t(at - archs.begin());
    }

    void virtual_word(const RequestWord& w, const PackageWord& pw) {
        std::optional<uint32_t> name = c_.find_name(pw.name);
        if (!name || !known_architecture(pw.arch)) {
            out_.errors.push_back("Unable to locate package " + w.text);
            return;
        }
        if (w.action == RequestAction::Remove) {
            // apt-get 2.6 removes no provider in its place, and says nothing
            // for a name providers stand for: `remove awk` with mawk
            // installed, `remove fonts-japanese-gothic`, do nothing.
            bool provided = pw.version.empty() && pw.release.empty() && !c_.providers(*name).empty();
            if (!provided) out_.notes.push_back("Package '" + pw.name + "' is not installed, so not removed");
            return;
        }
        std::vector<Provider> providers = pick_providers(*name, pw);
        const bool plain = pw.version.empty() && pw.release.empty();
        // A plain name goes to the providers the policy prefers most: the
        // candidate of an archive at 500 over one only NotAutomatic offers.
        if (plain && !providers.empty()) {
            int best = std::max_element(providers.begin(), providers.end(), [](const Provider& a, const Provider& b) {
                           return a.priority < b.priority;
                       })->priority;
            std::erase_if(providers, [&](const Provider& o) { return o.priority < best; });
        }
        const std::string wanted = pw.version.empty() ? pw.release : pw.version;
        if (providers.size() == 1) {
            const cache::Version& v = *providers[0].version;
            const cache::Package& p = c_.package_of(v);
            out_.notes.push_back("Note, selecting '" + full_name(c_, p) + "' instead of '" + pw.name + "'");
            if (!plain && wanted != c_.str(v.version))
                out_.notes.push_back("Selected version '" + std::string(c_.str(v.version)) + "' (" +
                                     release_text(c_, v) + ") for '" + full_name(c_, p) + "'");
            install(p, v);
            if (!pw.release.empty()) follow_release(*su_.version_of(c_.index_of(v)), pw.release);
            return;
        }
        std::vector<const cache::Version*> others;  // providing versions that are not candidates
        if (plain && providers.empty())
            for (uint32_t pi : c_.providers(*name)) {
                const cache::Version& v = c_.versions()[c_.provides()[pi].version];
                if (std::find(others.begin(), others.end(), &v) == others.end()) others.push_back(&v);
            }
        if (!providers.empty()) {
            std::string text = "Package " + pw.name + " is a virtual package provided by:\n";
            for (const Provider& o : providers) {
                const cache::Package& p = c_.package_of(*o.version);
                text += "  " + full_name(c_, p) + " " + std::string(c_.str(o.version->version));
                if (o.provided_version != 0) text += " (= " + std::string(c_.str(o.provided_version)) + ")";
                if (c_.current_version(p) == o.version) text += " [Installed]";
                text += "\n";
            }
            text += "You should explicitly select one to install.\n";
            out_.notes.push_back(text);
        } else if (!others.empty()) {
            // apt lists them all, each marked, in its order (the last read first).
            std::string text = "Package " + pw.name + " is a virtual package provided by:\n";
            for (auto it = others.rbegin(); it != others.rend(); ++it)
                text += "  " + full_name(c_, c_.package_of(**it)) + " " + std::string(c_.str((*it)->version)) +
                        " [Not candidate version]\n";
            out_.notes.push_back(text);
        } else if (plain) {
            out_.notes.push_back("Package " + pw.name +
                                 " is not available, but is referred to by another package.\n"
                                 "This may mean that the package is missing, has been obsoleted, or\n"
                                 "is only available from another source\n");
        }
        if (!pw.version.empty())
            out_.errors.push_back("Version '" + pw.version + "' for '" + pw.name + "' was not found");
        else if (!pw.release.empty())
            out_.errors.push_back("Release '" + pw.release + "' for '" + pw.name + "' was not found");
        else
            out_.errors.push_back("Package '" + pw.name + "' has no installation candidate");
    }

    void glob(const RequestWord& w) {
        PackageWord pw = parse_package_word(w.text);
        std::vector<const cache::Package*> matched;
        for (const cache::Package& p : c_.packages()) {
            if (!pw.arch.empty() ? c_.str(p.architecture) != pw.arch : c_.str(p.architecture) != c_.native_architecture())
                continue;
            std::string name(c_.name_of(p));
            if (::fnmatch(pw.name.c_str(), name.c_str(), 0) != 0) continue;
            bool usable = w.action == RequestAction::Remove ? c_.current_version(p) != nullptr : cand_.candidate(p) != nullptr;
            if (usable) matched.push_back(&p);
        }
        if (matched.empty()) {
            out_.errors.push_back("Couldn't find any package by glob '" + pw.name + "'");
            return;
        }
        std::sort(matched.begin(), matched.end(),
                  [&](const cache::Package* a, const cache::Package* b) { return c_.name_of(*a) < c_.name_of(*b); });
        // apt names every match before it marks any.
        for (const cache::Package* p : matched)
            out_.notes.push_back("Note, selecting '" + full_name(c_, *p) + "' for glob '" + pw.name + "'");
        for (const cache::Package* p : matched) {
            if (w.action == RequestAction::Remove) remove(*p);
            else install(*p, *cand_.candidate(*p));
        }
    }

    // An apt search pattern (?installed, ~nfoo): every package it selects,
    // in apt's cache order, as if each were named, with no note of its own.
    // A pattern that selects nothing is no error, as in apt ("purge ~c" on a
    // system without residual configuration does nothing).
    void pattern(std::string_view text, RequestAction action) {
        std::optional<PackagePattern> pat;
        try {
            pat = PackagePattern::parse(text);
        } catch (const Error& e) {
            // "?garbage-": a pattern with apt's remove/install modifier.
            if (text.size() > 1 && (text.back() == '-' || text.back() == '+')) {
                try {
                    PackagePattern::parse(text.substr(0, text.size() - 1));
                    return pattern(text.substr(0, text.size() - 1),
                                   text.back() == '-' ? RequestAction::Remove : RequestAction::Install);
                } catch (const Error&) {
                }
            }
            out_.errors.push_back(e.what());
            out_.errors.push_back("Unable to locate package " + std::string(text));
            return;
        }
        std::vector<uint32_t> garbage;
        if (pat->uses_garbage()) garbage = system::auto_removable_packages(c_, config_);
        const PatternContext ctx{c_, cand_, &garbage};
        std::vector<PatternMatch> matches = packages_matching(ctx, *pat);
        // apt-get keeps them in a set ordered by where each package record
        // sits in its cache: the order apt created them in.
        if (matches.size() > 1) {
            AptBuildOrder order(c_);
            auto rank = [&](const PatternMatch& m) {
                return m.package ? order.package_rank(*m.package) : order.package_rank(m.name, 0);
            };
            std::stable_sort(matches.begin(), matches.end(),
                             [&](const PatternMatch& a, const PatternMatch& b) { return rank(a) < rank(b); });
        }
        for (const PatternMatch& m : matches) {
            const cache::Package* p = m.package;
            if (!p || p->version_count == 0) {
                std::string name(c_.str(c_.names()[m.name].name));
                virtual_word(RequestWord{name, action, false}, parse_package_word(name));
            } else if (action == RequestAction::Remove) {
                remove(*p);
            } else if (const cache::Version* v = cand_.candidate(*p)) {
                install(*p, *v);
            } else {
                out_.errors.push_back("Package '" + full_name(c_, *p) + "' has no installation candidate");
            }
        }
    }

    // "name:arch" for an architecture the system does not use names
    // nothing, as in apt ("zsh:i386" on an amd64-only system).
    bool known_architecture(const std::string& arch) const {
        if (arch.empty() || arch == "any" || arch == "all" || arch == "native") return true;
        if (arch == c_.native_architecture()) return true;
        for (const std::string& a : config_.find_list("APT::Architectures"))
            if (a == arch) return true;
        return false;
    }

    // Whether `whole`, read with its last character, names something: then
    // a trailing '+' or '-' belongs to it ("g++", "pkg=0.9+") and is no
    // modifier. With an architecture ("zsh:amd64-") the character ends the
    // architecture, which no package has, so the name alone does not count.
    bool whole_word_exists(const PackageWord& whole) const {
        if (!whole.release.empty()) return false;  // no release ends in '+' or '-'
        const cache::Package* p = find_word_package(c_, whole);
        if (!whole.version.empty()) {
            if (p)
                for (const cache::Version& v : c_.versions_of(*p))
                    if (c_.str(v.version) == whole.version) return true;
            return false;
        }
        return p != nullptr || (whole.arch.empty() && c_.find_name(whole.name).has_value());
    }

    static void add(std::vector<uint32_t>& to, uint32_t x) {
        if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
    }

    system::SystemUniverse& su_;
    const cache::Cache& c_;
    const system::Candidates& cand_;
    CommandRequest& out_;
    const config::Config& config_;
    bool reinstall_;
};

}  // namespace

RequestWord classify_word(std::string_view word, RequestAction default_action, bool whole_word_exists) {
    RequestWord w{std::string(word), default_action, false};
    // A package may end in '+' ("g++"): the whole word wins when it names one.
    // The modifier follows a version or release too ("pkg=1.0-").
    if (!whole_word_exists && word.size() > 1 && (word.back() == '-' || word.back() == '+'))
        w = {std::string(word.substr(0, word.size() - 1)),
             word.back() == '-' ? RequestAction::Remove : RequestAction::Install, false};
    std::string_view name = w.text;
    name = name.substr(0, name.find_first_of("=/"));
    w.glob = name.find_first_of("*?[") != std::string_view::npos;
    return w;
}

void apply_request_settings(const config::Config& config, solver::Request& r) {
    r.install_recommends = config.find_bool("APT::Install-Recommends", true);
    r.install_suggests = config.find_bool("APT::Install-Suggests", false);
    r.strict_pinning = config.find_bool("APT::Solver::Strict-Pinning", true);
    r.remove_manual = config.find_bool("APT::Solver::RemoveManual", false);
    // --solver 3.0 (or 3.1) asks for solver3's own rules where aptus's
    // differ: a full upgrade keeps manually installed obsolete packages.
    const std::string solver = config.find("APT::Solver", "internal");
    r.keep_obsolete_manual = solver == "3.0" || solver == "3.1";
    r.first_alternative_upgrades = (solver.empty() || solver == "internal") && config.find("Binary", "aptus") != "aptus";
    r.purge = config.find_bool("APT::Get::Purge", false);
    r.autoremove = config.find_bool("APT::Get::AutomaticRemove", false);
    // apt plans a removal of an Essential package the user named, with its
    // warning, and asks for "Yes, do as I say!" before doing it; aptus under
    // its own name refuses such a plan and explains why, unless allowed.
    const std::string binary = config.find("Binary", "aptus");
    r.allow_remove_essential =
        config.find_bool("APT::Get::allow-remove-essential", binary != "aptus" && binary.rfind("apt", 0) == 0);
    system::apply_autoremove_settings(config, r);
}

CommandRequest read_request(system::SystemUniverse& su, const cache::Cache& cache,
                            const system::Candidates& candidates, const config::Config& config,
                            RequestAction default_action, std::span<const std::string> words, bool reinstall) {
    CommandRequest out;
    apply_request_settings(config, out.request);
    Reader reader(su, cache, candidates, out, config, reinstall || config.find_bool("APT::Get::ReInstall"));
    for (const std::string& w : words) reader.word(w, default_action);
    return out;
}

std::string release_text(const cache::Cache& c, const cache::Version& v) {
    std::string out;
    std::vector<std::pair<std::string_view, std::string_view>> seen;
    for (const auto& f : c.files_of(v)) {
        const auto& file = c.index_files()[f.index_file];
        if (file.kind == cache::IndexKind::Status) continue;
        const cache::Release* r = file.release == cache::kNone ? nullptr : &c.releases()[file.release];
        std::string_view label = r ? c.str(r->label) : "", version = r ? c.str(r->version) : "";
        // As apt: a release is said once per label and version; without a
        // Label every file is said.
        if (!label.empty() && std::find(seen.begin(), seen.end(), std::pair{label, version}) != seen.end()) continue;
        seen.emplace_back(label, version);
        if (!out.empty()) out += ", ";
        if (!label.empty()) out += std::string(label) + ":";
        if (std::string_view suite = r ? c.str(r->suite) : ""; !suite.empty()) {
            if (!version.empty()) out += std::string(version) + "/";
            out += suite;
        } else {
            // No archive name (a flat repository's Release without Suite):
            // apt names the host, "localhost" for a local one.
            std::string_view site = c.str(file.site);
            out += site.empty() ? std::string_view("localhost") : site;
        }
    }
    return out + " [" + std::string(c.str(v.architecture)) + "]";
}

}  // namespace aptus::request
