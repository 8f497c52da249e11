#include "aptus/config/config.hpp"

#include "aptus/base/strings.hpp"
#include "aptus/config/values.hpp"

namespace aptus::config {
namespace {

// Calls `segment(name, is_last)` for each "::"-separated part of `key`.
template <typename F>
bool for_each_segment(std::string_view key, F&& segment) {
    size_t start = 0;
    while (true) {
        size_t pos = key.find("::", start);
        bool last = pos == std::string_view::npos;
        std::string_view name = key.substr(start, last ? std::string_view::npos : pos - start);
        if (!segment(name, last)) return false;
        if (last) return true;
        start = pos + 2;
    }
}

}  // namespace

Config::Config() { nodes_.push_back(Node{"", "", npos, {}}); }

uint32_t Config::add_child(uint32_t parent, std::string_view name) {
    auto id = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(Node{std::string(name), "", parent, {}});
    nodes_[parent].children.push_back(id);
    return id;
}

uint32_t Config::lookup(std::string_view key) const {
    uint32_t cur = 0;
    bool found = for_each_segment(key, [&](std::string_view name, bool) {
        // An empty segment names a fresh anonymous item, which never exists yet.
        if (name.empty()) return false;
        for (uint32_t child : nodes_[cur].children) {
            if (iequals(nodes_[child].name, name)) {
                cur = child;
                return true;
            }
        }
        return false;
    });
    return found ? cur : npos;
}

uint32_t Config::lookup_or_create(std::string_view key) {
    uint32_t cur = 0;
    for_each_segment(key, [&](std::string_view name, bool) {
        if (!name.empty()) {
            for (uint32_t child : nodes_[cur].children) {
                if (iequals(nodes_[child].name, name)) {
                    cur = child;
                    return true;
                }
            }
        }
        cur = add_child(cur, name);
        return true;
    });
    return cur;
}

void Config::set(std::string_view key, std::string_view value) { nodes_[lookup_or_create(key)].value = value; }

void Config::set_default(std::string_view key, std::string_view value) {
    if (lookup(key) == npos) set(key, value);
}

void Config::clear(std::string_view key) {
    uint32_t id = lookup(key);
    if (id == npos) return;
    nodes_[id].value.clear();
    nodes_[id].children.clear();
}

bool Config::exists(std::string_view key) const { return lookup(key) != npos; }

std::string Config::find(std::string_view key, std::string_view fallback) const {
    uint32_t id = lookup(key);
    if (id == npos || nodes_[id].value.empty()) return std::string(fallback);
    return nodes_[id].value;
}

bool Config::find_bool(std::string_view key, bool fallback) const {
    uint32_t id = lookup(key);
    if (id == npos) return fallback;
    return parse_bool(nodes_[id].value).value_or(fallback);
}

long Config::find_int(std::string_view key, long fallback) const {
    uint32_t id = lookup(key);
    if (id == npos) return fallback;
    return parse_int(nodes_[id].value).value_or(fallback);
}

std::vector<std::string> Config::find_list(std::string_view key) const {
    std::vector<std::string> out;
    uint32_t id = lookup(key);
    if (id == npos) return out;
    const Node& node = nodes_[id];
    if (node.children.empty()) {
        // A plain value may hold a comma-separated list, as apt's FindVector allows.
        std::string_view rest = node.value;
        while (!rest.empty()) {
            size_t comma = rest.find(',');
            out.emplace_back(rest.substr(0, comma));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
        return out;
    }
    for (uint32_t child : node.children) out.push_back(nodes_[child].value);
    return out;
}

std::vector<std::pair<std::string, std::string>> Config::children(std::string_view key) const {
    std::vector<std::pair<std::string, std::string>> out;
    uint32_t id = key.empty() ? 0 : lookup(key);
    if (id == npos) return out;
    for (uint32_t child : nodes_[id].children) out.emplace_back(nodes_[child].name, nodes_[child].value);
    return out;
}

void Config::for_each(const std::function<void(const Entry&)>& visit) const {
    std::string full;
    // Iterative pre-order walk; the stack holds (node, length of `full` before it).
    std::vector<std::pair<uint32_t, size_t>> stack;
    for (auto it = nodes_[0].children.rbegin(); it != nodes_[0].children.rend(); ++it) stack.emplace_back(*it, 0);
    while (!stack.empty()) {
        auto [id, prefix_len] = stack.back();
        stack.pop_back();
        const Node& node = nodes_[id];
        full.resize(prefix_len);
        if (node.parent != 0) full += "::";
        full += node.name;
        visit(Entry{full, node.name, node.value});
        size_t len = full.size();
        for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.emplace_back(*it, len);
    }
}

}  // namespace aptus::config
