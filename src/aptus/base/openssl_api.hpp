// libcrypto's digests, loaded on first use rather than linked: the library
// costs about 0.75 ms of dynamic linking at every start, and only
// downloads (their hashes) and cache builds (description MD5s) need it.
// The first call loads libcrypto (OpenSSL's major version in the soname,
// the ABI openssl/evp.h describes) and throws aptus::Error when it cannot.
#pragma once

#include <openssl/evp.h>

namespace aptus::openssl {

struct Api {
    EVP_MD_CTX* (*md_ctx_new)();
    void (*md_ctx_free)(EVP_MD_CTX*);
    int (*digest_init_ex)(EVP_MD_CTX*, const EVP_MD*, ENGINE*);
    int (*digest_update)(EVP_MD_CTX*, const void*, size_t);
    int (*digest_final_ex)(EVP_MD_CTX*, unsigned char*, unsigned int*);
    int (*digest)(const void*, size_t, unsigned char*, unsigned int*, const EVP_MD*, ENGINE*);
    const EVP_MD* (*md5)();
    const EVP_MD* (*sha1)();
    const EVP_MD* (*sha256)();
    const EVP_MD* (*sha512)();
};

// The loaded library (loaded on the first call, once per process).
const Api& api();

}  // namespace aptus::openssl
