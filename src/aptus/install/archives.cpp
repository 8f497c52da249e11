#include "aptus/install/archives.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/acquire/print_uris.hpp"
#include "aptus/acquire/repository_path.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/source_list.hpp"
#include "aptus/system/authentication.hpp"
#include "aptus/system/volatile_sources.hpp"

namespace aptus::install {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

struct HashField {
    const char* name;
    acquire::HashAlgo algo;
};
// The strongest first, as apt prefers them.
constexpr HashField hash_fields[] = {{"SHA512", acquire::HashAlgo::Sha512},
                                     {"SHA256", acquire::HashAlgo::Sha256},
                                     {"SHA1", acquire::HashAlgo::Sha1},
                                     {"MD5sum", acquire::HashAlgo::Md5}};

}  // namespace

std::vector<acquire::ArchiveItem> archive_items(const config::Config& config, const cache::Cache& cache,
                                                const std::vector<const cache::Version*>& versions,
                                                bool to_download) {
    Diagnostics ignored;  // reported when the cache was opened
    std::vector<sources::IndexTarget> targets =
        sources::index_targets(sources::read_sources(config, ignored), config, ignored);
    std::map<uint32_t, const sources::IndexTarget*> by_file;
    auto lookup = [&](uint32_t index_file) {
        auto [it, fresh] = by_file.try_emplace(index_file, nullptr);
        if (fresh) {
            const cache::IndexFile& f = cache.index_files()[index_file];
            if (f.kind == cache::IndexKind::Packages) it->second = sources::target_of_list_file(targets, cache.str(f.path));
        }
        return it->second;
    };

    std::vector<acquire::ArchiveItem> items;
    for (const cache::Version* v : versions) {
        const cache::Package& p = cache.package_of(*v);
        const std::string name(cache.name_of(p));
        const std::string version(cache.str(v->version));
        const std::string arch(cache.str(v->architecture));
        const cache::VersionFile* from = nullptr;
        const sources::IndexTarget* target = nullptr;
        std::string given_base;  // a file given on the command line: where its files lie
        for (const auto& vf : cache.files_of(*v)) {
            given_base = system::volatile_base_uri(cache, cache.index_files()[vf.index_file]);
            if (!given_base.empty() || (target = lookup(vf.index_file))) {
                from = &vf;
                break;
            }
        }
        if (!from)
            throw Error("Can't find a source to download version '" + version + "' of '" + name + ":" +
                        std::string(cache.str(p.architecture)) + "'");
        std::string_view text = cache.stanza(*from);
        deb::TagFileReader reader(text, std::string(cache.str(cache.index_files()[from->index_file].path)),
                                  deb::TagFileOptions{.skip_malformed = true});
        deb::Stanza stanza;
        if (!reader.next(stanza)) throw Error("The record of " + name + " " + version + " could not be read");
        std::string_view filename = stanza.value_or_empty("Filename");
        if (filename.empty())
            throw Error("I wasn't able to locate a file for the " + name +
                        " package. This might mean you need to manually fix this package.");
        if (!acquire::is_repository_path(filename))
            throw Error("The package index files are corrupted. The Filename: field of package " + name + " " +
                        version + " in " + std::string(cache.str(cache.index_files()[from->index_file].path)) +
                        " names a file outside the repository: '" + std::string(filename) + "'");
        acquire::ArchiveItem item;
        item.package = name;
        item.architecture = arch;
        item.version = version;
        std::string repo = target ? target->option("Repo-URI") : given_base;
        if (!repo.empty() && repo.back() != '/') repo += '/';
        // A local path is read back from the URI with its %-escapes undone:
        // a '%' in the name ("foo_1%3a2_all.deb") is the file's own.
        std::string local_name;
        for (char ch : filename) local_name += ch == '%' ? std::string("%25") : std::string(1, ch);
        item.uri = repo + (starts_with(repo, "http:") || starts_with(repo, "https:") ? acquire::http_quoted_path(filename)
                                                                                      : local_name);
        item.print_uri = repo + acquire::uri_encode_path(filename);
        item.file_name = acquire::archive_file_name(name, version, arch);
        std::string_view size = stanza.value_or_empty("Size");
        try {
            item.size = std::stoull(std::string(size));
        } catch (const std::exception&) {
            throw Error("The record of " + name + " " + version + " has no valid Size");
        }
        for (const HashField& h : hash_fields) {
            if (auto value = stanza.get(h.name); value && !value->empty()) {
                item.hash = h.algo;
                item.hash_hex = std::string(*value);
                break;
            }
        }
        // As apt: nothing an authenticated repository lists is downloaded on
        // the word of an MD5sum or SHA1 alone (or of no hash at all).
        if (to_download &&
            (item.hash == acquire::HashAlgo::None || item.hash == acquire::HashAlgo::Md5 ||
             item.hash == acquire::HashAlgo::Sha1) &&
            system::is_authenticated(cache, *v))
            throw Error("Insufficient information available to perform this download securely");
        item.md5_hex = std::string(stanza.value_or_empty("MD5sum"));
        if (!target) {
            item.label = std::string(cache.str(cache.index_files()[from->index_file].description)) + " " + name +
                         " " + arch + " " + version;
            items.push_back(std::move(item));
            continue;
        }
        // "http://host/debian bookworm/main amd64 Packages" -> apt's archive label.
        std::string label = target->description;
        if (size_t sp = label.rfind(' '); sp != std::string::npos) label.resize(sp);
        // A flat repository's suite ends in '/' ("/" alone is kept as ""):
        // apt's label has no architecture then.
        const std::string suite = target->option("Release");
        const bool flat = suite.empty() || suite.back() == '/';
        item.label = label + " " + name + " " + (flat ? "" : arch + " ") + version;
        items.push_back(std::move(item));
    }
    return items;
}

acquire::ArchivesOutcome fetch_items(const config::Config& config, const std::vector<acquire::ArchiveItem>& items,
                                     const std::string& directory, acquire::ArchivesMode mode,
                                     const DownloadObserver& observer) {
    const acquire::FetchOptions options = acquire::fetch_options(config);
    if (!options.sandbox_warning.empty() && observer.diagnostic)
        observer.diagnostic({Level::Warning, options.sandbox_warning});
    // A local file the sandbox user cannot read is read as root (the
    // downloader's parent reads local files), and apt says so once.
    if (options.sandbox && observer.diagnostic)
        for (const acquire::ArchiveItem& item : items) {
            if (!acquire::is_local_uri(item.uri)) continue;
            const std::string path = acquire::local_path(item.uri);
            if (!path_exists(path) || acquire::readable_by(path, options.sandbox->uid, options.sandbox->gid)) continue;
            observer.diagnostic({Level::Notice, "Download is performed unsandboxed as root as file '" + path +
                                                    "' couldn't be accessed by user '" + options.sandbox->name +
                                                    "'. - pkgAcquire::Run (13: Permission denied)"});
            break;
        }
    acquire::ArchivesOutcome out = acquire::fetch_archives(items, directory, options, observer.transfers, mode);
    // What a local repository hands over is not fetched (apt: no "Fetched"
    // line for a file: archive; "Need to get 0 B/..." said so before).
    uint64_t good = 0;
    for (size_t i = 0; i < out.results.size(); ++i)
        if (out.results[i].status == acquire::ArchiveResult::Status::Fetched && !acquire::is_local_uri(items[i].uri))
            good += out.results[i].bytes;
    if (observer.finished) observer.finished(good, out.seconds);
    if (observer.failed)
        for (const auto& r : out.results)
            if (r.status == acquire::ArchiveResult::Status::Failed) observer.failed(r.error);
    return out;
}

std::vector<std::string> download_archives(const config::Config& config, const cache::Cache& cache,
                                           const std::vector<const cache::Version*>& versions,
                                           const std::string& directory, const DownloadObserver& observer) {
    create_apt_directory(config.find_dir("Dir::Cache"), directory);
    acquire::ArchivesOutcome out =
        fetch_items(config, archive_items(config, cache, versions), directory, acquire::ArchivesMode::Archives, observer);
    if (out.failed) {
        // A file that is not what the signed index announced is a
        // verification failure; anything else the network's.
        const bool tampered = std::any_of(out.results.begin(), out.results.end(),
                                          [](const acquire::ArchiveResult& r) { return r.verification; });
        throw Error("Unable to fetch some archives: the package lists may be out of date (update them), or try with "
                    "--fix-missing",
                    tampered ? ErrorKind::Verification : ErrorKind::Network)
            .set_apt_text("Unable to fetch some archives, maybe run apt-get update or try with --fix-missing?");
    }
    std::vector<std::string> paths;
    paths.reserve(out.results.size());
    for (const auto& r : out.results) paths.push_back(r.path);
    return paths;
}

std::optional<ArchiveBytes> archive_bytes(const config::Config& config, const cache::Cache& cache,
                                          const std::vector<const cache::Version*>& versions,
                                          const std::string& directory) {
    std::vector<acquire::ArchiveItem> items;
    try {
        items = archive_items(config, cache, versions, false);
    } catch (const Error&) {
        return std::nullopt;
    }
    ArchiveBytes bytes;
    for (const auto& item : items) {
        bytes.total += item.size;
        if (acquire::is_local_uri(item.uri)) continue;
        struct stat st {};
        if (::stat((directory + item.file_name).c_str(), &st) == 0 && uint64_t(st.st_size) == item.size) continue;
        bytes.to_fetch += item.size;
    }
    return bytes;
}

}  // namespace aptus::install
