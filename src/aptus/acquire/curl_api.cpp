#include "curl_api.hpp"

#include <dlfcn.h>

#include <string>

#include "aptus/base/error.hpp"

namespace aptus::acquire::curl {
namespace {

// The library's soname (libcurl4's, the ABI curl.h describes), and each
// function by its name there.
Api load() {
    void* lib = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* why = ::dlerror();
        throw Error(std::string("Cannot load libcurl.so.4 for downloads: ") + (why ? why : "unknown error"));
    }
    auto sym = [&](const char* name) {
        void* p = ::dlsym(lib, name);
        if (!p) throw Error(std::string("libcurl.so.4 has no ") + name);
        return p;
    };
    Api a;
    a.easy_init = reinterpret_cast<decltype(a.easy_init)>(sym("curl_easy_init"));
    a.easy_cleanup = reinterpret_cast<decltype(a.easy_cleanup)>(sym("curl_easy_cleanup"));
    a.easy_setopt = reinterpret_cast<decltype(a.easy_setopt)>(sym("curl_easy_setopt"));
    a.easy_getinfo = reinterpret_cast<decltype(a.easy_getinfo)>(sym("curl_easy_getinfo"));
    a.easy_strerror = reinterpret_cast<decltype(a.easy_strerror)>(sym("curl_easy_strerror"));
    a.multi_init = reinterpret_cast<decltype(a.multi_init)>(sym("curl_multi_init"));
    a.multi_cleanup = reinterpret_cast<decltype(a.multi_cleanup)>(sym("curl_multi_cleanup"));
    a.multi_setopt = reinterpret_cast<decltype(a.multi_setopt)>(sym("curl_multi_setopt"));
    a.multi_add_handle = reinterpret_cast<decltype(a.multi_add_handle)>(sym("curl_multi_add_handle"));
    a.multi_remove_handle = reinterpret_cast<decltype(a.multi_remove_handle)>(sym("curl_multi_remove_handle"));
    a.multi_perform = reinterpret_cast<decltype(a.multi_perform)>(sym("curl_multi_perform"));
    a.multi_poll = reinterpret_cast<decltype(a.multi_poll)>(sym("curl_multi_poll"));
    a.multi_info_read = reinterpret_cast<decltype(a.multi_info_read)>(sym("curl_multi_info_read"));
    auto global_init = reinterpret_cast<CURLcode (*)(long)>(sym("curl_global_init"));
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw Error("libcurl could not be initialised");
    return a;  // the library stays loaded for the life of the process
}

}  // namespace

const Api& api() {
    static const Api loaded = load();
    return loaded;
}

}  // namespace aptus::acquire::curl
