#include "cli/package_line.hpp"

#include <algorithm>
#include <utility>

#include <unistd.h>

#include <cstdio>

#include "aptus/deb/version.hpp"

namespace aptus::cli {

std::vector<std::string> VersionView::suites(const cache::Version& v) const {
    std::vector<std::string> out;
    for (const auto& f : cache.files_of(v)) {
        const auto& file = cache.index_files()[f.index_file];
        if (file.kind == cache::IndexKind::Status) {
            out.emplace_back("now");
        } else if (file.release != cache::kNone) {
            std::string_view suite = cache.str(cache.releases()[file.release].suite);
            if (!suite.empty()) out.emplace_back(suite);
        }
    }
    return out;
}

std::string_view VersionView::shown_architecture(const cache::Package& p) const {
    if (const cache::Version* current = cache.current_version(p)) return cache.str(current->architecture);
    if (const cache::Version* cand = candidates.candidate(p)) return cache.str(cand->architecture);
    return cache.str(p.architecture);
}

bool VersionView::upgradable(const cache::Package& p) const {
    const cache::Version* current = cache.current_version(p);
    const cache::Version* cand = candidates.candidate(p);
    if (!current || !cand || current == cand) return false;
    return deb::compare_versions(cache.str(cand->version), cache.str(current->version)) > 0;
}

bool VersionView::is_auto_removable(const cache::Package& p) const {
    return auto_removable && (p.flags & cache::kPackageAuto) &&
           std::binary_search(auto_removable->begin(), auto_removable->end(), cache.index_of(p));
}

ListStatus VersionView::status(const cache::Version& v) const {
    const cache::Package& p = cache.package_of(v);
    const cache::Version* current = cache.current_version(p);
    if (current == &v) {
        if (upgradable(p)) return ListStatus::InstalledUpgradable;
        bool downloadable = false;
        for (const auto& f : cache.files_of(v))
            if (cache.index_files()[f.index_file].kind != cache::IndexKind::Status) downloadable = true;
        if (!downloadable) return ListStatus::InstalledLocal;
        if (is_auto_removable(p)) return ListStatus::InstalledAutoRemovable;
        if (p.flags & cache::kPackageAuto) return ListStatus::InstalledAutomatic;
        return ListStatus::Installed;
    }
    if (candidates.candidate(p) == &v && upgradable(p)) return ListStatus::Upgradable;
    if (p.state == cache::InstallState::ConfigFiles) return ListStatus::ResidualConfig;
    return ListStatus::None;
}

std::string VersionView::status_text(const cache::Version& v) const {
    const cache::Package& p = cache.package_of(v);
    switch (status(v)) {
        case ListStatus::Installed: return "[installed]";
        case ListStatus::InstalledAutomatic: return "[installed,automatic]";
        case ListStatus::InstalledAutoRemovable: return "[installed,auto-removable]";
        case ListStatus::InstalledLocal: return "[installed,local]";
        case ListStatus::InstalledUpgradable:
            return "[installed,upgradable to: " + std::string(cache.str(candidates.candidate(p)->version)) + "]";
        case ListStatus::Upgradable:
            return "[upgradable from: " + std::string(cache.str(cache.current_version(p)->version)) + "]";
        case ListStatus::ResidualConfig: return "[residual-config]";
        case ListStatus::None: break;
    }
    return "";
}

std::string VersionView::formatted(const cache::Version& v, std::string format) const {
    const cache::Package& p = cache.package_of(v);
    const cache::Version* installed = cache.current_version(p);
    const cache::Version* candidate = candidates.candidate(p);
    std::string origin;
    for (const std::string& s : suites(v)) origin += (origin.empty() ? "" : ",") + s;
    std::string name(cache.name_of(p));
    if (cache.str(p.architecture) != cache.native_architecture() && cache.str(p.architecture) != "all")
        name += ":" + std::string(cache.str(p.architecture));
    const std::string abbrev = installed ? "ii" : p.state == cache::InstallState::ConfigFiles ? "rc" : "un";
    const std::pair<std::string_view, std::string> vars[] = {
        {"${db::Status-Abbrev}", abbrev},
        {"${Package}", name},
        {"${Architecture}", std::string(shown_architecture(p))},
        {"${installed:Version}", installed ? std::string(cache.str(installed->version)) : "(none)"},
        {"${candidate:Version}", candidate ? std::string(cache.str(candidate->version)) : "(none)"},
        {"${Version}", std::string(cache.str(v.version))},
        {"${Origin}", origin},
        {"${Description}", std::string(cache.str(v.short_description))},
    };
    for (const auto& [key, value] : vars)
        for (size_t at = format.find(key); at != std::string::npos; at = format.find(key, at + value.size()))
            format.replace(at, key.size(), value);
    return format;
}

std::string VersionView::line(const cache::Version& v, const Colors& colors) const {
    // The bare name even for a foreign architecture, as apt list and search
    // print it: the architecture column tells "libc6 ... i386" apart.
    std::string out = colors.highlight + std::string(cache.name_of(cache.package_of(v))) + colors.neutral + "/";
    auto s = suites(v);
    for (size_t i = 0; i < s.size(); ++i) {
        if (i) out += ',';
        out += s[i];
    }
    out += ' ';
    out += cache.str(v.version);
    out += ' ';
    out += shown_architecture(cache.package_of(v));
    std::string st = status_text(v);
    if (!st.empty()) out += " " + st;
    return out;
}

nlohmann::ordered_json VersionView::json(const cache::Version& v) const {
    const cache::Package& p = cache.package_of(v);
    ListStatus st = status(v);
    const cache::Version* current = cache.current_version(p);
    const cache::Version* cand = candidates.candidate(p);
    nlohmann::ordered_json j;
    j["name"] = std::string(cache.name_of(p));
    j["architecture"] = std::string(cache.str(v.architecture));
    j["version"] = std::string(cache.str(v.version));
    j["suites"] = suites(v);
    j["installed"] = current == &v;
    j["automatic"] = current == &v && (p.flags & cache::kPackageAuto) != 0;
    j["auto_removable"] = current == &v && is_auto_removable(p);
    j["local"] = st == ListStatus::InstalledLocal;
    j["candidate"] = cand == &v;
    j["upgradable"] = upgradable(p) && (current == &v || cand == &v);
    j["installed_version"] = current ? nlohmann::ordered_json(std::string(cache.str(current->version))) : nullptr;
    j["candidate_version"] = cand ? nlohmann::ordered_json(std::string(cache.str(cand->version))) : nullptr;
    j["residual_config"] = st == ListStatus::ResidualConfig;
    return j;
}

Progress::Progress(const config::Config& config, bool silent)
    : quiet_(int(config.find_int("quiet", ::isatty(STDOUT_FILENO) == 1 ? 0 : 1))),
      erase_(config.find_bool("APT::Internal::OpProgress::EraseLines", true)),
      silent_(silent),
      // quiet::NoUpdate: each step once, on a line of its own, as in a pipe.
      tty_(::isatty(STDOUT_FILENO) == 1 && !config.find_bool("quiet::NoUpdate", false)) {}

void Progress::start(std::string_view what) {
    done();
    if (silent_ || quiet_ >= 2) return;
    current_ = std::string(what) + "...";
    std::fputs(current_.c_str(), stdout);
    // Never a line to be overwritten in a pipe, whatever quiet says: a
    // script or a log gets "Reading package lists..." on a line of its own.
    if (quiet_ >= 1 || !tty_) std::fputc('\n', stdout);
    std::fflush(stdout);
}

void Progress::done() {
    if (current_.empty()) return;
    if (quiet_ == 0 && tty_) {
        if (erase_)
            std::printf("\r%*s\r", int(current_.size()), "");
        else
            std::printf("\r%s Done\n", current_.c_str());
    }
    std::fflush(stdout);
    current_.clear();
}

}  // namespace aptus::cli
