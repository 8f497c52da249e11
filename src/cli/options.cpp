#include "cli/options.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/values.hpp"

namespace aptus::cli {
namespace {

using config::CommandLineItem;

constexpr OptionSpec general_table[] = {
    {'h', "help", "", ArgKind::Help, "show this help; with a command: that command's help"},
    {'v', "version", "", ArgKind::Version, "show the version"},
    {'q', "quiet", "quiet", ArgKind::Level, "less output: no progress; -qq: only errors (quiet=N)"},
    {0, "silent", "quiet", ArgKind::Level},
    {0, "audit", "APT::Audit", ArgKind::Flag, "show audit messages too (hints about the sources and the system)"},
    {'y', "yes", "APT::Get::Assume-Yes", ArgKind::Flag, "answer yes to questions; dangerous changes still need their own --allow-* option"},
    {0, "assume-yes", "APT::Get::Assume-Yes", ArgKind::Flag},
    {'s', "simulate", "APT::Get::Simulate", ArgKind::Flag, "only show what would be done; change nothing"},
    {0, "just-print", "APT::Get::Simulate", ArgKind::Flag},
    {0, "dry-run", "APT::Get::Simulate", ArgKind::Flag},
    {0, "recon", "APT::Get::Simulate", ArgKind::Flag},
    {0, "no-act", "APT::Get::Simulate", ArgKind::Flag},
    {'o', "option", "", ArgKind::ConfigItem, "set a configuration item, as -o Dir::Cache=/tmp", "KEY=VALUE"},
    {'c', "config-file", "", ArgKind::ConfigFile, "read a configuration file after the others", "FILE"},
    {0, "root", "", ArgKind::Root, "a whole system under DIR: its configuration, sources, lists, dpkg database and archives; dpkg gets --root=DIR", "DIR"},
};

// Options of apt 3.0's apt, apt-get and apt-cache that no aptus command table
// lists: accepted with every command, as apt-get accepts them, each setting
// the configuration key apt's own programs read. A command's own row of the
// same name comes first.
constexpr OptionSpec apt_table[] = {
    {'t', "target-release", "APT::Default-Release", ArgKind::Value, "prefer the versions of this release (archive, codename or version), as APT::Default-Release", "RELEASE"},
    {0, "default-release", "APT::Default-Release", ArgKind::Value, "", "RELEASE"},
    {'d', "download-only", "APT::Get::Download-Only", ArgKind::Flag, "only download the archives; install nothing"},
    {'b', "compile", "APT::Get::Compile", ArgKind::Flag, "build the source packages after fetching them"},
    {0, "build", "APT::Get::Compile", ArgKind::Flag},
    {0, "ignore-hold", "APT::Ignore-Hold", ArgKind::Flag, "treat held packages as not held"},
    {0, "upgrade", "APT::Get::upgrade", ArgKind::Flag, "upgrade what is named and installed already (--no-upgrade: do not)"},
    {0, "only-upgrade", "APT::Get::Only-Upgrade", ArgKind::Flag, "only upgrade named packages that are installed; install none"},
    {0, "allow-change-held-packages", "APT::Get::allow-change-held-packages", ArgKind::Flag, "allow changing held packages without asking"},
    {0, "allow-remove-essential", "APT::Get::allow-remove-essential", ArgKind::Flag, "allow removing Essential and protected packages"},
    {0, "allow-downgrades", "APT::Get::allow-downgrades", ArgKind::Flag, "allow downgrades without asking"},
    {0, "force-yes", "APT::Get::force-yes", ArgKind::Flag, "the old switch for all three --allow-* options (deprecated, as in apt)"},
    {0, "print-uris", "APT::Get::Print-URIs", ArgKind::Flag, "print the URIs that would be downloaded, with size and hash; fetch nothing"},
    {0, "trivial-only", "APT::Get::Trivial-Only", ArgKind::Flag, "do nothing but install or upgrade; refuse anything else (answers no)"},
    {0, "mark-auto", "APT::Get::Mark-Auto", ArgKind::Flag, "mark the installed packages as automatically installed"},
    {0, "remove", "APT::Get::Remove", ArgKind::Flag, "remove what is named (--no-remove: refuse removals)"},
    {0, "only-source", "APT::Get::Only-Source", ArgKind::Flag, "take the names as source package names only"},
    {0, "arch-only", "APT::Get::Arch-Only", ArgKind::Flag, "only the architecture-dependent build dependencies"},
    {0, "indep-only", "APT::Get::Indep-Only", ArgKind::Flag, "only the architecture-independent build dependencies"},
    {0, "allow-unauthenticated", "APT::Get::AllowUnauthenticated", ArgKind::Flag, "install packages from unsigned or unverified sources without asking"},
    {0, "allow-insecure-repositories", "Acquire::AllowInsecureRepositories", ArgKind::Flag, "accept repositories that are not signed (their packages stay unauthenticated)"},
    {0, "allow-weak-repositories", "Acquire::AllowWeakRepositories", ArgKind::Flag, "accept repositories signed with weak algorithms"},
    {0, "allow-releaseinfo-change", "Acquire::AllowReleaseInfoChange", ArgKind::Flag, "accept a Release whose Origin, Label, Suite, Codename or Version changed"},
    {0, "allow-releaseinfo-change-origin", "Acquire::AllowReleaseInfoChange::Origin", ArgKind::Flag, "accept a changed Origin"},
    {0, "allow-releaseinfo-change-label", "Acquire::AllowReleaseInfoChange::Label", ArgKind::Flag, "accept a changed Label"},
    {0, "allow-releaseinfo-change-version", "Acquire::AllowReleaseInfoChange::Version", ArgKind::Flag, "accept a changed Version"},
    {0, "allow-releaseinfo-change-codename", "Acquire::AllowReleaseInfoChange::Codename", ArgKind::Flag, "accept a changed Codename"},
    {0, "allow-releaseinfo-change-suite", "Acquire::AllowReleaseInfoChange::Suite", ArgKind::Flag, "accept a changed Suite"},
    {0, "allow-releaseinfo-change-defaultpin", "Acquire::AllowReleaseInfoChange::DefaultPin", ArgKind::Flag, "accept a changed default pin (NotAutomatic, ButAutomaticUpgrades)"},
    {0, "install-recommends", "APT::Install-Recommends", ArgKind::Flag, "install recommended packages (the default; --no-install-recommends: do not)"},
    {0, "install-suggests", "APT::Install-Suggests", ArgKind::Flag, "install suggested packages too"},
    {0, "fix-policy", "APT::Get::Fix-Policy-Broken", ArgKind::Flag, "install the recommended packages installed ones miss"},
    {0, "solver", "APT::Solver", ArgKind::Value, "the solver: internal, 3.0, dump, or an EDSP solver in Dir::Bin::Solvers", "NAME"},
    {0, "planner", "APT::Planner", ArgKind::Value, "the installation planner: internal or an EIPP planner", "NAME"},
    {'u', "show-upgraded", "APT::Get::Show-Upgraded", ArgKind::Flag, "list the packages upgraded (apt-get shows them in any case)"},
    {'m', "ignore-missing", "APT::Get::Fix-Missing", ArgKind::Flag, "go on without the packages that cannot be downloaded"},
    {0, "fix-missing", "APT::Get::Fix-Missing", ArgKind::Flag},
    {'f', "fix-broken", "APT::Get::Fix-Broken", ArgKind::Flag, "repair a system whose installed packages have broken dependencies"},
    {'V', "verbose-versions", "APT::Get::Show-Versions", ArgKind::Flag, "show the versions of every package in the plan"},
    {0, "download", "APT::Get::Download", ArgKind::Flag, "download what is needed (--no-download: use what is in the archives only)"},
    {0, "host-architecture", "APT::Get::Host-Architecture", ArgKind::Value, "the architecture to build or install for (cross-building)", "ARCH"},
    {'P', "build-profiles", "APT::Build-Profiles", ArgKind::Value, "build profiles to use for build dependencies, comma separated", "PROFILES"},
    {0, "purge", "APT::Get::Purge", ArgKind::Flag, "purge rather than remove: configuration files go too"},
    {0, "list-cleanup", "APT::Get::List-Cleanup", ArgKind::Flag, "remove list files no source names any more (the default)"},
    // apt-get's --show-progress: dpkg's progress; aptus draws apt 3.0's bar on
    // a terminal in any case (Dpkg::Progress-Fancy), so it only says yes.
    {0, "show-progress", "Dpkg::Progress", ArgKind::Flag, "show dpkg's progress (aptus shows it on a terminal in any case)"},
    {0, "reinstall", "APT::Get::ReInstall", ArgKind::Flag, "install named packages again even when installed at that version"},
    // --autoremove is a request of its own (Aptus::Cmd::AutoRemove): apt's
    // upgrade honours it but not APT::Get::AutomaticRemove from the config.
    {0, "auto-remove", "Aptus::Cmd::AutoRemove", ArgKind::Flag, "also remove what was installed automatically and is needed no more"},
    {0, "autoremove", "Aptus::Cmd::AutoRemove", ArgKind::Flag},
    {0, "diff-only", "APT::Get::Diff-Only", ArgKind::Flag, "fetch only the diff of source packages"},
    {0, "dsc-only", "APT::Get::Dsc-Only", ArgKind::Flag, "fetch only the .dsc of source packages"},
    {0, "tar-only", "APT::Get::Tar-Only", ArgKind::Flag, "fetch only the tarballs of source packages"},
    {0, "with-source", "APT::Sources::With::", ArgKind::Value, "add a Packages file, .deb or .dsc to the sources of this run", "FILE"},
    {'S', "snapshot", "APT::Snapshot", ArgKind::Value, "use the snapshot ID of repositories that offer snapshots", "ID"},
    {0, "comment", "APT::History::Comment", ArgKind::Value, "a comment kept in the history with this change", "TEXT"},
    {0, "strict-pinning", "APT::Solver::Strict-Pinning", ArgKind::Flag, "only candidates may be installed (the default; --no-strict-pinning: any version a pin allows)"},
    {0, "with-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::Flag, "upgrade may install new packages (--without-new-pkgs: it may not)"},
    {0, "without-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::FlagOff},
    {0, "no-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::FlagOff},
    {0, "assume-no", "APT::Get::Assume-No", ArgKind::Flag, "answer no to every question"},
    {'e', "error-on", "APT::Update::Error-Mode", ArgKind::Value, "update fails on this too: any (every warning an error)", "any"},
    {0, "format", "APT::Get::IndexTargets::Format", ArgKind::Value, "the form of each line: $(KEY) stands for a field of the target", "FORMAT"},
    {0, "release-info", "APT::Get::IndexTargets::ReleaseInfo", ArgKind::Flag, "add the Release file's fields to each target (the default)"},
    {0, "color", "APT::Color", ArgKind::Flag, "colours (the default on a terminal; --no-color, NO_COLOR: none)"},
    {0, "colour", "APT::Color", ArgKind::Flag},
    {0, "full", "APT::Cache::ShowFull", ArgKind::Flag, "show the full records"},
    {0, "names-only", "APT::Cache::NamesOnly", ArgKind::Flag, "search the names only, not the descriptions"},
    {0, "all-names", "APT::Cache::AllNames", ArgKind::Flag, "list every name, virtual ones too"},
    {0, "all-versions", "APT::Cache::AllVersions", ArgKind::Flag, "show every version, not only the candidate"},
    {0, "installed", "APT::Cache::Installed", ArgKind::Flag, "only what is installed"},
    {0, "recurse", "APT::Cache::RecurseDepends", ArgKind::Flag, "follow the dependencies of each package found, recursively"},
    {0, "implicit", "APT::Cache::ShowImplicit", ArgKind::Flag, "show the dependencies aptus implies (multi-arch)"},
    {0, "important", "APT::Cache::Important", ArgKind::Flag, "only Depends and Pre-Depends"},
    {'g', "generate", "APT::Cache::Generate", ArgKind::Flag, "build the cache if it is missing or out of date (the default)"},
    {'p', "pkg-cache", "Dir::Cache::pkgcache", ArgKind::Value, "the binary cache to use", "FILE"},
    {0, "src-cache", "Dir::Cache::srcpkgcache", ArgKind::Value, "the source cache to use", "FILE"},
};

bool takes_argument(ArgKind k) {
    return k == ArgKind::Value || k == ArgKind::ConfigItem || k == ArgKind::ConfigFile || k == ArgKind::Root;
}

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!is_digit(c)) return false;
    return true;
}

class Parser {
public:
    Parser(std::span<const std::string> args, std::span<const OptionSpec> options) : args_(args), options_(options) {}

    ParsedArgs run() {
        for (i_ = 0; i_ < args_.size(); ++i_) {
            const std::string& a = args_[i_];
            if (a == "--") {
                for (++i_; i_ < args_.size(); ++i_) out_.words.push_back(args_[i_]);
                break;
            }
            if (a.size() < 2 || a[0] != '-') {
                out_.words.push_back(a);
            } else if (a[1] == '-') {
                long_option(std::string_view(a).substr(2));
            } else {
                short_options(a);
            }
        }
        return std::move(out_);
    }

private:
    void long_option(std::string_view body) {
        std::string_view name = body.substr(0, body.find('='));
        std::optional<std::string> attached;
        if (name.size() < body.size()) attached = std::string(body.substr(name.size() + 1));
        const OptionSpec* spec = find_long(name);
        bool negated = false;
        if (!spec && starts_with(name, "no-")) {
            spec = find_long(name.substr(3));
            negated = spec && spec->kind == ArgKind::Flag;
            if (!negated) spec = nullptr;
        }
        if (!spec)
            throw Error("Command line option --" + std::string(name) +
                        " is not understood in combination with the other options");
        apply(*spec, "--" + std::string(name), attached, negated);
    }

    void short_options(const std::string& a) {
        for (size_t j = 1; j < a.size(); ++j) {
            const OptionSpec* spec = find_short(a[j]);
            if (!spec)
                throw Error(std::string("Command line option '") + a[j] + "' [from " + a +
                            "] is not understood in combination with the other options.");
            std::optional<std::string> attached;
            bool level_digits = spec->kind == ArgKind::Level && j + 1 < a.size() && all_digits(a.substr(j + 1));
            if (j + 1 < a.size() && (takes_argument(spec->kind) || a[j + 1] == '=' || level_digits)) {
                // "-oA=1", "-c=FILE", "-q=2", "-q0" (as apt): the rest of the word is the argument.
                attached = a.substr(j + 1 + (a[j + 1] == '=' ? 1 : 0));
                apply(*spec, std::string("-") + a[j], attached, false);
                return;
            }
            apply(*spec, std::string("-") + a[j], attached, false);
        }
    }

    // The next argument, consumed as this option's value.
    std::string next_argument(const std::string& shown) {
        if (i_ + 1 >= args_.size()) throw Error("Option " + shown + " requires an argument.");
        return args_[++i_];
    }

    void apply(const OptionSpec& spec, const std::string& shown, std::optional<std::string> arg, bool negated) {
        switch (spec.kind) {
            case ArgKind::Help: out_.help = true; break;
            case ArgKind::Version: out_.version = true; break;
            case ArgKind::Flag: {
                bool value = !negated;
                if (arg) {
                    auto b = config::parse_bool(*arg);
                    if (!b) throw Error("Sense " + *arg + " is not understood, try true or false.");
                    value = negated ? !*b : *b;
                }
                out_.items.push_back({CommandLineItem::Kind::Set, std::string(spec.config_key), value ? "1" : "0"});
                break;
            }
            case ArgKind::FlagOff:
                out_.items.push_back({CommandLineItem::Kind::Set, std::string(spec.config_key), "0"});
                break;
            case ArgKind::Level:
                if (!arg && i_ + 1 < args_.size() && all_digits(args_[i_ + 1])) arg = args_[++i_];
                if (arg)
                    out_.items.push_back({CommandLineItem::Kind::Set, std::string(spec.config_key), *arg});
                else
                    out_.items.push_back({CommandLineItem::Kind::Increment, std::string(spec.config_key), ""});
                break;
            case ArgKind::Value:
                if (!arg) arg = next_argument(shown);
                out_.items.push_back({CommandLineItem::Kind::Set, std::string(spec.config_key), *arg});
                break;
            case ArgKind::ConfigFile:
                if (!arg) arg = next_argument(shown);
                out_.items.push_back({CommandLineItem::Kind::File, "", *arg});
                break;
            case ArgKind::Root: {
                // One switch for a whole system under DIR, as dnf's --installroot:
                // apt needs -o Dir=, the status file and dpkg's own --root.
                if (!arg) arg = next_argument(shown);
                std::string root = *arg;
                if (root.empty()) throw Error("Option " + shown + " requires a directory.");
                while (root.size() > 1 && root.back() == '/') root.pop_back();
                out_.root = root + "/";
                out_.items.push_back({CommandLineItem::Kind::Set, "Dir", root + "/"});
                out_.items.push_back({CommandLineItem::Kind::Set, "Dir::State::status", root + "/var/lib/dpkg/status"});
                out_.items.push_back({CommandLineItem::Kind::Set, "DPkg::Options::", "--root=" + root});
                break;
            }
            case ArgKind::ConfigItem: {
                if (!arg) arg = next_argument(shown);
                size_t eq = arg->find('=');
                if (eq == std::string::npos)
                    throw Error("Option " + *arg + ": Configuration item specification must have an =<val>.");
                out_.items.push_back({CommandLineItem::Kind::Set, arg->substr(0, eq), arg->substr(eq + 1)});
                break;
            }
        }
    }

    const OptionSpec* find_long(std::string_view name) const {
        for (const auto& o : options_)
            if (!o.long_name.empty() && o.long_name == name) return &o;
        return nullptr;
    }
    const OptionSpec* find_short(char c) const {
        for (const auto& o : options_)
            if (o.short_name == c) return &o;
        return nullptr;
    }

    std::span<const std::string> args_;
    std::span<const OptionSpec> options_;
    size_t i_ = 0;
    ParsedArgs out_;
};

}  // namespace

std::span<const OptionSpec> general_options() { return general_table; }
std::span<const OptionSpec> apt_options() { return apt_table; }

ParsedArgs parse_args(std::span<const std::string> args, std::span<const OptionSpec> options) {
    return Parser(args, options).run();
}

std::vector<std::string> scan_words(std::span<const std::string> args, std::span<const OptionSpec> options) {
    std::vector<std::string> words;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            words.insert(words.end(), args.begin() + i + 1, args.end());
            break;
        }
        if (a.size() < 2 || a[0] != '-') {
            words.push_back(a);
            continue;
        }
        // Only a bare "-o" / "--option" style word takes the next argument
        // (and a bare counter like "--quiet" a number after it).
        for (const auto& o : options) {
            bool level = o.kind == ArgKind::Level && i + 1 < args.size() && all_digits(args[i + 1]);
            if (!takes_argument(o.kind) && !level) continue;
            bool bare_short = o.short_name && a.size() == 2 && a[1] == o.short_name;
            bool bare_long = !o.long_name.empty() && a.size() > 2 && std::string_view(a).substr(2) == o.long_name;
            if (bare_short || bare_long) {
                ++i;
                break;
            }
        }
    }
    return words;
}

}  // namespace aptus::cli
