#include "aptus/deb/release_file.hpp"

#include <cstring>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/armor_lines.hpp"
#include "aptus/deb/tagfile.hpp"

namespace aptus::deb {
namespace {

constexpr std::string_view kBeginMessage = "-----BEGIN PGP SIGNED MESSAGE-----";
constexpr std::string_view kBeginSignature = "-----BEGIN PGP SIGNATURE-----";
constexpr std::string_view kEndSignature = "-----END PGP SIGNATURE-----";


bool parse_bool(std::string_view v) { return iequals(trim(v), "yes"); }

std::vector<std::string> words(std::string_view v) {
    std::vector<std::string> out;
    for (std::string_view w : split_words(v)) out.emplace_back(w);
    return out;
}

void parse_hash_list(const Field& f, std::string_view name, std::vector<ReleaseEntry>& out) {
    std::string_view v = f.value;
    unsigned line = f.line;
    size_t pos = 0;
    while (pos <= v.size()) {
        size_t nl = v.find('\n', pos);
        std::string_view l = v.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? v.size() + 1 : nl + 1;
        std::vector<std::string_view> w = split_words(l);
        if (w.empty()) {
            ++line;
            continue;
        }
        if (w.size() != 3)
            throw file_error(name, line, "malformed line in " + std::string(f.name) + ": '" + std::string(trim(l)) + "'");
        ReleaseEntry e;
        e.hash = to_lower(w[0]);
        // apt takes any word as a hash: one that is not hex simply matches no
        // file (a "Hash Sum mismatch" for the index it names). A word with a
        // '/' would be a path in a by-hash URI: that Release is refused.
        // (update builds by-hash URIs from hex hashes only.)
        if (e.hash.find('/') != std::string::npos)
            throw file_error(name, line, "bad hash '" + std::string(w[0]) + "' in " + std::string(f.name));
        uint64_t size = 0;
        if (w[1].empty() || w[1].size() > 19) throw file_error(name, line, "bad size '" + std::string(w[1]) + "'");
        for (char c : w[1]) {
            if (!is_digit(c)) throw file_error(name, line, "bad size '" + std::string(w[1]) + "'");
            size = size * 10 + uint64_t(c - '0');
        }
        e.size = size;
        e.path = std::string(w[2]);
        out.push_back(std::move(e));
        ++line;
    }
}

}  // namespace

const std::vector<ReleaseEntry>& ReleaseFile::entries(ReleaseHash h) const {
    switch (h) {
        case ReleaseHash::Md5: return md5;
        case ReleaseHash::Sha1: return sha1;
        case ReleaseHash::Sha256: return sha256;
        case ReleaseHash::Sha512: break;
    }
    return sha512;
}

const ReleaseEntry* ReleaseFile::find(std::string_view path, ReleaseHash h) const {
    for (const ReleaseEntry& e : entries(h))
        if (e.path == path) return &e;
    return nullptr;
}

std::optional<std::pair<ReleaseHash, const ReleaseEntry*>> ReleaseFile::strongest(std::string_view path) const {
    for (ReleaseHash h : {ReleaseHash::Sha512, ReleaseHash::Sha256, ReleaseHash::Sha1, ReleaseHash::Md5})
        if (const ReleaseEntry* e = find(path, h)) return std::make_pair(h, e);
    return std::nullopt;
}

std::string clearsigned_text(std::string_view content, std::string_view name) {
    ArmorLines lines(content);
    std::string_view line;
    // RFC 4880 7: the message starts with the BEGIN line; text before it would
    // be outside the signature yet look like part of the file, so refuse it.
    if (!lines.next(line) || line != kBeginMessage)
        throw file_error(name, lines.number(), "not a clearsigned message: it must start with " + std::string(kBeginMessage));
    bool any_header = false;
    for (;;) {
        if (!lines.next(line)) throw file_error(name, lines.number(), "clearsigned message ends in its armor headers");
        if (line.empty()) break;
        // Only "Hash:" headers are defined for the cleartext framework.
        if (!starts_with(line, "Hash:"))
            throw file_error(name, lines.number(), "unexpected armor header '" + std::string(line) + "'");
        any_header = true;
    }
    (void)any_header;  // RFC 4880 lets the Hash header default to MD5; the verifier decides.
    std::string text;
    text.reserve(content.size());
    bool signature = false;
    while (lines.next(line)) {
        if (!line.empty() && line[0] == '-') {
            if (line == kBeginSignature) {
                signature = true;
                break;
            }
            if (line.size() >= 2 && line[1] == ' ') {
                line.remove_prefix(2);
            } else {
                throw file_error(name, lines.number(),
                                 line == kBeginMessage ? "a second signed message starts inside the first"
                                                       : "line starting with '-' is not dash-escaped");
            }
        }
        // ArmorLines::next cut trailing whitespace, but inside the text it is part
        // of the data for the Release parser only as far as deb822 cares,
        // which ignores trailing blanks too.
        text.append(line);
        text.push_back('\n');
    }
    if (!signature) throw file_error(name, 0, "clearsigned message has no signature block");
    bool ended = false;
    while (lines.next(line)) {
        if (line == kEndSignature) {
            ended = true;
            break;
        }
        if (line == kBeginMessage || line == kBeginSignature)
            throw file_error(name, lines.number(), "unexpected '" + std::string(line) + "' inside the signature block");
    }
    if (!ended) throw file_error(name, 0, "signature block is not terminated by " + std::string(kEndSignature));
    while (lines.next(line)) {
        if (line == kBeginMessage) throw file_error(name, lines.number(), "a second signed message follows the first");
        if (!line.empty()) throw file_error(name, lines.number(), "text after the signature block");
    }
    return text;
}

ReleaseFile parse_release(std::string_view text, std::string_view name) {
    TagFileReader reader(text, std::string(name));
    Stanza st;
    ReleaseFile r;
    if (!reader.next(st)) throw file_error(name, 0, "empty Release file");
    for (const Field& f : st.fields) {
        std::string_view k = f.name;
        std::string_view v = f.value;
        if (iequals(k, "Origin")) r.origin = v;
        else if (iequals(k, "Label")) r.label = v;
        else if (iequals(k, "Suite")) r.suite = v;
        else if (iequals(k, "Codename")) r.codename = v;
        else if (iequals(k, "Version")) r.version = v;
        else if (iequals(k, "Date")) r.date = v;
        else if (iequals(k, "Valid-Until")) r.valid_until = v;
        else if (iequals(k, "Signed-By")) r.signed_by = v;
        else if (iequals(k, "Release-Notes")) r.release_notes = v;
        else if (iequals(k, "NotAutomatic")) r.not_automatic = parse_bool(v);
        else if (iequals(k, "ButAutomaticUpgrades")) r.but_automatic_upgrades = parse_bool(v);
        else if (iequals(k, "Acquire-By-Hash")) r.acquire_by_hash = parse_bool(v);
        else if (iequals(k, "Architectures")) r.architectures = words(v);
        else if (iequals(k, "Components")) r.components = words(v);
        else if (iequals(k, "MD5Sum")) parse_hash_list(f, name, r.md5);
        else if (iequals(k, "SHA1")) parse_hash_list(f, name, r.sha1);
        else if (iequals(k, "SHA256")) parse_hash_list(f, name, r.sha256);
        else if (iequals(k, "SHA512")) parse_hash_list(f, name, r.sha512);
    }
    if (reader.next(st)) throw file_error(name, st.line, "a Release file holds one stanza, found a second");
    return r;
}

bool starts_clearsigned(std::string_view content) { return starts_with(content, kBeginMessage); }

ReleaseFile read_release_file(const std::string& path) {
    std::string content = read_file(path);
    std::string_view c = content;
    if (starts_clearsigned(c)) return parse_release(clearsigned_text(c, path), path);
    if (ends_with(path, "InRelease")) {
        // Refuse a signed message preceded by other text, and unsigned InRelease files alike.
        if (c.find(kBeginMessage) != std::string_view::npos)
            throw file_error(path, 1, "text before " + std::string(kBeginMessage));
        throw file_error(path, 0, "InRelease file is not clearsigned");
    }
    if (c.find("-----BEGIN PGP") != std::string_view::npos)
        throw file_error(path, 0, "Release file holds PGP armor; clearsigned files start with " + std::string(kBeginMessage));
    return parse_release(c, path);
}

}  // namespace aptus::deb
