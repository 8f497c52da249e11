// extended_states as apt's depcache writes it: a rewrite of every stanza,
// then the new automatic packages appended.
#include "aptus/system/auto_marks.hpp"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/deb/tagfile_writer.hpp"

namespace aptus::system {
namespace {

std::string key_of(std::string_view name, std::string_view arch) {
    std::string k(name);
    k += ':';
    k += arch;
    return k;
}

std::string_view resolve_arch(std::string_view arch, std::string_view native) {
    return arch.empty() || arch == "all" ? native : arch;
}

// dpkg's status words "install ok installed": a package is on the system
// (apt's CurrentVer) in every state but not-installed and config-files.
bool installed_state(std::string_view status) {
    auto words = split_words(status);
    if (words.size() != 3) return false;
    return words[2] != "not-installed" && words[2] != "config-files";
}

std::unordered_set<std::string> installed_packages(const config::Config& config, std::string_view native) {
    std::unordered_set<std::string> out;
    std::string path = config.find_file("Dir::State::status");
    if (path.empty() || !path_exists(path)) return out;
    std::string text = read_file(path);
    // Damage is the cache build's to warn about: its readable stanzas count.
    deb::TagFileReader reader(text, path, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza s;
    while (reader.next(s)) {
        std::string_view name = s.value_or_empty("Package");
        if (name.empty() || !installed_state(s.value_or_empty("Status"))) continue;
        out.insert(key_of(name, resolve_arch(s.value_or_empty("Architecture"), native)));
    }
    return out;
}

// apt drops a manual package's stanza when it carries nothing of its own.
bool only_mark_fields(const deb::Stanza& s) {
    size_t n = s.fields.size();
    bool has_auto = s.find("Auto-Installed") != nullptr;
    bool has_arch = s.find("Architecture") != nullptr;
    return n < 2 || (n == 2 && has_auto) || (n == 3 && has_auto && has_arch);
}

// Where the bytes of a damaged extended_states are kept: "<path>.damaged",
// or the first "<path>.damaged.N" that is free or already holds them.
std::string damaged_copy_path(const std::string& path, std::string_view bytes) {
    for (unsigned n = 0;; ++n) {
        std::string copy = path + ".damaged";
        if (n > 0) copy += "." + std::to_string(n);
        if (!path_exists(copy) || n >= 1000) return copy;
        try {
            if (read_file(copy) == bytes) return copy;
        } catch (const Error&) {
        }
    }
}

}  // namespace

std::string extended_states_path(const config::Config& config) {
    return config.find_file("Dir::State::extended_states");
}

void write_auto_marks(const config::Config& config, const std::vector<AutoMark>& marks, Diagnostics& diags) {
    const std::string path = extended_states_path(config);
    if (path.empty()) throw Error("Dir::State::extended_states is not set");
    const std::string native = config.find("APT::Architecture");
    std::unordered_set<std::string> installed = installed_packages(config, native);

    std::unordered_map<std::string, bool> wanted;
    for (const AutoMark& m : marks) {
        std::string key = key_of(m.package, resolve_arch(m.architecture, native));
        if (m.installing) installed.insert(key);
        wanted[key] = m.automatic;
    }

    const bool exists = path_exists(path);
    const std::string old = exists ? read_file(path) : std::string();
    deb::TagFileWriter writer;
    std::unordered_set<std::string> seen;
    deb::TagFileReader reader(old, path, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza s;
    while (reader.next(s)) {
        std::string_view name = s.value_or_empty("Package");
        if (name.empty()) continue;
        std::string_view arch = resolve_arch(s.value_or_empty("Architecture"), native);
        std::string key = key_of(name, arch);
        bool automatic = trim(s.value_or_empty("Auto-Installed")) == "1";
        if (auto it = wanted.find(key); it != wanted.end()) automatic = it->second;
        if (!installed.count(key)) automatic = false;
        if (!automatic && only_mark_fields(s)) continue;
        deb::StanzaEdits edits;
        edits.set("Architecture", arch).set("Auto-Installed", automatic ? "1" : "0");
        writer.write_stanza(s, edits);
        seen.insert(std::move(key));
    }
    for (const AutoMark& m : marks) {
        std::string_view arch = resolve_arch(m.architecture, native);
        std::string key = key_of(m.package, arch);
        if (!m.automatic || seen.count(key) || !installed.count(key) || !wanted[key]) continue;
        writer.write_stanza({{"Package", m.package}, {"Architecture", arch}, {"Auto-Installed", "1"}});
        seen.insert(std::move(key));
    }
    if (exists && writer.str() == old) return;
    if (reader.problem_count() != 0) {
        // What could not be read cannot be rewritten: its bytes are kept
        // before the file is replaced.
        {
            std::string copy = damaged_copy_path(path, old);
            if (!path_exists(copy)) write_file_atomic(copy, old, 0644);
            const deb::TagFileProblem& first = reader.problems().front();
            diags.push_back({Level::Warning, path + ":" + std::to_string(first.line) + ": " + first.what +
                                                 " (" + std::to_string(reader.problem_count()) +
                                                 " damaged in all); the file is rewritten with the stanzas "
                                                 "that could be read, and kept as it was in " + copy});
        }
    }
    // A root that never had apt's state directory gets it, as apt makes it.
    create_apt_directory(config.find_dir("Dir::State"), parent_dir(path));
    write_file_atomic(path, writer.str(), 0644);
}

}  // namespace aptus::system
