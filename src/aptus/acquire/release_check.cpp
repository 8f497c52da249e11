// The checks on a verified Release file; see release_check.hpp.
#include "aptus/acquire/release_check.hpp"

#include <algorithm>
#include <string>

#include "aptus/base/strings.hpp"
#include "aptus/config/config.hpp"
#include "aptus/config/values.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::acquire {

namespace {

using Level = CheckResult::Level;

CheckResult result(Level level, std::string message) { return {level, std::move(message)}; }

// A duration as apt prints it in these messages: "7d 3h 42min 1s".
std::string duration_text(int64_t seconds) {
    int64_t d = seconds / 86400, h = seconds / 3600 % 24, m = seconds / 60 % 60, s = seconds % 60;
    if (seconds > 86400)
        return std::to_string(d) + "d " + std::to_string(h) + "h " + std::to_string(m) + "min " + std::to_string(s) +
               "s";
    if (seconds > 3600) return std::to_string(h) + "h " + std::to_string(m) + "min " + std::to_string(s) + "s";
    if (seconds > 60) return std::to_string(m) + "min " + std::to_string(s) + "s";
    return std::to_string(s) + "s";
}

// The last value of a one-value entry option, if set.
std::optional<std::string> entry_value(const sources::SourceEntry& entry, std::string_view key) {
    auto values = entry.option_values(key, {});
    if (!values || values->empty()) return std::nullopt;
    return values->back();
}

std::optional<bool> entry_bool(const sources::SourceEntry& entry, std::string_view key) {
    auto v = entry_value(entry, key);
    if (!v) return std::nullopt;
    return config::parse_bool(*v);
}

std::optional<int64_t> entry_int(const sources::SourceEntry& entry, std::string_view key) {
    auto v = entry_value(entry, key);
    if (!v) return std::nullopt;
    auto n = config::parse_int(*v);
    if (!n) return std::nullopt;
    return int64_t(*n);
}

// A key with an optional per-label refinement: "<key>::<label>" wins.
long find_int_for_label(const config::Config& config, const std::string& key, std::string_view label, long fallback) {
    long v = config.find_int(key, fallback);
    if (!label.empty()) v = config.find_int(key + "::" + std::string(label), v);
    return v;
}

int default_pin(const deb::ReleaseFile& r) {
    if (r.not_automatic) return r.but_automatic_upgrades ? 100 : 1;
    return 500;
}

}  // namespace

ReleaseCheckSettings release_check_settings(const sources::SourceEntry& entry, const config::Config& config,
                                            std::string_view label) {
    ReleaseCheckSettings s;
    s.check_date = entry_bool(entry, "check-date").value_or(config.find_bool("Acquire::Check-Date", true));
    s.check_valid_until =
        entry_bool(entry, "check-valid-until").value_or(config.find_bool("Acquire::Check-Valid-Until", true));
    // sources.list(5): without a trustworthy clock no date can be judged.
    if (!s.check_date) s.check_valid_until = false;
    s.min_valid_time = entry_int(entry, "valid-until-min").value_or(0);
    if (s.min_valid_time == 0) s.min_valid_time = find_int_for_label(config, "Acquire::Min-ValidTime", label, 0);
    s.max_valid_time = entry_int(entry, "valid-until-max").value_or(0);
    if (s.max_valid_time == 0) s.max_valid_time = find_int_for_label(config, "Acquire::Max-ValidTime", label, 0);
    s.max_future = entry_int(entry, "date-max-future").value_or(0);
    if (s.max_future == 0) s.max_future = find_int_for_label(config, "Acquire::Max-FutureTime", label, 10);

    s.trusted = entry_bool(entry, "trusted").value_or(false);
    s.allow_insecure =
        entry_bool(entry, "allow-insecure").value_or(config.find_bool("Acquire::AllowInsecureRepositories", false));
    s.allow_weak =
        entry_bool(entry, "allow-weak").value_or(config.find_bool("Acquire::AllowWeakRepositories", false));
    s.allow_downgrade_to_insecure = entry_bool(entry, "allow-downgrade-to-insecure")
                                        .value_or(config.find_bool("Acquire::AllowDowngradeToInsecureRepositories", false));

    const bool allow_all = config.find_bool("Acquire::AllowReleaseInfoChange", false);
    const bool quiet_all = config.find_bool("quiet::ReleaseInfoChange", false);
    auto info = [&](const char* field, bool allowed_by_default) {
        ReleaseCheckSettings::InfoChange c;
        c.allow = config.find_bool(std::string("Acquire::AllowReleaseInfoChange::") + field, allowed_by_default);
        c.quiet = config.find_bool(std::string("quiet::ReleaseInfoChange::") + field, quiet_all);
        return c;
    };
    s.origin = info("Origin", allow_all);
    s.label = info("Label", allow_all);
    // Numbers change with every point release and suites move (stable
    // becomes oldstable): apt lets both through and only tells.
    s.version = info("Version", true);
    s.suite = info("Suite", true);
    s.codename = info("Codename", allow_all);
    s.default_pin = info("DefaultPin", allow_all);
    return s;
}

CheckResult check_valid_until(const deb::ReleaseFile& release, const ReleaseCheckSettings& settings,
                              std::string_view name, int64_t now) {
    if (!settings.check_valid_until) return {};
    int64_t valid_until = 0;
    if (!release.valid_until.empty()) {
        auto t = parse_release_date(release.valid_until);
        if (!t) return result(Level::Error, "Invalid 'Valid-Until' entry in Release file " + std::string(name));
        valid_until = *t;
    }
    auto date = parse_release_date(release.date);
    // The user's bounds: at least Date + Min-ValidTime (a mirror's too-short
    // promise extended), at most Date + Max-ValidTime (a too-long one cut).
    if (settings.min_valid_time != 0 && valid_until != 0 && date)
        valid_until = std::max(valid_until, *date + settings.min_valid_time);
    if (settings.max_valid_time != 0 && date) {
        int64_t cap = *date + settings.max_valid_time;
        if (valid_until == 0 || valid_until > cap) valid_until = cap;
    }
    if (valid_until == 0 || now <= valid_until) return {};
    return result(Level::Error, "Release file for " + std::string(name) + " is expired (invalid since " +
                                    duration_text(now - valid_until) +
                                    "). Updates for this repository will not be applied.");
}

CheckResult check_date(const deb::ReleaseFile& release, const ReleaseCheckSettings& settings, std::string_view name,
                       int64_t now) {
    auto date = parse_release_date(release.date);
    if (!date) return result(Level::Warning, "Invalid 'Date' entry in Release file " + std::string(name));
    if (!settings.check_date) return {};
    int64_t not_before = *date - settings.max_future;
    if (now >= not_before) return {};
    return result(Level::Error, "Release file for " + std::string(name) + " is not valid yet (invalid for another " +
                                    duration_text(not_before - now) +
                                    "). Updates for this repository will not be applied.");
}

CheckResult check_not_older(const deb::ReleaseFile& fresh, const deb::ReleaseFile& stored, std::string_view name) {
    auto fresh_date = parse_release_date(fresh.date);
    auto stored_date = parse_release_date(stored.date);
    if (!fresh_date || !stored_date || *fresh_date >= *stored_date) return {};
    return result(Level::Error, "Release file for " + std::string(name) + " is older than the one already stored (" +
                                    fresh.date + " < " + stored.date +
                                    "); the stored lists are kept.");
}

std::vector<CheckResult> check_release_info_change(const deb::ReleaseFile& fresh, const deb::ReleaseFile& stored,
                                                   const ReleaseCheckSettings& settings, std::string_view name) {
    std::vector<CheckResult> out;
    bool refused = false;
    auto field = [&](const char* type, const std::string& last, const std::string& now,
                     const ReleaseCheckSettings::InfoChange& policy) {
        if (last == now) return;
        if (policy.allow && policy.quiet) return;
        refused |= !policy.allow;
        out.push_back(result(policy.allow ? Level::Notice : Level::Error,
                             "Repository '" + std::string(name) + "' changed its '" + type + "' value from '" + last +
                                 "' to '" + now + "'"));
    };
    field("Origin", stored.origin, fresh.origin, settings.origin);
    field("Label", stored.label, fresh.label, settings.label);
    field("Version", stored.version, fresh.version, settings.version);
    field("Suite", stored.suite, fresh.suite, settings.suite);
    field("Codename", stored.codename, fresh.codename, settings.codename);
    int last_pin = default_pin(stored), now_pin = default_pin(fresh);
    if (last_pin != now_pin && !(settings.default_pin.allow && settings.default_pin.quiet)) {
        refused |= !settings.default_pin.allow;
        out.push_back(result(settings.default_pin.allow ? Level::Notice : Level::Error,
                             "Repository '" + std::string(name) +
                                 "' changed its default priority for apt_preferences(5) from " +
                                 std::to_string(last_pin) + " to " + std::to_string(now_pin) + "."));
    }
    // Where a release says what changed, point there, whether or not the
    // change must be accepted first.
    if (!out.empty() && !fresh.release_notes.empty())
        out.push_back(result(Level::Notice,
                             "More information about this can be found online in the Release notes at: " +
                                 fresh.release_notes));
    if (refused)
        out.push_back(result(Level::Notice,
                             "This must be accepted explicitly before updates for this repository can be applied. "
                             "See apt-secure(8) manpage for details."));
    return out;
}

std::vector<CheckResult> check_targets(const deb::ReleaseFile& release, const std::vector<RequestedTarget>& targets,
                                       std::string_view name) {
    auto listed = [&](const std::string& key) {
        for (const auto* list : {&release.sha512, &release.sha256, &release.sha1, &release.md5})
            for (const auto& e : *list)
                if (e.path == key || (e.path.size() > key.size() && starts_with(e.path, key) && e.path[key.size()] == '.'))
                    return true;
        return false;
    };
    auto has = [](const std::vector<std::string>& list, const std::string& v) {
        return std::find(list.begin(), list.end(), v) != list.end();
    };
    // A component the Release lists by a longer name ("updates/main" for
    // "main", as security archives do) is there; no Components field: all are.
    auto has_component = [&](const std::string& c) {
        if (release.components.empty()) return true;
        for (const auto& listed_c : release.components)
            if (listed_c == c || (listed_c.size() > c.size() && listed_c.ends_with("/" + c))) return true;
        return false;
    };
    std::vector<std::string> components_seen;
    for (const RequestedTarget& t : targets)
        if (!t.component.empty() && listed(t.meta_key) && !has(components_seen, t.component))
            components_seen.push_back(t.component);
    const std::string repo = "Skipping acquire of configured file '";
    std::vector<CheckResult> out;
    for (const RequestedTarget& t : targets) {
        if (listed(t.meta_key)) continue;
        if (!t.component.empty() && !has(components_seen, t.component) && !has_component(t.component)) {
            out.push_back(result(Level::Warning, repo + t.meta_key + "' as repository '" + std::string(name) +
                                                     "' doesn't have the component '" + t.component +
                                                     "' (component misspelt in sources.list?)"));
        } else if (t.optional) {
            // Translations, Contents, ...: most repositories have none.
        } else if (!t.architecture.empty() && !release.architectures.empty()) {
            // An architecture the Release announces but has no index for is,
            // as apt has it, the same as an empty index: skipped silently.
            // "all" goes without saying where the Release names any.
            if (t.architecture != "all" && !has(release.architectures, t.architecture))
                out.push_back(result(Level::Notice, repo + t.meta_key + "' as repository '" + std::string(name) +
                                                        "' doesn't support architecture '" + t.architecture + "'"));
        } else {
            // apt 3.0 skips it with a warning; the rest of the repository is still used.
            out.push_back(result(Level::Warning, repo + t.meta_key + "' as repository '" + std::string(name) +
                                                     "' does not seem to provide it (sources.list entry misspelt?)"));
        }
    }
    return out;
}

CheckResult check_unsigned(const ReleaseCheckSettings& settings, std::string_view name, bool previously_signed) {
    if (settings.trusted) return {};
    const std::string repo = "The repository '" + std::string(name) + "'";
    // Going from signed to unsigned takes both: apt allows no downgrade to
    // what insecure repositories are not allowed at all.
    const bool allowed = settings.allow_insecure && (!previously_signed || settings.allow_downgrade_to_insecure);
    CheckResult r = result(allowed ? Level::Warning : Level::Error,
                           repo + (previously_signed ? " is no longer signed." : " is not signed."));
    // apt's advice comes as notices of their own (gone with -q), after the message.
    r.notices.push_back(allowed ? "Data from such a repository can't be authenticated and is therefore potentially "
                                  "dangerous to use."
                                : "Updating from such a repository can't be done securely, and is therefore disabled "
                                  "by default.");
    r.notices.push_back("See apt-secure(8) manpage for repository creation and user configuration details.");
    return r;
}

CheckResult check_distribution(const deb::ReleaseFile& release, std::string_view expected_suite,
                               std::string_view name) {
    if (expected_suite.empty() || expected_suite.back() == '/') return {};
    if (release.codename.empty() && release.suite.empty()) return {};
    if (expected_suite == release.codename || expected_suite == release.suite) return {};
    // "bookworm/updates": the archive names itself by the part before the
    // last slash.
    if (size_t slash = expected_suite.rfind('/'); slash != std::string_view::npos) {
        std::string_view base = expected_suite.substr(0, slash);
        if (base == release.codename || base == release.suite) return {};
    }
    return result(Level::Warning, "Conflicting distribution: " + std::string(name) + " (expected " +
                                      std::string(expected_suite) + " but got " +
                                      (release.codename.empty() ? release.suite : release.codename) + ")");
}

}  // namespace aptus::acquire
