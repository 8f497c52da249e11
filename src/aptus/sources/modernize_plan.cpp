// Planning modernize-sources: which files, which stanzas go where. Reads
// only; commit_modernize writes.
#include <sys/stat.h>

#include <cerrno>
#include <algorithm>
#include <map>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/sources/modernize.hpp"
#include "aptus/sources/source_list.hpp"
#include "modernize_detail.hpp"

namespace aptus::sources {
namespace {

bool is_trusted(const detail::StanzaDraft& d) {
    for (const auto& o : d.options)
        if (o.key == "trusted" && o.op == SourceOption::Op::Set && o.values.size() == 1 && iequals(o.values[0], "yes"))
            return true;
    return false;
}

// Options apt's deb822 parser has no field for (checked against apt 2.6):
// written anyway, since sources.list(5) documents the fields, but the user
// must know that apt drops them.
bool one_line_only(std::string_view key) {
    return key == "allow-insecure" || key == "allow-weak" || key == "allow-downgrade-to-insecure" ||
           key == "inrelease-path";
}

bool has_own_signed_by(const detail::StanzaDraft& d) {
    for (const auto& o : d.options)
        if (o.key == "signed-by" && o.op == SourceOption::Op::Set) return true;
    return false;
}

// foo.list.bak, or foo.list.1.bak (still ignored silently by apt's "\.bak$"
// rule) when an earlier run left a backup we must not overwrite.
std::string backup_path(const std::string& path) {
    std::string candidate = path + ".bak";
    for (unsigned n = 1; path_exists(candidate); ++n) candidate = path + "." + std::to_string(n) + ".bak";
    return candidate;
}

class Planner {
public:
    Planner(const config::Config& config) : config_(config) {
        main_ = config.find_file("Dir::Etc::sourcelist");
        parts_ = config.find_dir("Dir::Etc::sourceparts");
    }
    // Reads every input before any is planned: a signed-by on one line holds
    // for the whole (URI, suite) in apt, wherever the other lines are.
    void read(const std::string& path);
    // Entries already in .sources files: their signed-by holds for the
    // release too, and the new stanzas must agree with it.
    void learn_signed_by(const std::vector<SourceEntry>& entries);
    ModernizePlan plan() {
        for (const ParsedFile& f : files_) add_input(f);
        return std::move(plan_);
    }

private:
    struct ParsedFile {
        std::string path;
        detail::ListFile list;
        std::vector<detail::StanzaDraft> drafts;
    };
    void add_input(const ParsedFile& file);
    std::optional<std::string> signed_by_for(const detail::StanzaDraft& d, const std::optional<std::string>& origin,
                                             const std::string& path);
    ModernizeOutput& output(const std::string& path, ModernizeInput& input);
    void append_block(ModernizeOutput& out, const std::string& block) {
        if (!out.added.empty()) out.added += '\n';
        out.added += block;
    }

    const config::Config& config_;
    std::string main_, parts_;
    ModernizePlan plan_;
    std::map<std::string, size_t> outputs_;
    std::vector<ParsedFile> files_;
    std::map<std::string, std::string> own_signed_by_;                    // by release
    std::map<std::string, std::optional<std::string>> derived_signed_by_;  // by release
};

std::string release_key(const std::string& uri, const std::string& suite) {
    return (uri.empty() || uri.back() == '/' ? uri : uri + '/') + '\n' + suite;
}
std::string release_key(const detail::StanzaDraft& d) { return release_key(d.uri, d.suite); }

void Planner::learn_signed_by(const std::vector<SourceEntry>& entries) {
    for (const SourceEntry& e : entries) {
        const SourceOption* o = e.option("signed-by");
        if (!e.enabled || !o || o->op != SourceOption::Op::Set) continue;
        std::string value;
        for (const auto& v : o->values) value += (value.empty() ? "" : ",") + v;
        own_signed_by_.try_emplace(release_key(e.uri, e.suite), value);
    }
}

void Planner::read(const std::string& path) {
    ParsedFile f{path, detail::read_list_file(read_file(path), path), {}};
    f.drafts = detail::fold_lines(f.list.lines);
    for (const auto& d : f.drafts)
        for (const auto& o : d.options)
            if (o.key == "signed-by" && o.op == SourceOption::Op::Set && d.enabled) {
                std::string value;
                for (const auto& v : o.values) value += (value.empty() ? "" : ",") + v;
                own_signed_by_.try_emplace(release_key(d), value);
            }
    files_.push_back(std::move(f));
}

// Lines of one release must agree on Signed-By (apt refuses conflicting
// values), so a release takes its own signed-by from any line, else the
// value derived for the file the line is in.
std::optional<std::string> Planner::signed_by_for(const detail::StanzaDraft& d,
                                                  const std::optional<std::string>& origin, const std::string& path) {
    std::string key = release_key(d);
    if (auto it = own_signed_by_.find(key); it != own_signed_by_.end()) return it->second;
    // Derived per file too: apt takes rocks.list's key from trusted.gpg.d/rocks.gpg,
    // and a line of the same release in sources.list does not get it.
    auto [it, fresh] = derived_signed_by_.try_emplace(key + '\n' + path);
    if (fresh) it->second = detail::derived_signed_by(config_, origin, path);
    return it->second;
}

ModernizeOutput& Planner::output(const std::string& path, ModernizeInput& input) {
    if (std::find(input.outputs.begin(), input.outputs.end(), path) == input.outputs.end())
        input.outputs.push_back(path);
    auto [it, fresh] = outputs_.try_emplace(path, plan_.outputs.size());
    if (fresh) {
        ModernizeOutput out;
        out.path = path;
        struct stat st {};
        if (::lstat(path.c_str(), &st) == 0) {
            if (!S_ISREG(st.st_mode)) throw Error("Cannot write " + path + ": it exists and is not a regular file");
            out.existing = read_file(path);
            out.mode = st.st_mode & 07777;
        } else if (errno != ENOENT) {
            throw system_error("Could not stat", path, errno);
        }
        plan_.outputs.push_back(std::move(out));
    }
    return plan_.outputs[it->second];
}

void Planner::add_input(const ParsedFile& file) {
    const std::string& path = file.path;
    const detail::ListFile& list = file.list;
    ModernizeInput input;
    input.path = path;
    input.backup_path = backup_path(path);
    bool is_main = path == main_;

    std::string last_output;
    for (const detail::StanzaDraft& d : file.drafts) {
        std::optional<std::string> origin = detail::release_origin(config_, d.uri, d.suite);
        std::optional<std::string> signed_by;
        if (!has_own_signed_by(d)) {
            signed_by = signed_by_for(d, origin, path);
            Diagnostic warning{Level::Warning,
                               "Could not determine Signed-By for URIs: " + d.uri + ", Suites: " + d.suite};
            bool said = std::any_of(input.diags.begin(), input.diags.end(),
                                    [&](const Diagnostic& x) { return x.message == warning.message; });
            if (!signed_by && d.enabled && !is_trusted(d) && !said) input.diags.push_back(std::move(warning));
        }
        for (const auto& o : d.options)
            if (d.enabled && one_line_only(o.key))
                input.diags.push_back({Level::Warning, "apt reads " + deb822_field_name(o.key, o.op) +
                                                           " only from one-line entries, not from .sources files: "
                                                           "aptus keeps and honours it for " + d.uri + " " + d.suite +
                                                           ", apt will ignore it"});
        std::string target;
        if (is_main)
            target = parts_ + (origin ? origin_file_stem(*origin) : std::string("moved-from-main")) + ".sources";
        else
            target = path.substr(0, path.size() - 5) + ".sources";
        std::string block = is_main ? "# Modernized from " + path + "\n" : "";
        block += detail::stanza_text(d, signed_by);
        append_block(output(target, input), block);
        last_output = target;
    }
    if (!list.trailing_comments.empty()) {
        if (last_output.empty()) {
            // Nothing to convert: the comments live on in the backup.
            input.diags.push_back({Level::Notice, path + " holds no entries, only comments; they stay in " +
                                                      input.backup_path});
        } else {
            std::string block;
            for (const auto& c : list.trailing_comments) block += c + '\n';
            append_block(output(last_output, input), block);
        }
    }
    plan_.inputs.push_back(std::move(input));
}

}  // namespace

std::string ModernizeOutput::content() const {
    if (!existing || existing->empty()) return added;
    std::string out = *existing;
    if (out.back() != '\n') out += '\n';
    if (!ends_with(out, "\n\n") && out != "\n") out += '\n';
    return out + added;
}

ModernizePlan plan_modernize(const config::Config& config, Diagnostics& diags) {
    Planner planner(config);
    SourceFiles files = find_source_files(config, diags);
    for (const std::string& file : files.sources_files) {
        try {
            planner.learn_signed_by(read_source_file(file));
        } catch (const Error&) {
            // Not ours to judge: apt and `aptus sources` report it.
        }
    }
    for (const std::string& file : files.list_files) planner.read(file);
    return planner.plan();
}

}  // namespace aptus::sources
