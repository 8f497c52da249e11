// A library loaded at run time (dlopen) rather than linked, for what only
// some commands need: its symbols by name, with an aptus::Error naming the
// library when it or a symbol is missing. It stays loaded for the life of
// the process.
#pragma once

#include <string>
#include <string_view>

namespace aptus {

class SharedLibrary {
public:
    // `soname` as the package installs it ("libcurl.so.4"); `purpose` ends
    // the error: "Cannot load libcurl.so.4 for downloads: ...".
    SharedLibrary(std::string soname, std::string_view purpose);

    template <class F>
    F symbol(const char* name) const {
        return reinterpret_cast<F>(address(name));
    }

private:
    void* address(const char* name) const;
    std::string soname_;
    void* handle_;
};

}  // namespace aptus
