// The configuration tree apt.conf describes: a tree of named nodes, each with
// a string value. Keys are "::"-separated paths compared without regard to
// case; a node keeps the spelling it was first created with, and children keep
// their insertion order, because `config dump` prints both exactly as apt does.
// An empty segment ("A::") means "a new anonymous child": that is how lists
// are written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::config {

class Config {
public:
    Config();

    // Set a value, creating the path; "A::" appends a new list item.
    void set(std::string_view key, std::string_view value);
    // Set only if the key does not exist yet (apt's CndSet).
    void set_default(std::string_view key, std::string_view value);
    // Drop the value and all children of `key`; the node itself keeps its place.
    void clear(std::string_view key);
    bool exists(std::string_view key) const;

    std::string find(std::string_view key, std::string_view fallback = "") const;
    // apt's boolean spellings (yes/no, true/false, on/off, with/without,
    // enable/disable, integers); anything else, or a missing key, is `fallback`.
    bool find_bool(std::string_view key, bool fallback = false) const;
    // An integer in C notation (base prefix allowed); `fallback` if none.
    long find_int(std::string_view key, long fallback = 0) const;
    // The values of the children; a childless value is split at commas.
    std::vector<std::string> find_list(std::string_view key) const;

    // A path from a key under Dir:: (or any tree): a relative value is taken
    // under its parent's value, recursively; an absolute, "./", "~/" or "../"
    // value stops the climb. RootDir, if set, prefixes the result.
    std::string find_file(std::string_view key, std::string_view fallback = "") const;
    // As find_file, with a trailing '/' (except for /dev/null).
    std::string find_dir(std::string_view key, std::string_view fallback = "") const;

    // Pre-order walk of every node below the root, as `dump` prints them.
    struct Entry {
        std::string_view full_name;  // "A::B::C" ("A::" for an anonymous child of A)
        std::string_view name;       // "C"
        std::string_view value;
    };
    void for_each(const std::function<void(const Entry&)>& visit) const;
    // The direct children of `key` as (name, value) in order; empty if missing.
    std::vector<std::pair<std::string, std::string>> children(std::string_view key) const;

private:
    struct Node {
        std::string name;
        std::string value;
        uint32_t parent;
        std::vector<uint32_t> children;
    };
    static constexpr uint32_t npos = UINT32_MAX;

    uint32_t lookup(std::string_view key) const;
    uint32_t lookup_or_create(std::string_view key);
    uint32_t add_child(uint32_t parent, std::string_view name);

    std::vector<Node> nodes_;  // nodes_[0] is the unnamed root; cleared nodes stay, detached
};

}  // namespace aptus::config
