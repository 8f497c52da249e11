#include "cli/request.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "aptus/system/installed_system.hpp"
#include "cli/version_select.hpp"

namespace aptus::cli {
namespace {

bool in_release(const cache::Cache& c, const cache::Version& v, std::string_view rel) {
    for (const auto& f : c.files_of(v)) {
        const auto& file = c.index_files()[f.index_file];
        if (file.release == cache::kNone) continue;
        const auto& r = c.releases()[file.release];
        if (c.str(r.suite) == rel || c.str(r.codename) == rel) return true;
    }
    return false;
}

class Reader {
public:
    Reader(system::SystemUniverse& su, const cache::Cache& c, const system::Candidates& cand, CommandRequest& out,
           bool reinstall)
        : su_(su), c_(c), cand_(cand), out_(out), reinstall_(reinstall) {}

    void word(std::string_view text, RequestAction default_action) {
        PackageWord whole = parse_package_word(text);
        RequestWord w = classify_word(text, default_action, find_word_package(c_, whole) != nullptr ||
                                                                c_.find_name(whole.name).has_value());
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
    }

private:
    void install(const cache::Package& p, const cache::Version& v) {
        uint32_t up = *su_.package_of(c_.index_of(p));
        uint32_t uv = *su_.version_of(c_.index_of(v));
        solver::Universe& u = su_.universe;
        // apt's SetCandidateVersion: what the user names is what is installed.
        for (uint32_t o : u.packages[up].versions) u.versions[o].candidate = o == uv;
        lift_hold(up);
        if (c_.current_version(p) == &v) {
            out_.already_installed.push_back(&p);
            if (!reinstall_)
                out_.notes.push_back(full_name(c_, p) + " is already the newest version (" +
                                     std::string(c_.str(v.version)) + ").");
            if (u.packages[up].automatic) {
                out_.notes.push_back(full_name(c_, p) + " set to manually installed.");
                out_.now_manual.push_back(&p);
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

    // A name no package has versions of: its providers stand in, as in apt.
    void virtual_word(const RequestWord& w, const PackageWord& pw) {
        std::optional<uint32_t> name = c_.find_name(pw.name);
        std::vector<const cache::Version*> providers;
        if (name && pw.version.empty() && pw.release.empty())
            for (uint32_t pi : c_.providers(*name)) {
                const cache::Version& v = c_.versions()[c_.provides()[pi].version];
                const cache::Package& p = c_.package_of(v);
                bool fits = w.action == RequestAction::Remove ? c_.current_version(p) == &v : cand_.candidate(p) == &v;
                if (fits && std::find(providers.begin(), providers.end(), &v) == providers.end()) providers.push_back(&v);
            }
        if (!name) {
            out_.errors.push_back("Unable to locate package " + w.text);
            return;
        }
        if (providers.size() == 1) {
            const cache::Package& p = c_.package_of(*providers[0]);
            out_.notes.push_back("Note, selecting '" + full_name(c_, p) + "' instead of '" + pw.name + "'");
            if (w.action == RequestAction::Remove) remove(p);
            else install(p, *providers[0]);
            return;
        }
        if (w.action == RequestAction::Remove) {
            out_.notes.push_back("Package '" + pw.name + "' is not installed, so not removed");
            return;
        }
        if (providers.empty()) {
            out_.notes.push_back("Package " + pw.name +
                                 " is not available, but is referred to by another package.\n"
                                 "This may mean that the package is missing, has been obsoleted, or\n"
                                 "is only available from another source\n");
        } else {
            std::string text = "Package " + pw.name + " is a virtual package provided by:\n";
            for (const cache::Version* v : providers)
                text += "  " + full_name(c_, c_.package_of(*v)) + " " + std::string(c_.str(v->version)) + "\n";
            text += "You should explicitly select one to install.\n";
            out_.notes.push_back(text);
        }
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
        for (const cache::Package* p : matched) {
            out_.notes.push_back("Note, selecting '" + full_name(c_, *p) + "' for glob '" + pw.name + "'");
            if (w.action == RequestAction::Remove) remove(*p);
            else install(*p, *cand_.candidate(*p));
        }
    }

    static void add(std::vector<uint32_t>& to, uint32_t x) {
        if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
    }

    system::SystemUniverse& su_;
    const cache::Cache& c_;
    const system::Candidates& cand_;
    CommandRequest& out_;
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
    r.purge = config.find_bool("APT::Get::Purge", false);
    r.autoremove = config.find_bool("APT::Get::AutomaticRemove", false);
    r.allow_remove_essential = config.find_bool("APT::Get::allow-remove-essential", false);
    system::apply_autoremove_settings(config, r);
}

CommandRequest read_request(system::SystemUniverse& su, const cache::Cache& cache,
                            const system::Candidates& candidates, const config::Config& config,
                            RequestAction default_action, std::span<const std::string> words, bool reinstall) {
    CommandRequest out;
    apply_request_settings(config, out.request);
    Reader reader(su, cache, candidates, out, reinstall || config.find_bool("APT::Get::ReInstall"));
    for (const std::string& w : words) reader.word(w, default_action);
    return out;
}

std::string release_text(const cache::Cache& c, const cache::Version& v) {
    std::string out;
    std::vector<std::pair<std::string_view, std::string_view>> seen;
    for (const auto& f : c.files_of(v)) {
        const auto& file = c.index_files()[f.index_file];
        if (file.kind == cache::IndexKind::Status || file.release == cache::kNone) continue;
        const auto& r = c.releases()[file.release];
        std::string_view label = c.str(r.label), version = c.str(r.version);
        if (std::find(seen.begin(), seen.end(), std::pair{label, version}) != seen.end()) continue;
        seen.emplace_back(label, version);
        if (!out.empty()) out += ", ";
        if (!label.empty()) out += std::string(label) + ":";
        if (!version.empty()) out += std::string(version) + "/";
        out += c.str(r.suite);
    }
    return out + " [" + std::string(c.str(v.architecture)) + "]";
}

}  // namespace aptus::cli
