#include "aptus/acquire/lists_clean.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <string_view>

namespace aptus::acquire {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool kept(std::string_view name) {
    return name == "lock" || ends_with(name, "Release") || ends_with(name, "Release.gpg");
}

}  // namespace

std::vector<std::string> distclean_list_files(const std::string& lists_dir) {
    std::vector<std::string> out;
    DIR* d = ::opendir(lists_dir.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        std::string_view name = e->d_name;
        if (name == "." || name == ".." || kept(name)) continue;
        struct stat st {};
        if (::lstat((lists_dir + "/" + std::string(name)).c_str(), &st) != 0 || S_ISDIR(st.st_mode)) continue;
        out.emplace_back(name);
    }
    ::closedir(d);
    return out;
}

}  // namespace aptus::acquire
