// apt's search patterns (apt-patterns(7), APT 2.0+) as package words:
// `?installed`, `~i !~M (~slibs|~sperl)`, `?any-version(?archive(now))`.
//
// A pattern is parsed once into a tree and then asked about packages of the
// binary cache, as apt asks: at the package level (list, install, remove)
// a version pattern such as ?version(RE) holds when any version of the
// package matches, unless ?any-version / ?all-versions / ?narrow bind the
// question to one version. Errors are apt's, word for word, with the span
// of the input they are about ("input:0-4: error: Unrecognized pattern
// '?foo'" and the input underlined).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::request {

// What apt's install-like commands read as a pattern: a word that starts
// with '?' or '~'. (`list` reads any word holding one of "?~[" as one.)
bool is_pattern_word(std::string_view word);

// What a pattern is matched against. `garbage` (system::auto_removable_packages,
// ascending) is needed only when the pattern uses ?garbage (uses_garbage()).
struct PatternContext {
    const cache::Cache& cache;
    const system::Candidates& candidates;
    const std::vector<uint32_t>* garbage = nullptr;
};

class PackagePattern {
public:
    // Throws aptus::Error with apt's message for a syntax error, an unknown
    // or misused pattern, and a bad regular expression.
    static PackagePattern parse(std::string_view text);

    bool matches(const PatternContext& ctx, const cache::Package& p) const;
    bool matches(const PatternContext& ctx, const cache::Version& v) const;
    bool uses_garbage() const;

    // The tree in long forms, every argument list written out:
    // "~i !~M" is "?and(?installed,?not(?automatic))". For tests and debugging.
    std::string render() const;

    struct Node;

private:
    std::shared_ptr<const Node> root_;
};

// One package a pattern selected. apt has a (virtual) package for every
// name a relation or a Provides mentions; aptus's cache has only the name:
// `package` is then nullptr, and the name stands for the native package.
struct PatternMatch {
    const cache::Package* package;
    uint32_t name;  // index into cache.names()
};

// Every package the pattern selects, virtual ones included as apt includes
// them, in name order (apt reports them in its hash table's order, which
// aptus does not reproduce for these).
std::vector<PatternMatch> packages_matching(const PatternContext& ctx, const PackagePattern& pattern);

// The words with each pattern word (is_pattern_word) replaced by the names
// of the packages it selects ("name", "name:arch" for a foreign one), for
// commands that read plain names. Throws aptus::Error for a bad pattern.
std::vector<std::string> expand_pattern_words(const PatternContext& ctx, const std::vector<std::string>& words);

}  // namespace aptus::request
