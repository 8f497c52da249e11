// apt-cache dumpavail: for every package its candidate (the installed
// version when there is none), the record as its first package list has
// it, each followed by a blank line, in the order of the files and of the
// records in them. A version only the dpkg status has is written from the
// status, without Status and Config-Version, when another version of the
// package is in a list (so dselect does not take it for obsolete), and
// left out when none is.
#include "cli/commands/dumpavail_cmd.hpp"

#include <algorithm>

#include "cli/read_session.hpp"
#include "cli/stdout_buffer.hpp"

namespace aptus::cli {
namespace {

bool from_list(const cache::Cache& c, const cache::VersionFile& vf) {
    return c.index_files()[vf.index_file].kind == cache::IndexKind::Packages;
}

// A status record without the fields dpkg's available file has no place for.
std::string without_status_fields(std::string_view record) {
    std::string out;
    bool dropping = false;
    for (size_t pos = 0; pos < record.size();) {
        size_t nl = record.find('\n', pos);
        size_t end = nl == std::string_view::npos ? record.size() : nl + 1;
        std::string_view line = record.substr(pos, end - pos);
        pos = end;
        bool continuation = !line.empty() && (line[0] == ' ' || line[0] == '\t');
        if (!continuation) {
            size_t colon = line.find(':');
            std::string_view name = line.substr(0, colon);
            dropping = name == "Status" || name == "Config-Version";
        }
        if (!dropping) out += line;
    }
    return out;
}

}  // namespace

int run_dumpavail(Context& ctx) {
    auto s = open_read_session(ctx);
    const cache::Cache& c = s->cache();
    std::vector<const cache::VersionFile*> records;
    for (const auto& p : c.packages()) {
        if (p.version_count == 0) continue;
        const cache::Version* v = s->candidates->candidate(p);
        if (!v) v = c.current_version(p);
        if (!v) continue;
        const cache::VersionFile* chosen = nullptr;
        for (const auto& vf : c.files_of(*v))
            if (from_list(c, vf)) {
                chosen = &vf;
                break;
            }
        if (!chosen) {
            bool listed = false;
            for (const auto& other : c.versions_of(p))
                for (const auto& vf : c.files_of(other)) listed = listed || from_list(c, vf);
            if (!listed || c.files_of(*v).empty()) continue;
            chosen = &c.files_of(*v).front();
        }
        records.push_back(chosen);
    }
    std::sort(records.begin(), records.end(), [](const auto* a, const auto* b) {
        return a->index_file != b->index_file ? a->index_file < b->index_file : a->offset < b->offset;
    });
    StdoutBuffer out;
    for (const auto* vf : records) {
        std::string_view text = c.stanza(*vf);
        std::string record = c.index_files()[vf->index_file].kind == cache::IndexKind::Status
                                 ? without_status_fields(text)
                                 : std::string(text);
        if (!record.empty() && record.back() != '\n') record += '\n';
        out += record;
        out += '\n';
    }
    return 0;
}

}  // namespace aptus::cli
