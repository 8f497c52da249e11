// What the fetcher's and the archives' tests both need: a SHA256 to put in a
// request and transfer options that fail fast on loopback.
#pragma once

#include <openssl/evp.h>

#include <string>
#include <string_view>

#include "aptus/acquire/fetcher.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::test {

inline std::string sha256(std::string_view data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
    return to_hex(std::string_view(reinterpret_cast<const char*>(md), len));
}

inline acquire::FetchOptions quick() {
    acquire::FetchOptions o;
    o.retries = 0;
    o.timeout_s = 5;
    return o;
}

}  // namespace aptus::test
