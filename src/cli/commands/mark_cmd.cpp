#include "cli/commands/mark_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "aptus/base/error.hpp"
#include "aptus/deb/relation.hpp"
#include "aptus/system/auto_marks.hpp"
#include "aptus/system/dpkg_selections.hpp"
#include "aptus/request/apt_hash_order.hpp"
#include "cli/commands/mark_words.hpp"
#include "cli/prompt.hpp"
#include "cli/read_session.hpp"
#include "cli/exit_status.hpp"
#include "cli/message.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec mark_table[] = {
    {'f', "file", "Dir::State::extended_states", ArgKind::Value, "the extended_states file to read and write", "FILE"},
};

void out(const std::string& line) { std::fputs((line + "\n").c_str(), stdout); }

int finish(const std::vector<std::string>& errors) {
    std::fflush(stdout);
    for (const std::string& e : errors) print_message(MessageLevel::Error, e);
    return errors.empty() ? 0 : 100;
}

bool simulate(const config::Config& config) {
    return config.find_bool("APT::Mark::Simulate") || config.find_bool("APT::Get::Simulate");
}

bool installed(const cache::Package* p) { return p != nullptr && p->current_version != cache::kNone; }
bool automatic(const cache::Package& p) { return (p.flags & cache::kPackageAuto) != 0; }

int usage() {
    out("Usage: aptus mark [options] {auto|manual} pkg1 [pkg2 ...]\n"
        "       aptus mark [options] minimize-manual\n"
        "       aptus mark [options] {hold|unhold|install|remove|purge} pkg1 [pkg2 ...]\n"
        "       aptus mark [options] {showauto|showmanual} [pkg1 ...]\n"
        "       aptus mark [options] {showhold|showinstall|showremove|showpurge} [pkg1 ...]\n"
        "\n"
        "Marks packages as installed automatically (autoremove may take them once\n"
        "nothing needs them) or manually, holds packages at their version and sets\n"
        "their dpkg selection (install, remove, purge) for dselect-upgrade.\n"
        "Options: -s (simulate), -f FILE (extended_states to use), -o, -c.");
    return kExitDeclined;
}

// auto / manual: apt-mark prints what cannot change or is already so while
// it goes through the words, and what changed after.
int mark_auto(Context& ctx, bool want_auto) {
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    MarkWords words = resolve_mark_words(c, *session->candidates, ctx.config, ctx.args);
    if (words.targets.empty()) {
        words.errors.push_back("No packages found");
        return finish(words.errors);
    }
    const char* state = want_auto ? "automatically" : "manually";
    std::unordered_map<const cache::Package*, bool> now;  // marks changed so far
    std::vector<const MarkTarget*> changed;
    for (const MarkTarget& t : words.targets) {
        if (!installed(t.package)) {
            out(t.name + " can not be marked as it is not installed.");
            continue;
        }
        auto it = now.find(t.package);
        bool is_auto = it != now.end() ? it->second : automatic(*t.package);
        if (is_auto == want_auto) {
            out(t.name + " was already set to " + state + " installed.");
            continue;
        }
        now[t.package] = want_auto;
        changed.push_back(&t);
    }
    for (const MarkTarget* t : changed) out(t->name + " set to " + state + " installed.");
    if (!changed.empty() && !simulate(ctx.config)) {
        // apt appends new stanzas in its cache's hash order, not in word order.
        std::vector<const MarkTarget*> order = changed;
        std::stable_sort(order.begin(), order.end(), [&](const MarkTarget* a, const MarkTarget* b) {
            return request::apt_hash_key(c.name_of(*a->package)) < request::apt_hash_key(c.name_of(*b->package));
        });
        std::vector<system::AutoMark> marks;
        for (const MarkTarget* t : order)
            marks.push_back({std::string(c.name_of(*t->package)), std::string(c.str(t->package->architecture)), want_auto});
        system::write_auto_marks(ctx.config, marks, ctx.diags);
    }
    return finish(words.errors);
}

// What apt-mark's selection commands ask of dpkg.
enum class Want { Hold, Unhold, Install, Deinstall, Purge };

// hold / unhold / install / remove (deinstall) / purge: through the
// installed version, else the candidate, as apt-mark selects them; its
// architecture ("all" included) names the package for dpkg. Only hold and
// unhold say what they did after dpkg ran; the others say what they
// select before, as apt-mark does.
int mark_selection(Context& ctx, Want want) {
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    MarkWords words = resolve_mark_words(c, *session->candidates, ctx.config, ctx.args);
    struct Selected {
        const MarkTarget* target;
        const cache::Version* version;
    };
    std::vector<Selected> selected;
    for (const MarkTarget& t : words.targets) {
        const cache::Version* v = t.package ? c.current_version(*t.package) : nullptr;
        if (v == nullptr && t.package) v = session->candidates->candidate(*t.package);
        if (v == nullptr) {
            words.errors.push_back("Can't select installed nor candidate version from package '" + t.name +
                                   "' as it has neither of them");
            continue;
        }
        selected.push_back({&t, v});
    }
    if (selected.empty()) {
        words.errors.push_back("No packages found");
        return finish(words.errors);
    }
    const bool hold = want == Want::Hold;
    std::vector<Selected> change;
    for (const Selected& s : selected) {
        bool held = s.target->package->selection == cache::Selection::Hold;
        if (want == Want::Hold && held) out(s.target->name + " was already set on hold.");
        else if (want == Want::Unhold && !held) out(s.target->name + " was already not on hold.");
        else change.push_back(s);
    }
    if (change.empty()) return finish(words.errors);
    for (const Selected& s : change) {
        if (want == Want::Install) out("Selected " + s.target->name + " for installation.");
        else if (want == Want::Deinstall) out("Selected " + s.target->name + " for removal.");
        else if (want == Want::Purge) out("Selected " + s.target->name + " for purge.");
    }
    if (!simulate(ctx.config)) {
        std::vector<system::DpkgSelection> wanted;
        for (const Selected& s : change) {
            const cache::Package& p = *s.target->package;
            system::DpkgSelection sel{std::string(c.name_of(p)), std::string(c.str(s.version->architecture)), "", installed(&p)};
            switch (want) {
            case Want::Hold: sel.want = "hold"; break;
            case Want::Unhold: sel.want = installed(&p) ? "install" : "deinstall"; break;
            case Want::Install: sel.want = "install"; break;
            case Want::Deinstall: sel.want = "deinstall"; break;
            case Want::Purge: sel.want = "purge"; break;
            }
            wanted.push_back(std::move(sel));
        }
        system::set_dpkg_selections(ctx.config, wanted);
    }
    if (want == Want::Hold || want == Want::Unhold)
        for (const Selected& s : change)
            out(hold ? s.target->name + " set on hold." : "Canceled hold on " + s.target->name + ".");
    return finish(words.errors);
}

// Is `dep` met by the version installed of `p` (its name, or a Provides of
// that version)? Architecture qualifiers are not looked at: on an
// installed system what is installed of a name is what meets it.
bool installed_meets(const cache::Cache& c, const cache::Dependency& dep, const cache::Package& p) {
    const cache::Version* v = c.current_version(p);
    if (v == nullptr) return false;
    auto op = deb::RelationOp(dep.op);
    std::string_view wanted = dep.op == cache::DepOp::None ? std::string_view{} : c.str(dep.version);
    if (p.name == dep.target) return deb::relation_satisfied_by(op, wanted, c.str(v->version));
    for (const cache::Provide& pr : c.provides_of(*v)) {
        if (pr.name != dep.target) continue;
        if (dep.op == cache::DepOp::None) return true;
        if (pr.provided_version != 0 && deb::relation_satisfied_by(op, wanted, c.str(pr.provided_version)))
            return true;
    }
    return false;
}

// The installed packages whose installed version meets `dep`.
std::vector<const cache::Package*> installed_targets(const cache::Cache& c, const cache::Dependency& dep) {
    std::vector<const cache::Package*> out;
    for (const cache::Package& p : c.packages_of(dep.target))
        if (installed_meets(c, dep, p)) out.push_back(&p);
    for (uint32_t provide : c.providers(dep.target)) {
        const cache::Package& p = c.package_of(c.versions()[c.provides()[provide].version]);
        if (std::find(out.begin(), out.end(), &p) == out.end() && installed_meets(c, dep, p)) out.push_back(&p);
    }
    return out;
}

// A section of APT::Never-MarkAuto-Sections ("metapackages", "tasks" in
// Debian's configuration), as written or after its component
// ("universe/metapackages" is a "metapackages" one too).
bool never_markauto_section(const std::vector<std::string>& sections, std::string_view section) {
    if (section.empty()) return false;
    std::string_view bare = section.substr(section.rfind('/') == std::string_view::npos ? 0 : section.rfind('/') + 1);
    for (const std::string& s : sections)
        if (s == section || s == bare) return true;
    return false;
}

// minimize-manual: the manually installed packages of a section in
// APT::Never-MarkAuto-Sections (the metapackages) are the roots; whatever they need (Depends, Pre-Depends, and
// Recommends unless APT::Install-Recommends is off), transitively, that is
// installed and marked manual becomes automatic. apt-mark lists them and asks, defaulting to no.
int mark_minimize(Context& ctx) {
    if (!ctx.args.empty()) throw Error("apt-mark minimize-manual does not take any arguments");
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    const bool recommends = ctx.config.find_bool("APT::Install-Recommends", true);
    const bool debug = ctx.config.find_bool("Debug::AptMark::Minimize");
    const std::vector<std::string> sections = ctx.config.find_list("APT::Never-MarkAuto-Sections");
    auto counts = [&](cache::DepType t) {
        return t == cache::DepType::Depends || t == cache::DepType::PreDepends ||
               (t == cache::DepType::Recommends && recommends);
    };
    std::vector<char> root(c.packages().size()), seen(c.packages().size());
    std::vector<const cache::Package*> work;
    for (const cache::Package& p : c.packages()) {
        const cache::Version* v = c.current_version(p);
        if (v == nullptr || automatic(p) || !never_markauto_section(sections, c.str(v->section))) continue;
        if (debug) std::fprintf(stderr, "Found root %s\n", std::string(c.name_of(p)).c_str());
        root[c.index_of(p)] = 1;
        work.push_back(&p);
    }
    std::vector<const cache::Package*> changed;
    while (!work.empty()) {
        std::vector<const cache::Package*> next;
        for (const cache::Package* p : work) {
            if (seen[c.index_of(*p)]) continue;
            seen[c.index_of(*p)] = 1;
            if (!root[c.index_of(*p)] && !automatic(*p)) changed.push_back(p);
            const cache::Version* v = c.current_version(*p);
            if (v == nullptr) continue;
            for (const cache::Dependency& d : c.dependencies_of(*v))
                if (counts(d.type))
                    for (const cache::Package* t : installed_targets(c, d)) next.push_back(t);
        }
        work = std::move(next);
    }
    if (changed.empty()) {
        out("No changes necessary");
        return 0;
    }
    auto name = [&](const cache::Package* p) {
        std::string n(c.name_of(*p));
        if (c.str(p->architecture) != c.native_architecture()) n += ":" + std::string(c.str(p->architecture));
        return n;
    };
    // apt lists them in the order of its cache's package records, which
    // follows how its cache was built; aptus sorts them by name.
    std::sort(changed.begin(), changed.end(),
              [&](const cache::Package* a, const cache::Package* b) { return name(a) < name(b); });
    out("The following packages will be marked as automatically installed:");
    std::string line = " ";
    for (const cache::Package* p : changed) {
        if (line.size() + 1 + name(p).size() > 79 && line.size() > 1) {
            out(line);
            line = " ";
        }
        line += " " + name(p);
    }
    out(line);
    if (simulate(ctx.config)) return 0;
    if (!ask_yes_no(ctx.config, "Do you want to continue?", {.default_yes = false})) return 0;
    // New stanzas go in apt's cache hash order, as apt writes them.
    request::sort_in_apt_order(c, changed);
    std::vector<system::AutoMark> marks;
    for (const cache::Package* p : changed)
        marks.push_back({std::string(c.name_of(*p)), std::string(c.str(p->architecture)), true});
    system::write_auto_marks(ctx.config, marks, ctx.diags);
    return 0;
}

enum class Show { Auto, Manual, Hold, Install, Deinstall, Purge };

// showauto / showmanual / showhold / showinstall / showremove
// (showdeinstall) / showpurge: sorted names; words that name nothing
// are no error here, as in apt-mark.
int mark_show(Context& ctx, Show what) {
    auto session = open_read_session(ctx);
    const cache::Cache& c = session->cache();
    auto wanted = [&](const cache::Package& p) {
        switch (what) {
        case Show::Auto: return installed(&p) && automatic(p);
        case Show::Manual: return installed(&p) && !automatic(p);
        case Show::Hold: return p.selection == cache::Selection::Hold;
        case Show::Install: return p.selection == cache::Selection::Install;
        case Show::Deinstall: return p.selection == cache::Selection::Deinstall;
        case Show::Purge: return p.selection == cache::Selection::Purge;
        }
        return false;
    };
    std::vector<std::string> names;
    // A word that is no valid pattern or expression is an error here too
    // (after the names found); one that names nothing is not.
    std::vector<std::string> errors;
    if (ctx.args.empty()) {
        for (const cache::Package& p : c.packages()) {
            if (!wanted(p)) continue;
            std::string name(c.name_of(p));
            if (c.str(p.architecture) != c.native_architecture()) name += ":" + std::string(c.str(p.architecture));
            names.push_back(std::move(name));
        }
    } else {
        MarkWords words = resolve_mark_words(c, *session->candidates, ctx.config, ctx.args);
        for (const MarkTarget& t : words.targets)
            if (t.package && wanted(*t.package)) names.push_back(t.name);
        errors = std::move(words.syntax_errors);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const std::string& n : names) out(n);
    return finish(errors);
}

}  // namespace

std::span<const OptionSpec> mark_options() { return mark_table; }

int run_mark(Context& ctx) {
    if (ctx.args.empty()) return usage();
    std::string op = ctx.args.front();
    ctx.args.erase(ctx.args.begin());
    if (op == "auto" || op == "markauto") return mark_auto(ctx, true);
    if (op == "manual" || op == "unmarkauto") return mark_auto(ctx, false);
    if (op == "minimize-manual") return mark_minimize(ctx);
    if (op == "hold") return mark_selection(ctx, Want::Hold);
    if (op == "unhold") return mark_selection(ctx, Want::Unhold);
    if (op == "install") return mark_selection(ctx, Want::Install);
    if (op == "remove" || op == "deinstall") return mark_selection(ctx, Want::Deinstall);
    if (op == "purge") return mark_selection(ctx, Want::Purge);
    if (op == "showauto") return mark_show(ctx, Show::Auto);
    if (op == "showmanual") return mark_show(ctx, Show::Manual);
    if (op == "showhold" || op == "showholds") return mark_show(ctx, Show::Hold);
    if (op == "showinstall" || op == "showinstalls") return mark_show(ctx, Show::Install);
    if (op == "showremove" || op == "showremoves" || op == "showdeinstall" || op == "showdeinstalls")
        return mark_show(ctx, Show::Deinstall);
    if (op == "showpurge" || op == "showpurges") return mark_show(ctx, Show::Purge);
    throw Error("Invalid operation " + op);
}

}  // namespace aptus::cli
