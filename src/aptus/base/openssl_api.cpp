#include "aptus/base/openssl_api.hpp"

#include <dlfcn.h>
#include <openssl/opensslv.h>

#include <string>

#include "aptus/base/error.hpp"

namespace aptus::openssl {
namespace {

Api load() {
    const std::string soname = "libcrypto.so." + std::to_string(OPENSSL_VERSION_MAJOR);
    void* lib = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* why = ::dlerror();
        throw Error("Cannot load " + soname + " for hashing: " + (why ? why : "unknown error"));
    }
    auto sym = [&](const char* name) {
        void* p = ::dlsym(lib, name);
        if (!p) throw Error(soname + " has no " + name);
        return p;
    };
    Api a;
    a.md_ctx_new = reinterpret_cast<decltype(a.md_ctx_new)>(sym("EVP_MD_CTX_new"));
    a.md_ctx_free = reinterpret_cast<decltype(a.md_ctx_free)>(sym("EVP_MD_CTX_free"));
    a.digest_init_ex = reinterpret_cast<decltype(a.digest_init_ex)>(sym("EVP_DigestInit_ex"));
    a.digest_update = reinterpret_cast<decltype(a.digest_update)>(sym("EVP_DigestUpdate"));
    a.digest_final_ex = reinterpret_cast<decltype(a.digest_final_ex)>(sym("EVP_DigestFinal_ex"));
    a.digest = reinterpret_cast<decltype(a.digest)>(sym("EVP_Digest"));
    a.md5 = reinterpret_cast<decltype(a.md5)>(sym("EVP_md5"));
    a.sha1 = reinterpret_cast<decltype(a.sha1)>(sym("EVP_sha1"));
    a.sha256 = reinterpret_cast<decltype(a.sha256)>(sym("EVP_sha256"));
    a.sha512 = reinterpret_cast<decltype(a.sha512)>(sym("EVP_sha512"));
    return a;  // the library stays loaded for the life of the process
}

}  // namespace

const Api& api() {
    static const Api loaded = load();
    return loaded;
}

}  // namespace aptus::openssl
