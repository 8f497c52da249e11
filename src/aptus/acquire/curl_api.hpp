// libcurl, loaded when the first transfer starts rather than when the
// program does: libcurl and the ~25 libraries it needs (TLS, Kerberos,
// LDAP, SSH, ...) cost about 4 ms of dynamic linking at every start, more
// than a warm `policy bash` takes otherwise, and most commands never
// download. The functions keep curl's names in this namespace
// (curl::easy_setopt for curl_easy_setopt); the first call loads
// libcurl.so.4 and runs curl_global_init, and throws aptus::Error when it
// cannot be loaded.
#pragma once

#include <curl/curl.h>

namespace aptus::acquire::curl {

struct Api {
    CURL* (*easy_init)();
    void (*easy_cleanup)(CURL*);
    CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
    const char* (*easy_strerror)(CURLcode);
    CURLM* (*multi_init)();
    CURLMcode (*multi_cleanup)(CURLM*);
    CURLMcode (*multi_setopt)(CURLM*, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM*, CURL*);
    CURLMcode (*multi_remove_handle)(CURLM*, CURL*);
    CURLMcode (*multi_perform)(CURLM*, int*);
    CURLMcode (*multi_poll)(CURLM*, struct curl_waitfd*, unsigned int, int, int*);
    CURLMsg* (*multi_info_read)(CURLM*, int*);
};

// The loaded library (loaded on the first call, once per process).
const Api& api();

inline CURL* easy_init() { return api().easy_init(); }
inline void easy_cleanup(CURL* e) { api().easy_cleanup(e); }
template <class T>
CURLcode easy_setopt(CURL* e, CURLoption option, T value) {
    return api().easy_setopt(e, option, value);
}
template <class T>
CURLcode easy_getinfo(CURL* e, CURLINFO info, T out) {
    return api().easy_getinfo(e, info, out);
}
inline const char* easy_strerror(CURLcode rc) { return api().easy_strerror(rc); }
inline CURLM* multi_init() { return api().multi_init(); }
inline CURLMcode multi_cleanup(CURLM* m) { return api().multi_cleanup(m); }
template <class T>
CURLMcode multi_setopt(CURLM* m, CURLMoption option, T value) {
    return api().multi_setopt(m, option, value);
}
inline CURLMcode multi_add_handle(CURLM* m, CURL* e) { return api().multi_add_handle(m, e); }
inline CURLMcode multi_remove_handle(CURLM* m, CURL* e) { return api().multi_remove_handle(m, e); }
inline CURLMcode multi_perform(CURLM* m, int* running) { return api().multi_perform(m, running); }
inline CURLMcode multi_poll(CURLM* m, struct curl_waitfd* fds, unsigned n, int timeout_ms, int* numfds) {
    return api().multi_poll(m, fds, n, timeout_ms, numfds);
}
inline CURLMsg* multi_info_read(CURLM* m, int* left) { return api().multi_info_read(m, left); }

}  // namespace aptus::acquire::curl
