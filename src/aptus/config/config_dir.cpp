// Which files of a parts directory (apt.conf.d) are read, following apt's
// rules for names so that the same fragments are read, in the same order,
// with the same notices.
#include <dirent.h>
#include <regex.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/parser.hpp"

namespace aptus::config {
namespace {

bool valid_name_char(char c) { return is_alnum(c) || c == '_' || c == '-' || c == ':' || c == '.'; }

// Dir::Ignore-Files-Silently holds POSIX extended regexes matched against the name.
bool ignored_silently(const Config& config, const std::string& name) {
    for (const std::string& pattern : config.find_list("Dir::Ignore-Files-Silently")) {
        regex_t re;
        if (regcomp(&re, pattern.c_str(), REG_EXTENDED | REG_NOSUB) != 0) continue;
        bool match = regexec(&re, name.c_str(), 0, nullptr, 0) == 0;
        regfree(&re);
        if (match) return true;
    }
    return false;
}

}  // namespace

std::vector<std::string> config_dir_files(const Config& config, const std::string& dir, Diagnostics& diags) {
    return parts_dir_files(config, dir, {"conf"}, true, diags);
}

std::vector<std::string> parts_dir_files(const Config& config, const std::string& dir,
                                         std::initializer_list<std::string_view> extensions, bool allow_no_extension,
                                         Diagnostics& diags) {
    std::unique_ptr<DIR, int (*)(DIR*)> handle(opendir(dir.c_str()), closedir);
    if (!handle) throw system_error("Unable to read directory", dir, errno);
    std::string shown = dir;  // apt names the directory with a trailing slash in its notices
    if (shown.empty() || shown.back() != '/') shown += '/';

    std::vector<std::string> names;
    while (dirent* ent = readdir(handle.get())) {
        std::string name = ent->d_name;
        if (name.empty() || name[0] == '.') continue;
        // Names with other characters (editor backups "foo~", "bad name!") are
        // skipped without a word, as run-parts does.
        if (!std::all_of(name.begin(), name.end(), valid_name_char) || name.back() == '.') continue;

        std::string path = shown + name;
        struct stat st;
        if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
            if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
                diags.push_back({Level::Notice, "Ignoring '" + name + "' in directory '" + shown +
                                                    "' as it is not a regular file"});
            continue;
        }
        size_t dot = name.rfind('.');
        bool accepted = dot == std::string::npos
                            ? allow_no_extension
                            : std::find(extensions.begin(), extensions.end(), std::string_view(name).substr(dot + 1)) !=
                                  extensions.end();
        if (!accepted) {
            if (!ignored_silently(config, name))
                diags.push_back({Level::Notice, "Ignoring file '" + name + "' in directory '" + shown +
                                                    "' as it has an invalid filename extension"});
            continue;
        }
        names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end());
    std::vector<std::string> paths;
    paths.reserve(names.size());
    for (const auto& n : names) paths.push_back(shown + n);
    return paths;
}

}  // namespace aptus::config
