#include "curl_api.hpp"

#include "aptus/base/error.hpp"
#include "aptus/base/shared_library.hpp"

namespace aptus::acquire::curl {
namespace {

// The library's soname (libcurl4's, the ABI curl.h describes), and each
// function by its name there.
Api load() {
    const SharedLibrary lib("libcurl.so.4", "downloads");
    Api a;
    a.easy_init = lib.symbol<decltype(a.easy_init)>("curl_easy_init");
    a.easy_cleanup = lib.symbol<decltype(a.easy_cleanup)>("curl_easy_cleanup");
    a.easy_setopt = lib.symbol<decltype(a.easy_setopt)>("curl_easy_setopt");
    a.easy_getinfo = lib.symbol<decltype(a.easy_getinfo)>("curl_easy_getinfo");
    a.easy_strerror = lib.symbol<decltype(a.easy_strerror)>("curl_easy_strerror");
    a.multi_init = lib.symbol<decltype(a.multi_init)>("curl_multi_init");
    a.multi_cleanup = lib.symbol<decltype(a.multi_cleanup)>("curl_multi_cleanup");
    a.multi_setopt = lib.symbol<decltype(a.multi_setopt)>("curl_multi_setopt");
    a.multi_add_handle = lib.symbol<decltype(a.multi_add_handle)>("curl_multi_add_handle");
    a.multi_remove_handle = lib.symbol<decltype(a.multi_remove_handle)>("curl_multi_remove_handle");
    a.multi_perform = lib.symbol<decltype(a.multi_perform)>("curl_multi_perform");
    a.multi_poll = lib.symbol<decltype(a.multi_poll)>("curl_multi_poll");
    a.multi_info_read = lib.symbol<decltype(a.multi_info_read)>("curl_multi_info_read");
    auto global_init = lib.symbol<CURLcode (*)(long)>("curl_global_init");
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw Error("libcurl could not be initialised");
    return a;
}

}  // namespace

const Api& api() {
    static const Api loaded = load();
    return loaded;
}

}  // namespace aptus::acquire::curl
