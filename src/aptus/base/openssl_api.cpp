#include "aptus/base/openssl_api.hpp"

#include <openssl/opensslv.h>

#include <string>

#include "aptus/base/shared_library.hpp"

namespace aptus::openssl {
namespace {

Api load() {
    const SharedLibrary lib("libcrypto.so." + std::to_string(OPENSSL_VERSION_MAJOR), "hashing");
    Api a;
    a.md_ctx_new = lib.symbol<decltype(a.md_ctx_new)>("EVP_MD_CTX_new");
    a.md_ctx_free = lib.symbol<decltype(a.md_ctx_free)>("EVP_MD_CTX_free");
    a.digest_init_ex = lib.symbol<decltype(a.digest_init_ex)>("EVP_DigestInit_ex");
    a.digest_update = lib.symbol<decltype(a.digest_update)>("EVP_DigestUpdate");
    a.digest_final_ex = lib.symbol<decltype(a.digest_final_ex)>("EVP_DigestFinal_ex");
    a.digest = lib.symbol<decltype(a.digest)>("EVP_Digest");
    a.md5 = lib.symbol<decltype(a.md5)>("EVP_md5");
    a.sha1 = lib.symbol<decltype(a.sha1)>("EVP_sha1");
    a.sha256 = lib.symbol<decltype(a.sha256)>("EVP_sha256");
    a.sha512 = lib.symbol<decltype(a.sha512)>("EVP_sha512");
    return a;
}

}  // namespace

const Api& api() {
    static const Api loaded = load();
    return loaded;
}

}  // namespace aptus::openssl
