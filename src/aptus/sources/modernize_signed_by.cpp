// What APT 3.0 knows about a repository without asking the user: the Origin
// of the Release file it already downloaded, and the keyring that goes with it.
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/release_file.hpp"
#include "aptus/sources/modernize.hpp"
#include "modernize_detail.hpp"

#include "aptus/sources/index_targets.hpp"

namespace aptus::sources {
namespace {

std::string with_slash(const std::string& uri) { return uri.empty() || uri.back() == '/' ? uri : uri + '/'; }

}  // namespace

std::string origin_file_stem(std::string_view origin) {
    std::string out;
    for (char c : trim(origin)) {
        if (is_space(c) || c == '/' || std::string_view("\\|{}[]<>\"^~_=!@#$%^&*").find(c) != std::string_view::npos)
            out += '-';
        else
            out += ascii_lower(c);
    }
    return out;
}

namespace detail {

std::optional<std::string> release_origin(const config::Config& config, const std::string& uri,
                                          const std::string& suite) {
    std::string release_uri = with_slash(uri);
    if (!suite.empty() && suite.back() == '/')
        release_uri += suite == "/" ? "" : suite;
    else
        release_uri += "dists/" + suite + "/";
    std::string lists = config.find_dir("Dir::State::lists");
    for (const char* name : {"InRelease", "Release"}) {
        std::string path = lists + uri_to_list_filename(release_uri + name);
        if (!path_exists(path) || is_directory(path)) continue;
        try {
            // Only its Origin is wanted, a hint for a keyring that must exist
            // anyway: an InRelease that is not clearsigned is read as it is,
            // as apt's modernize reads it.
            std::string content = read_file(path);
            std::string origin(trim(content.starts_with("-----BEGIN PGP SIGNED MESSAGE")
                                        ? deb::read_release_file(path).origin
                                        : deb::parse_release(content, path).origin));
            if (!origin.empty()) return origin;
        } catch (const Error&) {
            // A broken or half-downloaded file names no origin; `update` will
            // complain about it, modernize just does without.
        }
    }
    return std::nullopt;
}

std::optional<std::string> derived_signed_by(const config::Config& config, const std::optional<std::string>& origin,
                                             const std::string& list_path) {
    std::string stem = base_name(list_path);
    if (ends_with(stem, ".list")) stem.resize(stem.size() - 5);
    std::string trusted = config.find_dir("Dir::Etc::trustedparts");
    for (const char* ext : {".asc", ".gpg"}) {
        std::string key = trusted + stem + ext;
        if (path_exists(key) && !is_directory(key)) return key;
    }
    if (origin) {
        std::string name;
        for (char c : trim(*origin)) name += is_blank(c) ? '-' : ascii_lower(c);
        std::string keyring = config.find_dir("Dir", "/") + "usr/share/keyrings/" + name + "-archive-keyring.gpg";
        if (path_exists(keyring) && !is_directory(keyring)) return keyring;
    }
    return std::nullopt;
}

}  // namespace detail
}  // namespace aptus::sources
