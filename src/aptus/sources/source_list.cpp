#include "aptus/sources/source_list.hpp"
#include "aptus/sources/snapshot.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/parser.hpp"
#include "aptus/sources/deb822_sources.hpp"
#include "aptus/sources/one_line.hpp"
#include "aptus/sources/entry_rules.hpp"
#include "aptus/sources/index_targets.hpp"

#include <map>

namespace aptus::sources {

SourceFiles find_source_files(const config::Config& config, Diagnostics& diags) {
    SourceFiles out;
    auto add = [&](const std::string& path) {
        (ends_with(path, ".sources") ? out.sources_files : out.list_files).push_back(path);
        out.all_in_order.push_back(path);
    };
    std::string main = config.find_file("Dir::Etc::sourcelist");
    if (!main.empty() && path_exists(main) && !is_directory(main)) add(main);
    std::string parts = config.find_dir("Dir::Etc::sourceparts");
    if (!parts.empty() && is_directory(parts)) {
        // apt reads this directory without notices; keep parts_dir_files's to ourselves.
        Diagnostics quiet;
        for (const std::string& path : config::parts_dir_files(config, parts, {"list", "sources"}, false, quiet))
            add(path);
    }
    return out;
}

std::vector<SourceEntry> read_source_file(const std::string& path) {
    std::string text;
    try {
        text = read_file(path);
    } catch (const Error& e) {
        throw Error(std::string("The list of sources could not be read: ") + e.what());
    }
    std::vector<SourceEntry> entries =
        ends_with(path, ".sources") ? parse_deb822_sources(text, path) : parse_one_line_file(text, path);
    // apt refuses a bad Signed-By when it reads the sources, so every
    // command does, not only update.
    for (const SourceEntry& e : entries) detail::check_signed_by(e);
    return entries;
}

namespace {

// Entries of one repository (URI and suite) may leave Signed-By out, but
// those that set it must agree: apt keeps one keyring per Release file and
// refuses the whole list otherwise.
void check_one_signed_by(const std::vector<SourceEntry>& entries) {
    std::map<std::string, std::string> signed_by;  // meta_index_key -> value
    for (const SourceEntry& e : entries) {
        if (!e.enabled) continue;
        const SourceOption* sb = e.option("signed-by");
        if (!sb) continue;
        std::string value;
        for (const std::string& v : sb->values) value += (value.empty() ? "" : ",") + std::string(trim(v));
        const std::string key = meta_index_key(e);
        auto [it, fresh] = signed_by.emplace(key, value);
        if (fresh || it->second == value) continue;
        std::string where = key;
        where[where.find('\n')] = ' ';
        Error error("Conflicting values set for option Signed-By regarding source " + where + ": " + it->second +
                    " != " + value);
        error.add_followup("The list of sources could not be read.");
        throw error;
    }
}

// trusted= is the repository's, so all its entries say the same: apt
// refuses the list when one sets it and another does not, or to another value.
void check_one_trusted(const std::vector<SourceEntry>& entries) {
    std::map<std::string, std::string> trusted;  // meta_index_key -> "yes", "no" or "" (not said)
    for (const SourceEntry& e : entries) {
        if (!e.enabled) continue;
        const SourceOption* t = e.option("trusted");
        const std::string value =
            !t || t->values.empty() ? "" : detail::is_false_word(trim(t->values[0])) ? "no" : "yes";
        const std::string key = meta_index_key(e);
        auto [it, fresh] = trusted.emplace(key, value);
        if (fresh || it->second == value) continue;
        std::string where = key;
        where[where.find('\n')] = ' ';
        Error error("Conflicting values set for option Trusted regarding source " + where);
        error.add_followup("The list of sources could not be read.");
        throw error;
    }
}

}  // namespace

std::vector<SourceEntry> read_sources(const config::Config& config, Diagnostics& diags, SnapshotUse snapshots) {
    std::vector<SourceEntry> out;
    for (const std::string& path : find_source_files(config, diags).all_in_order) {
        std::vector<SourceEntry> entries;
        try {
            entries = read_source_file(path);
        } catch (Error& e) {
            e.add_followup("The list of sources could not be read.");
            throw;
        }
        out.insert(out.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    }
    check_one_signed_by(out);
    check_one_trusted(out);
    // A flat repository per architecture ("deb URI unstable/binary-$(ARCH)/"):
    // apt puts the native architecture in, as it reads the entry.
    const std::string arch = config.find("APT::Architecture");
    for (SourceEntry& e : out)
        if (e.is_flat())
            for (size_t at; (at = e.suite.find("$(ARCH)")) != std::string::npos;) e.suite.replace(at, 7, arch);
    apply_snapshots(config, out, snapshots);
    return out;
}

}  // namespace aptus::sources
