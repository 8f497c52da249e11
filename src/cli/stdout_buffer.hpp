// Output for commands that print tens of thousands of lines: gathered in
// 64 KiB pieces and written with one fwrite each, flushed at scope end.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace aptus::cli {

class StdoutBuffer {
public:
    StdoutBuffer() = default;
    StdoutBuffer(const StdoutBuffer&) = delete;
    StdoutBuffer& operator=(const StdoutBuffer&) = delete;
    ~StdoutBuffer() { flush(); }

    StdoutBuffer& operator+=(std::string_view s) {
        buf_.append(s);
        if (buf_.size() > kChunk) flush();
        return *this;
    }
    StdoutBuffer& operator+=(char c) {
        buf_ += c;
        return *this;
    }
    void flush() {
        if (!buf_.empty()) std::fwrite(buf_.data(), 1, buf_.size(), stdout);
        buf_.clear();
    }

private:
    static constexpr size_t kChunk = 1 << 16;
    std::string buf_;
};

}  // namespace aptus::cli
