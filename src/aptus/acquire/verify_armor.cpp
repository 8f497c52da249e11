// ASCII armour (RFC 4880 section 6) and the shape checks made before any
// byte reaches a verifier.
#include <array>
#include <cstdint>
#include <string>

#include "aptus/acquire/verify_detail.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/deb/armor_lines.hpp"

namespace aptus::acquire::detail {

namespace {

using deb::ArmorLines;

constexpr std::array<int8_t, 256> base64_table() {
    std::array<int8_t, 256> t{};
    for (auto& v : t) v = -1;
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[uint8_t(alphabet[i])] = int8_t(i);
    return t;
}
constexpr auto kBase64 = base64_table();

// Appends the decoded bytes of one base64 line; false on a bad character.
bool decode_base64(std::string_view line, std::string& out, uint32_t& acc, int& bits, bool& padded) {
    for (char c : line) {
        if (c == '=') {
            padded = true;
            continue;
        }
        if (padded) return false;  // data after padding
        int8_t v = kBase64[uint8_t(c)];
        if (v < 0) return false;
        acc = (acc << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(char((acc >> bits) & 0xff));
        }
    }
    return true;
}

bool is_signature_packet_tag(uint8_t first) {
    if ((first & 0x80) == 0) return false;
    if (first & 0x40) return (first & 0x3f) == 2;  // new format
    return ((first >> 2) & 0x0f) == 2;             // old format
}

}  // namespace

std::string dearmor(std::string_view text, std::string_view block, std::string_view name) {
    const std::string begin = "-----BEGIN " + std::string(block) + "-----";
    const std::string end = "-----END " + std::string(block) + "-----";
    std::string out;
    ArmorLines lines(text);
    std::string_view line;
    bool any = false;
    while (lines.next(line)) {
        if (trim(line) != begin) continue;
        any = true;
        // Armor headers ("Version: ...", "Comment: ...") up to a blank line.
        // Some writers omit the blank line when there are no headers, so a
        // line without ':' starts the data too.
        bool in_headers = true;
        bool ended = false, padded = false;
        uint32_t acc = 0;
        int bits = 0;
        while (lines.next(line)) {
            line = trim(line);
            if (line == end) {
                ended = true;
                break;
            }
            if (in_headers) {
                if (line.empty()) {
                    in_headers = false;
                    continue;
                }
                if (line.find(": ") != std::string_view::npos) continue;
                in_headers = false;
            }
            if (line.empty()) continue;
            if (line[0] == '=' && line.size() == 5) continue;  // CRC-24: the packets carry their own checks
            if (!decode_base64(line, out, acc, bits, padded))
                throw file_error(name, 0, "invalid base64 in the " + std::string(block));
        }
        if (!ended) throw file_error(name, 0, "unterminated " + std::string(block) + " (no " + end + ")");
    }
    if (!any) throw file_error(name, 0, "no " + begin);
    return out;
}

KeyringFormat keyring_format(std::string_view path, std::string_view content) {
    if (ends_with(path, ".asc"))
        return content.find("-----BEGIN PGP PUBLIC KEY BLOCK-----") != std::string_view::npos &&
                       content.find("-----END PGP PUBLIC KEY BLOCK-----") != std::string_view::npos
                   ? KeyringFormat::Armored
                   : KeyringFormat::Unsupported;
    if (content.empty()) return KeyringFormat::Unsupported;
    // A public-key packet: old format tag 6 with one- or two-byte length
    // (0x98, 0x99), or new format tag 6 (0xc6).
    uint8_t c = uint8_t(content[0]);
    return c == 0x98 || c == 0x99 || c == 0xc6 ? KeyringFormat::Binary : KeyringFormat::Unsupported;
}

std::string check_detached_signature(std::string_view signature) {
    if (signature.empty()) return "";
    if (!is_signature_packet_tag(uint8_t(signature[0])) || starts_with(signature, "-----")) {
        // Armoured: nothing but signature blocks and blank lines.
        ArmorLines lines(signature);
        std::string_view line;
        bool inside = false, any = false;
        while (lines.next(line)) {
            if (!inside) {
                if (line.empty()) continue;
                if (line != "-----BEGIN PGP SIGNATURE-----") return "the signature file holds something other than signatures";
                inside = any = true;
            } else if (line == "-----END PGP SIGNATURE-----") {
                inside = false;
            } else if (starts_with(line, "-----")) {
                return "the signature file holds a broken signature block";
            }
        }
        if (!any) return "the signature file holds no signature";
        if (inside) return "the signature file ends inside a signature block";
    }
    return {};
}

bool holds_signature_data(std::string_view signature) {
    if (signature.empty()) return false;
    if (is_signature_packet_tag(uint8_t(signature[0])) && !starts_with(signature, "-----")) return true;
    return signature.find("-----BEGIN PGP SIGNATURE-----") != std::string_view::npos;
}

std::string_view clearsigned_signature(std::string_view message) {
    constexpr std::string_view begin = "\n-----BEGIN PGP SIGNATURE-----";
    constexpr std::string_view end = "-----END PGP SIGNATURE-----";
    size_t b = message.find(begin);
    if (b == std::string_view::npos) return {};
    size_t e = message.find(end, b);
    if (e == std::string_view::npos) return {};
    return message.substr(b + 1, e + end.size() - (b + 1));
}

}  // namespace aptus::acquire::detail
