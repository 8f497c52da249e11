// apt's rules for turning Dir:: keys into paths.
#include <string>

#include "aptus/config/config.hpp"

namespace aptus::config {
namespace {

bool stops_climb(const std::string& v) {
    if (!v.empty() && v[0] == '/') return true;
    if (v.size() >= 2 && (v[0] == '~' || v[0] == '.') && v[1] == '/') return true;
    return v.size() >= 3 && v[0] == '.' && v[1] == '.' && v[2] == '/';
}

// Collapse "//" and "/./" the way apt normalises its paths; ".." stays, since
// resolving it would need the file system.
std::string normalize(const std::string& path) {
    std::string out;
    out.reserve(path.size());
    for (size_t i = 0; i < path.size(); ++i) {
        char c = path[i];
        if (c == '/' && !out.empty() && out.back() == '/') continue;
        if (c == '.' && !out.empty() && out.back() == '/' && i + 1 < path.size() && path[i + 1] == '/') {
            ++i;  // skip "./" after a slash
            continue;
        }
        out += c;
    }
    return out;
}

}  // namespace

std::string Config::find_file(std::string_view key, std::string_view fallback) const {
    std::string result = find("RootDir");
    if (!result.empty() && result.back() != '/') result += '/';

    uint32_t id = lookup(key);
    if (id == npos || nodes_[id].value.empty()) {
        result += fallback;
        return result;
    }
    std::string val = nodes_[id].value;
    while (nodes_[id].parent != npos) {
        const Node& parent = nodes_[nodes_[id].parent];
        if (parent.value.empty()) {
            // An empty parent (Dir::Bin "") is transparent: climb past it.
            id = nodes_[id].parent;
            continue;
        }
        if (!val.empty() && val[0] == '/') {
            // Anything below /dev/null is /dev/null: it disables the path.
            if (val.compare(0, 9, "/dev/null") == 0) val.erase(9);
            break;
        }
        if (stops_climb(val)) break;
        if (parent.value.back() != '/') val.insert(0, "/");
        val.insert(0, parent.value);
        id = nodes_[id].parent;
    }
    result += val;
    return normalize(result);
}

std::string Config::find_dir(std::string_view key, std::string_view fallback) const {
    std::string res = find_file(key, fallback);
    if (res.empty() || res.back() != '/') {
        if (res.size() >= 9 && res.compare(res.size() - 9, 9, "/dev/null") == 0) return res;
        res += '/';
    }
    return res;
}

}  // namespace aptus::config
