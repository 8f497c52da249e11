// Which source package `apt-get source` fetches for a word, and its files:
// the word is "name", "name=version" or "name/release". As apt: a binary
// package of the name (unless only sources are wanted) gives its source:
// the Source field of its version of that number, else of the release
// (the word's, else APT::Default-Release, apt's -t), else of its candidate.
// Otherwise the source records of the name (or that list it in their
// Binary field), of that version (in any release), else of the release:
// the highest version. Its files come
// from the record (Files and Checksums-*), each with the strongest hash the
// record gives it, under the record's Directory in the repository the
// Sources file came from.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include <utility>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/system/candidates.hpp"

namespace aptus::system {

// The Binary field's names: comma-separated, blanks and line breaks around
// them dropped; empty names skipped (base/strings.hpp's list items).
inline std::vector<std::string_view> binary_names(std::string_view binary_field) { return split_list(binary_field); }

template <class F>
void for_each_binary_name(std::string_view field, F&& f) {
    for_each_list_item(field, std::forward<F>(f));
}

struct SourceFile {
    std::string name;  // "foo_1.0.dsc": a plain file name
    std::string kind;  // apt's word in its Get: line: "dsc", "tar" or "diff"
    uint64_t size = 0;
    acquire::HashAlgo hash = acquire::HashAlgo::None;
    std::string hash_hex;
    std::string uri;        // where it is fetched from
    std::string print_uri;  // the same as apt prints it (--print-uris): the path URI-encoded
};

struct SourceChoice {
    std::string package, version;
    // apt's notes on the choice: "Picking 'src' as source package instead
    // of 'bin'", "Selected version 'V' (release) for src".
    std::vector<std::string> notes;
    // apt's Get: line before the file: "<repo uri> <suite>/<component> <name> <version>".
    std::string label;
    bool trusted = false;  // the Sources file is from an authenticated repository
    std::vector<SourceFile> files;
    std::string record;  // the Sources stanza (Build-Depends and the rest of its fields)
};

struct SourceRequest {
    std::string word;  // as given, for messages
    std::string name, arch, version, release;  // "name[:arch][=version|/release]" taken apart
    bool only_source = false;  // "src:name": the source package of that name
    // The name apt's "Unable to find a source package for X" gives when the
    // version named is not there ("" for the word itself; apt-get source
    // says the bare name there, build-dep the word).
    std::string missing_version_name;
};

// A word of `source` or `build-dep` taken apart: "src:NAME" names the
// source package itself; "name[:arch][=version|/release]" otherwise.
SourceRequest parse_source_request(std::string_view word);

// The record for each request, in their order (the sources and the files'
// facts read once for all); throws aptus::Error with apt's "Unable to find
// a source package for NAME" when there is none, and naming the Sources
// file when its record is unusable (a Directory or file name leaving the
// repository, a file without a size or hash).
// `candidates` gives a binary package's candidate (apt takes its source
// when the word has neither version nor release); without them the
// highest source version is taken.
std::vector<SourceChoice> choose_sources(const cache::Cache& cache, const config::Config& config,
                                         std::span<const SourceRequest> requests, bool only_source,
                                         const Candidates* candidates = nullptr);

}  // namespace aptus::system
