// dpkg's --status-fd lines turned into apt's progress: which state each
// package must pass through, and how far the run is.
#include <cstdio>
#include <string>

#include "aptus/base/file.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/system/dpkg_run_detail.hpp"

namespace aptus::system::detail {

namespace {

std::string_view strip(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// The line cut at ": " into at most `max` parts; the last keeps the rest,
// because dpkg's error messages hold colons of their own.
std::vector<std::string_view> split_fields(std::string_view line, size_t max) {
    std::vector<std::string_view> out;
    while (out.size() + 1 < max) {
        auto pos = line.find(": ");
        if (pos == std::string_view::npos) break;
        out.push_back(line.substr(0, pos));
        line.remove_prefix(pos + 2);
    }
    out.push_back(line);
    return out;
}

// "foo (amd64)" for "foo:amd64", as apt names a package in its progress.
std::string display_name(std::string_view full_name) {
    auto colon = full_name.find(':');
    if (colon == std::string_view::npos) return std::string(full_name);
    return std::string(full_name.substr(0, colon)) + " (" + std::string(full_name.substr(colon + 1)) + ")";
}

std::string format_with(std::string_view format, std::string_view name) {
    std::string out;
    auto pos = format.find("%s");
    if (pos == std::string_view::npos) return std::string(format);
    out.append(format.substr(0, pos)).append(name).append(format.substr(pos + 2));
    return out;
}

bool counts_as_installed(std::string_view state) {
    return !state.empty() && state != "not-installed" && state != "config-files";
}

}  // namespace

std::map<std::string, DpkgInstalled> read_dpkg_status(const std::string& path) {
    std::map<std::string, DpkgInstalled> out;
    if (!path_exists(path)) return out;
    std::string text = read_file(path);
    // Progress only: a damaged stanza is skipped (the cache build warned of it).
    deb::TagFileReader reader(text, path, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza s;
    while (reader.next(s)) {
        auto package = s.value_or_empty("Package");
        if (package.empty()) continue;
        DpkgInstalled info;
        info.version = std::string(s.value_or_empty("Version"));
        info.arch = std::string(s.value_or_empty("Architecture"));
        auto ma = s.value_or_empty("Multi-Arch");
        info.multi_arch = ma.empty() ? "none" : std::string(ma);
        auto status = s.value_or_empty("Status");
        auto last_space = status.rfind(' ');
        info.state = std::string(last_space == std::string_view::npos ? status : status.substr(last_space + 1));
        out[std::string(package) + ":" + info.arch] = std::move(info);
    }
    return out;
}

DpkgStatusTracker::DpkgStatusTracker(const std::vector<DpkgOperation>& ops,
                                     const std::map<std::string, DpkgInstalled>& installed) {
    static const State unpack[] = {{"half-installed", "Unpacking %s"}, {"unpacked", "Installing %s"}};
    static const State configure[] = {{"half-configured", "Configuring %s"}, {"installed", "Installed %s"}};
    static const State remove[] = {{"half-configured", "Removing %s"}, {"half-installed", "Removing %s"}};
    static const State purge[] = {{"config-files", "Completely removing %s"},
                                  {"not-installed", "Completely removed %s"}};
    for (const auto& op : ops) {
        Package* pkg = nullptr;
        for (auto& p : packages_)
            if (p.full_name == op.package) pkg = &p;
        if (pkg == nullptr) {
            packages_.push_back({op.package, {}, 0});
            pkg = &packages_.back();
        }
        auto add = [&](const State(&states)[2]) {
            pkg->states.insert(pkg->states.end(), std::begin(states), std::end(states));
            total_ += 2;
        };
        std::string_view state;
        if (auto it = installed.find(op.package); it != installed.end()) state = it->second.state;
        switch (op.action) {
            case DpkgAction::Unpack: add(unpack); break;
            case DpkgAction::Configure: add(configure); break;
            // dpkg passes over a removal of what is not there without a
            // word: no steps to wait for.
            case DpkgAction::Remove:
                if (counts_as_installed(state)) add(remove);
                break;
            case DpkgAction::Purge:
                if (counts_as_installed(state)) add(remove);
                if (counts_as_installed(state) || state == "config-files") add(purge);
                break;
        }
        // A package that was never configured skips half-configured on its way
        // out; apt leaves that step out of the count.
        if ((op.action == DpkgAction::Remove || op.action == DpkgAction::Purge) &&
            (state == "unpacked" || state == "half-installed") && pkg->next < pkg->states.size() &&
            std::string_view(pkg->states[pkg->next].state) == "half-configured") {
            ++pkg->next;
            --total_;
        }
    }
    ++total_;
}

DpkgStatusTracker::Package* DpkgStatusTracker::find(std::string_view dpkg_name) {
    for (auto& p : packages_)
        if (p.full_name == dpkg_name) return &p;
    // dpkg leaves the architecture out where the name alone is unambiguous
    // to it: take the package of that name that still has work ahead.
    std::string_view bare = package_name_part(dpkg_name);
    Package* any = nullptr;
    for (auto& p : packages_) {
        if (package_name_part(p.full_name) != bare) continue;
        if (p.next < p.states.size()) return &p;
        if (any == nullptr) any = &p;
    }
    return any;
}

DpkgStatusTracker::Update DpkgStatusTracker::update(std::string_view format, const Package* pkg,
                                                    std::string_view dpkg_name) const {
    std::string name = display_name(pkg != nullptr ? std::string_view(pkg->full_name) : dpkg_name);
    double percent = total_ == 0 ? 0.0 : 100.0 * done_ / total_;
    return {percent, format_with(format, name)};
}

std::optional<DpkgStatusTracker::Update> DpkgStatusTracker::line(std::string_view text) {
    auto fields = split_fields(text, 4);
    if (fields.size() < 3) return std::nullopt;
    std::string_view prefix = strip(fields[0]);
    if (prefix == "processing") {
        std::string_view action = strip(fields[1]);
        std::string_view name = strip(fields[2]);
        static const std::pair<std::string_view, std::string_view> announcements[] = {
            {"install", "Preparing %s"},
            {"upgrade", "Preparing %s"},
            {"configure", "Preparing to configure %s"},
            {"remove", "Preparing for removal of %s"},
            {"purge", "Preparing to completely remove %s"},
            {"disappear", "Noting disappearance of %s"},
            {"trigproc", "Running post-installation trigger %s"},
        };
        for (const auto& [word, format] : announcements) {
            if (word != action) continue;
            Package* pkg = find(name);
            if (action == "disappear" && pkg != nullptr) {
                // A package another one replaced entirely: none of its
                // remaining steps will come.
                done_ += static_cast<unsigned>(pkg->states.size() - pkg->next);
                pkg->next = pkg->states.size();
            }
            return update(format, pkg, name);
        }
        return std::nullopt;
    }
    if (prefix != "status") return std::nullopt;
    std::string_view name = strip(fields[1]);
    std::string_view state = strip(fields[2]);
    if (state == "error") {
        errors_.push_back(std::string(name) + ": " + std::string(fields.size() > 3 ? strip(fields[3]) : ""));
        return std::nullopt;
    }
    if (state == "conffile-prompt") return std::nullopt;
    Package* pkg = find(name);
    if (pkg != nullptr && pkg->next < pkg->states.size()) {
        const State& expected = pkg->states[pkg->next];
        if (state != expected.state) return std::nullopt;
        ++pkg->next;
        ++done_;
        return update(expected.text, pkg, name);
    }
    if (state == "triggers-pending") {
        // Its triggers will run in a later call: two more steps for it.
        if (pkg == nullptr) {
            packages_.push_back({std::string(name), {}, 0});
            pkg = &packages_.back();
        }
        pkg->states.push_back({"half-configured", "Configuring %s"});
        pkg->states.push_back({"installed", "Installed %s"});
        total_ += 2;
    }
    return std::nullopt;
}

}  // namespace aptus::system::detail
