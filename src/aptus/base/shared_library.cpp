#include "aptus/base/shared_library.hpp"

#include <dlfcn.h>

#include "aptus/base/error.hpp"

namespace aptus {

SharedLibrary::SharedLibrary(std::string soname, std::string_view purpose) : soname_(std::move(soname)) {
    handle_ = ::dlopen(soname_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = ::dlerror();
        throw Error("Cannot load " + soname_ + " for " + std::string(purpose) + ": " + (why ? why : "unknown error"));
    }
}

void* SharedLibrary::address(const char* name) const {
    void* p = ::dlsym(handle_, name);
    if (!p) throw Error(soname_ + " has no " + name);
    return p;
}

}  // namespace aptus
