// Helpers shared by the fuzz targets (and the replay program, which compiles
// the same target files with g++).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::fuzz {

inline std::string_view text(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Multi-file targets take their files from one input, separated by NUL bytes
// (a byte no text file here may hold, so each part is tested without them).
// Missing parts are empty.
inline std::vector<std::string_view> parts(std::string_view in, size_t n) {
    std::vector<std::string_view> out;
    while (out.size() + 1 < n) {
        size_t nul = in.find('\0');
        if (nul == std::string_view::npos) break;
        out.push_back(in.substr(0, nul));
        in.remove_prefix(nul + 1);
    }
    out.push_back(in);
    out.resize(n);
    return out;
}

// A private directory for the files a target must write (the readers under
// test take paths): made once per process under TMPDIR, removed at exit.
class Scratch {
public:
    static Scratch& get() {
        static Scratch s;
        return s;
    }
    // Writes `content` to <dir>/<name> (replacing it) and returns the path.
    std::string write(const std::string& name, std::string_view content) {
        std::string path = dir_ + "/" + name;
        int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) std::abort();
        size_t done = 0;
        while (done < content.size()) {
            ssize_t n = ::write(fd, content.data() + done, content.size() - done);
            if (n <= 0) std::abort();
            done += size_t(n);
        }
        ::close(fd);
        names_.push_back(path);
        return path;
    }

private:
    Scratch() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/aptus-fuzz-XXXXXX";
        if (!::mkdtemp(pattern.data())) std::abort();
        dir_ = pattern;
    }
    ~Scratch() {
        for (const std::string& p : names_) ::unlink(p.c_str());
        ::rmdir(dir_.c_str());
    }
    std::string dir_;
    std::vector<std::string> names_;
};

// Context for a failure about to be reported, on stderr.
inline void report(std::string_view what) {
    (void)::write(2, what.data(), what.size());
    (void)::write(2, "\n", 1);
}

// A broken invariant the reader promised: crash so libFuzzer keeps the input.
[[noreturn]] inline void broken(const char* what) {
    (void)::write(2, what, __builtin_strlen(what));
    (void)::write(2, "\n", 1);
    std::abort();
}

inline bool within(std::string_view inner, std::string_view outer) {
    return inner.empty() || (inner.data() >= outer.data() && inner.data() + inner.size() <= outer.data() + outer.size());
}

}  // namespace aptus::fuzz
