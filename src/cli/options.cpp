#include "cli/options.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/values.hpp"

namespace aptus::cli {
namespace {

using config::CommandLineItem;

constexpr OptionSpec general_table[] = {
    {'h', "help", "", ArgKind::Help},
    {'v', "version", "", ArgKind::Version},
    {'q', "quiet", "quiet", ArgKind::Level},
    {0, "silent", "quiet", ArgKind::Level},
    {0, "audit", "APT::Audit", ArgKind::Flag},
    {'y', "yes", "APT::Get::Assume-Yes", ArgKind::Flag},
    {0, "assume-yes", "APT::Get::Assume-Yes", ArgKind::Flag},
    {'s', "simulate", "APT::Get::Simulate", ArgKind::Flag},
    {0, "just-print", "APT::Get::Simulate", ArgKind::Flag},
    {0, "dry-run", "APT::Get::Simulate", ArgKind::Flag},
    {0, "recon", "APT::Get::Simulate", ArgKind::Flag},
    {0, "no-act", "APT::Get::Simulate", ArgKind::Flag},
    {'o', "option", "", ArgKind::ConfigItem},
    {'c', "config-file", "", ArgKind::ConfigFile},
    {0, "root", "", ArgKind::Root},
};

// Options of apt 3.0's apt, apt-get and apt-cache that no aptus command table
// lists: accepted with every command, as apt-get accepts them, each setting
// the configuration key apt's own programs read. A command's own row of the
// same name comes first.
constexpr OptionSpec apt_table[] = {
    {'t', "target-release", "APT::Default-Release", ArgKind::Value},
    {0, "default-release", "APT::Default-Release", ArgKind::Value},
    {'d', "download-only", "APT::Get::Download-Only", ArgKind::Flag},
    {'b', "compile", "APT::Get::Compile", ArgKind::Flag},
    {0, "build", "APT::Get::Compile", ArgKind::Flag},
    {0, "ignore-hold", "APT::Ignore-Hold", ArgKind::Flag},
    {0, "upgrade", "APT::Get::upgrade", ArgKind::Flag},
    {0, "only-upgrade", "APT::Get::Only-Upgrade", ArgKind::Flag},
    {0, "allow-change-held-packages", "APT::Get::allow-change-held-packages", ArgKind::Flag},
    {0, "allow-remove-essential", "APT::Get::allow-remove-essential", ArgKind::Flag},
    {0, "allow-downgrades", "APT::Get::allow-downgrades", ArgKind::Flag},
    {0, "force-yes", "APT::Get::force-yes", ArgKind::Flag},
    {0, "print-uris", "APT::Get::Print-URIs", ArgKind::Flag},
    {0, "trivial-only", "APT::Get::Trivial-Only", ArgKind::Flag},
    {0, "mark-auto", "APT::Get::Mark-Auto", ArgKind::Flag},
    {0, "remove", "APT::Get::Remove", ArgKind::Flag},
    {0, "only-source", "APT::Get::Only-Source", ArgKind::Flag},
    {0, "arch-only", "APT::Get::Arch-Only", ArgKind::Flag},
    {0, "indep-only", "APT::Get::Indep-Only", ArgKind::Flag},
    {0, "allow-unauthenticated", "APT::Get::AllowUnauthenticated", ArgKind::Flag},
    {0, "allow-insecure-repositories", "Acquire::AllowInsecureRepositories", ArgKind::Flag},
    {0, "allow-weak-repositories", "Acquire::AllowWeakRepositories", ArgKind::Flag},
    {0, "allow-releaseinfo-change", "Acquire::AllowReleaseInfoChange", ArgKind::Flag},
    {0, "allow-releaseinfo-change-origin", "Acquire::AllowReleaseInfoChange::Origin", ArgKind::Flag},
    {0, "allow-releaseinfo-change-label", "Acquire::AllowReleaseInfoChange::Label", ArgKind::Flag},
    {0, "allow-releaseinfo-change-version", "Acquire::AllowReleaseInfoChange::Version", ArgKind::Flag},
    {0, "allow-releaseinfo-change-codename", "Acquire::AllowReleaseInfoChange::Codename", ArgKind::Flag},
    {0, "allow-releaseinfo-change-suite", "Acquire::AllowReleaseInfoChange::Suite", ArgKind::Flag},
    {0, "allow-releaseinfo-change-defaultpin", "Acquire::AllowReleaseInfoChange::DefaultPin", ArgKind::Flag},
    {0, "install-recommends", "APT::Install-Recommends", ArgKind::Flag},
    {0, "install-suggests", "APT::Install-Suggests", ArgKind::Flag},
    {0, "fix-policy", "APT::Get::Fix-Policy-Broken", ArgKind::Flag},
    {0, "solver", "APT::Solver", ArgKind::Value},
    {0, "planner", "APT::Planner", ArgKind::Value},
    {'u', "show-upgraded", "APT::Get::Show-Upgraded", ArgKind::Flag},
    {'m', "ignore-missing", "APT::Get::Fix-Missing", ArgKind::Flag},
    {0, "fix-missing", "APT::Get::Fix-Missing", ArgKind::Flag},
    {'f', "fix-broken", "APT::Get::Fix-Broken", ArgKind::Flag},
    {'V', "verbose-versions", "APT::Get::Show-Versions", ArgKind::Flag},
    {0, "download", "APT::Get::Download", ArgKind::Flag},
    {0, "host-architecture", "APT::Get::Host-Architecture", ArgKind::Value},
    {'P', "build-profiles", "APT::Build-Profiles", ArgKind::Value},
    {0, "purge", "APT::Get::Purge", ArgKind::Flag},
    {0, "list-cleanup", "APT::Get::List-Cleanup", ArgKind::Flag},
    // apt-get's --show-progress: dpkg's progress; aptus draws apt 3.0's bar on
    // a terminal in any case (Dpkg::Progress-Fancy), so it only says yes.
    {0, "show-progress", "Dpkg::Progress", ArgKind::Flag},
    {0, "reinstall", "APT::Get::ReInstall", ArgKind::Flag},
    // --autoremove is a request of its own (Aptus::Cmd::AutoRemove): apt's
    // upgrade honours it but not APT::Get::AutomaticRemove from the config.
    {0, "auto-remove", "Aptus::Cmd::AutoRemove", ArgKind::Flag},
    {0, "autoremove", "Aptus::Cmd::AutoRemove", ArgKind::Flag},
    {0, "diff-only", "APT::Get::Diff-Only", ArgKind::Flag},
    {0, "dsc-only", "APT::Get::Dsc-Only", ArgKind::Flag},
    {0, "tar-only", "APT::Get::Tar-Only", ArgKind::Flag},
    {0, "with-source", "APT::Sources::With::", ArgKind::Value},
    {'S', "snapshot", "APT::Snapshot", ArgKind::Value},
    {0, "comment", "APT::History::Comment", ArgKind::Value},
    {0, "strict-pinning", "APT::Solver::Strict-Pinning", ArgKind::Flag},
    {0, "with-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::Flag},
    {0, "without-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::FlagOff},
    {0, "no-new-pkgs", "APT::Get::Upgrade-Allow-New", ArgKind::FlagOff},
    {0, "assume-no", "APT::Get::Assume-No", ArgKind::Flag},
    {'e', "error-on", "APT::Update::Error-Mode", ArgKind::Value},
    {0, "format", "APT::Get::IndexTargets::Format", ArgKind::Value},
    {0, "release-info", "APT::Get::IndexTargets::ReleaseInfo", ArgKind::Flag},
    {0, "color", "APT::Color", ArgKind::Flag},
    {0, "colour", "APT::Color", ArgKind::Flag},
    {0, "full", "APT::Cache::ShowFull", ArgKind::Flag},
    {0, "names-only", "APT::Cache::NamesOnly", ArgKind::Flag},
    {0, "all-names", "APT::Cache::AllNames", ArgKind::Flag},
    {0, "all-versions", "APT::Cache::AllVersions", ArgKind::Flag},
    {0, "installed", "APT::Cache::Installed", ArgKind::Flag},
    {0, "recurse", "APT::Cache::RecurseDepends", ArgKind::Flag},
    {0, "implicit", "APT::Cache::ShowImplicit", ArgKind::Flag},
    {0, "important", "APT::Cache::Important", ArgKind::Flag},
    {'g', "generate", "APT::Cache::Generate", ArgKind::Flag},
    {'p', "pkg-cache", "Dir::Cache::pkgcache", ArgKind::Value},
    {0, "src-cache", "Dir::Cache::srcpkgcache", ArgKind::Value},
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
