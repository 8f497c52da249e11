#include "aptus/cache/inputs.hpp"

#include <sys/stat.h>

namespace aptus::cache {

std::optional<std::string> find_list_file(const std::string& lists_dir, std::string_view base_name) {
    static constexpr std::string_view kSuffixes[] = {"", ".lz4", ".zst", ".gz", ".xz", ".bz2", ".lzma"};
    std::string path = lists_dir;
    if (!path.empty() && path.back() != '/') path.push_back('/');
    path.append(base_name);
    size_t base_len = path.size();
    for (std::string_view suffix : kSuffixes) {
        path.resize(base_len);
        path.append(suffix);
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return path;
    }
    return std::nullopt;
}

std::vector<std::string> find_list_files(const std::string& lists_dir, const std::vector<std::string>& base_names) {
    std::vector<std::string> out;
    for (const std::string& b : base_names)
        if (auto p = find_list_file(lists_dir, b)) out.push_back(std::move(*p));
    return out;
}

}  // namespace aptus::cache
