#include "aptus/system/volatile_sources.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <mutex>

#include "aptus/acquire/transfer_sink.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/deb_file.hpp"
#include "aptus/deb/tagfile.hpp"

namespace aptus::system {
namespace {

enum class VolatileKind { Deb, Packages, Sources };

std::optional<VolatileKind> kind_of_path(const std::string& path) {
    if (!path_exists(path)) return std::nullopt;
    const std::string name = base_name(path);
    const size_t dot = name.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : name.substr(dot + 1);
    if (ext == "deb" || ext == "ddeb") return VolatileKind::Deb;
    if (name.starts_with("Packages")) return VolatileKind::Packages;
    if (name.starts_with("Sources")) return VolatileKind::Sources;
    return std::nullopt;
}

// The path as apt keeps it: absolute, not resolved (a link keeps its name).
std::string absolute_path(std::string_view word) {
    return std::filesystem::absolute(std::filesystem::path(word)).lexically_normal().string();
}

// The generated indices (one Packages stanza per .deb) and the Release that
// names their archive live in one directory for the whole run: the cache
// reads a version's stanza from its index file whenever it is asked.
const std::string& scratch_dir() {
    static std::unique_ptr<ScratchDirectory> dir;
    static std::once_flag once;
    std::call_once(once, [] { dir = std::make_unique<ScratchDirectory>("aptus-volatile"); });
    return dir->path();
}

// Every hash a repository gives, in one pass over the file.
std::string size_and_hashes(const std::string& path) {
    constexpr acquire::HashAlgo algos[] = {acquire::HashAlgo::Md5, acquire::HashAlgo::Sha1,
                                           acquire::HashAlgo::Sha256, acquire::HashAlgo::Sha512};
    constexpr const char* names[] = {"MD5sum", "SHA1", "SHA256", "SHA512"};
    std::vector<std::unique_ptr<acquire::Hasher>> owned;
    std::vector<acquire::Hasher*> hashers;
    for (acquire::HashAlgo a : algos) hashers.push_back(owned.emplace_back(std::make_unique<acquire::Hasher>(a)).get());
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw system_error("cannot open", path, errno);
    const std::optional<uint64_t> size = acquire::hash_descriptor(fd, hashers);
    const int err = errno;
    ::close(fd);
    if (!size) throw system_error("cannot read", path, err);
    std::string out = "\nSize: " + std::to_string(*size);
    for (size_t i = 0; i < hashers.size(); ++i) out += std::string("\n") + names[i] + ": " + hashers[i]->hex();
    return out;
}

// The .deb's control file as a Packages stanza, with what a repository
// adds: where the file is (beside the index's base) and its size and hashes.
std::string deb_stanza(const std::string& path) {
    std::string control;
    try {
        control = deb::read_deb_control(path);
    } catch (const Error& e) {
        Error out(e.what());
        for (const std::string& more : e.followed_by()) out.add_followup(more);
        out.add_followup("Could not read meta data from " + path);
        out.add_followup("The package lists or status file could not be parsed or opened.");
        throw out;
    }
    // Blank lines before or after the fields (dpkg-deb keeps what it was
    // given) would end the stanza early or start an empty one.
    std::string_view text = control;
    while (!text.empty() && (text.front() == '\n' || text.front() == '\r')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
    std::string stanza(text);
    stanza += "\nFilename: " + base_name(path);
    stanza += size_and_hashes(path);
    stanza += "\n";
    return stanza;
}

}  // namespace

PathWord split_path_word(std::string_view word) {
    const std::string whole(word);
    if (path_exists(whole)) return {whole, ""};
    const size_t slash = whole.rfind('/');
    if (slash == std::string::npos || slash == 0) return {whole, ""};
    const std::string file = whole.substr(0, slash);
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {whole, ""};
    return {file, whole.substr(slash + 1)};
}

bool is_path_word(std::string_view w) {
    return w.starts_with('/') || w == "." || w == ".." || w.starts_with("./") || w.starts_with("../");
}

void add_path_words(config::Config& config, std::span<const std::string> words) {
    for (const std::string& w : words) {
        if (!is_path_word(w)) continue;
        const std::string path = split_path_word(w).path;
        auto kind = kind_of_path(path);
        if (!kind || *kind == VolatileKind::Sources)
            throw Error("Unsupported file " + w + " given on commandline");
        config.set("APT::Sources::With::", path);
    }
}

VolatileInputs volatile_inputs(const config::Config& config, uint32_t release_base) {
    VolatileInputs out;
    uint32_t local_deb_release = cache::kNone;
    size_t count = 0;
    std::vector<std::string> seen;  // a file named twice (a word and --with-source) is read once
    for (const std::string& given : config.find_list("APT::Sources::With")) {
        auto kind = kind_of_path(given);
        if (!kind) throw Error("Unsupported file " + given + " given on commandline");
        const std::string path = absolute_path(given);
        if (std::find(seen.begin(), seen.end(), path) != seen.end()) continue;
        seen.push_back(path);
        cache::IndexInput in;
        in.kind = *kind == VolatileKind::Sources ? cache::IndexKind::Sources : cache::IndexKind::Packages;
        in.description = path;
        in.trusted = true;  // the user's own file, as apt trusts it
        in.from_command_line = true;
        if (*kind == VolatileKind::Deb) {
            // Each .deb is an index of one stanza in the archive "local-deb"
            // (what apt's Inst lines and list show for it).
            if (local_deb_release == cache::kNone) {
                const std::string release = scratch_dir() + "/local-deb.Release";
                write_file_atomic(release, "Suite: local-deb\n");
                local_deb_release = release_base + uint32_t(out.releases.size());
                out.releases.push_back({release});
            }
            in.path = scratch_dir() + "/" + std::to_string(count++) + "_Packages";
            write_file_atomic(in.path, deb_stanza(path));
            in.release = local_deb_release;
            in.component = "local-deb";
        } else {
            in.path = path;
        }
        out.indices.push_back(std::move(in));
    }
    return out;
}

const cache::Version* volatile_version(const cache::Cache& cache, std::string_view word) {
    const std::string path = absolute_path(split_path_word(word).path);
    uint32_t index = cache::kNone;
    const auto& files = cache.index_files();
    for (uint32_t i = 0; i < files.size(); ++i)
        if ((files[i].flags & cache::kIndexFromCommandLine) && cache.str(files[i].description) == path) index = i;
    if (index == cache::kNone) return nullptr;
    for (const cache::Package& p : cache.packages())
        for (const cache::Version& v : cache.versions_of(p))
            for (const cache::VersionFile& vf : cache.files_of(v))
                if (vf.index_file == index) return &v;
    return nullptr;
}

bool differs_from_installed(const cache::Cache& cache, const cache::Version& v) {
    std::optional<std::string_view> given, installed;
    for (const cache::VersionFile& vf : cache.files_of(v)) {
        const cache::IndexFile& f = cache.index_files()[vf.index_file];
        if (f.kind == cache::IndexKind::Status) installed = cache.stanza(vf);
        else if (f.flags & cache::kIndexFromCommandLine) given = cache.stanza(vf);
    }
    if (!given || !installed) return false;
    // The fields apt's version hash covers, without their whitespace.
    auto read = [](std::string_view text) {
        deb::TagFileReader reader(text, "", deb::TagFileOptions{.skip_malformed = true});
        deb::Stanza stanza;
        reader.next(stanza);
        std::vector<std::string> out;
        for (const char* field : {"Installed-Size", "Depends", "Pre-Depends", "Suggests", "Recommends", "Conflicts",
                                  "Breaks", "Replaces"}) {
            std::string value;
            for (char c : stanza.value_or_empty(field))
                if (!is_space(c)) value += c;
            out.push_back(std::move(value));
        }
        return out;
    };
    return read(*given) != read(*installed);
}

std::string volatile_base_uri(const cache::Cache& cache, const cache::IndexFile& file) {
    if (!(file.flags & cache::kIndexFromCommandLine)) return "";
    std::string dir = parent_dir(std::string(cache.str(file.description)));
    if (!dir.ends_with('/')) dir += '/';
    return "file:" + dir;
}

}  // namespace aptus::system
