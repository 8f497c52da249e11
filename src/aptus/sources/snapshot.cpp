#include "aptus/sources/snapshot.hpp"

#include <optional>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/sources/index_targets.hpp"

namespace aptus::sources {
namespace {

constexpr std::string_view kIdMark = "@SNAPSHOTID@";

// The Snapshots field of the Release an earlier update stored for the
// entry's own URI ("" when there is none or it cannot be read).
std::string release_template(const SourceEntry& entry, const config::Config& config) {
    for (const ReleaseFiles& r : release_files({entry}, config)) {
        for (const std::string& path : {r.inrelease_file, r.release_file}) {
            if (!path_exists(path)) continue;
            try {
                std::string raw = read_file(path);
                std::string text = deb::starts_clearsigned(raw) ? deb::clearsigned_text(raw, path) : raw;
                deb::TagFileReader reader(text, path, deb::TagFileOptions{.skip_malformed = true});
                deb::Stanza stanza;
                if (reader.next(stanza)) return std::string(stanza.value_or_empty("Snapshots"));
            } catch (const Error&) {
            }
            return "";
        }
    }
    return "";
}

std::string snapshot_template(const SourceEntry& entry, const config::Config& config) {
    const std::string host = uri_host(entry.uri);
    if (!host.empty()) {
        std::string configured = config.find("Acquire::Snapshots::URI::Host::" + host);
        if (!configured.empty()) return configured;
    }
    return release_template(entry, config);
}

}  // namespace

// The URI the entry is read from under the snapshot it takes, if any.
static std::optional<std::string> snapshot_uri(const SourceEntry& e, const config::Config& config, const std::string& wanted) {
    if (!e.enabled) return std::nullopt;
    const SourceOption* option = e.option("snapshot");
    const std::string said = option && !option->values.empty() ? option->values.front() : "";
    if (said == "disable" || said == "no" || said == "false") return std::nullopt;
    const bool asked = said == "enable" || said == "yes" || said == "true";
    const std::string id = asked || said.empty() ? wanted : said;
    if (id.empty()) return std::nullopt;
    const std::string tmpl = snapshot_template(e, config);
    const size_t mark = tmpl.find(kIdMark);
    if (mark == std::string::npos) {
        // Only an entry that asks for snapshots must have them.
        if (!said.empty())
            throw Error("Snapshots not supported for " + e.uri + " " + e.suite + " (" + e.location.apt_name() + ")");
        return std::nullopt;
    }
    return tmpl.substr(0, mark) + id + tmpl.substr(mark + kIdMark.size());
}

void apply_snapshots(const config::Config& config, std::vector<SourceEntry>& entries, SnapshotUse use) {
    const std::string wanted = config.find("APT::Snapshot");
    std::vector<SourceEntry> out;
    out.reserve(entries.size());
    for (SourceEntry& e : entries) {
        std::optional<std::string> uri = snapshot_uri(e, config, wanted);
        if (!uri || use == SnapshotUse::AlongOriginal) out.push_back(e);
        if (!uri) continue;
        out.push_back(std::move(e));
        out.back().uri = std::move(*uri);
    }
    entries = std::move(out);
}

}  // namespace aptus::sources
