// Helpers every test binary shares: a scratch directory that cleans up after
// itself, and the location of the real Debian snapshots.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace aptus::test {

// A fresh directory under /tmp, removed with everything in it when the
// object goes away.
class TempDir {
public:
    explicit TempDir(const std::string& tag = "test") {
        std::string tmpl = "/tmp/aptus-" + tag + "-XXXXXX";
        if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + tmpl);
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

    // Write `content` to `name` (relative to the directory), creating parents.
    std::string write(const std::string& name, const std::string& content) const {
        std::string p = file(name);
        std::filesystem::create_directories(std::filesystem::path(p).parent_path());
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }
    std::string mkdir(const std::string& name) const {
        std::string p = file(name);
        std::filesystem::create_directories(p);
        return p;
    }

private:
    std::string path_;
};

// The path of a file in the real snapshots (../shared/data/debian), or ""
// when the snapshots are not there (APTUS_DATA_DIR empty or file missing).
inline std::string real_data_path(const std::string& name) {
    std::string dir = APTUS_DATA_DIR;
    if (dir.empty()) return "";
    std::string p = dir + "/debian/" + name;
    return std::filesystem::exists(p) ? p : "";
}

// A sandbox root made by ../shared/tools/make-sandbox (real bookworm and
// trixie lists, the real server's or minbase's dpkg status), built once per
// build tree and shared by every test process: making one decompresses
// 100 MB, too slow to repeat per test. Tests must treat it as read-only
// (point Dir::Cache and anything they write at a TempDir). "" when the data
// or the tool is missing.
inline std::string real_sandbox(const std::string& status = "server") {
    std::string data = APTUS_DATA_DIR;
    if (data.empty()) return "";
    std::string tool = data + "/../tools/make-sandbox";
    if (!std::filesystem::exists(tool)) return "";
    std::string base = APTUS_TEST_SANDBOXES;
    std::filesystem::create_directories(base);
    std::string root = base + "/" + status;
    // One builder at a time; the others wait and then reuse its work.
    int lock = ::open((root + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (lock < 0) return "";
    ::flock(lock, LOCK_EX);
    std::string done = root + "/.complete";
    if (!std::filesystem::exists(done)) {
        std::string cmd = "'" + tool + "' '" + root + "' --status " + status + " >/dev/null";
        if (std::system(cmd.c_str()) == 0) std::ofstream(done) << "ok\n";
    }
    ::close(lock);
    return std::filesystem::exists(done) ? root : "";
}

}  // namespace aptus::test

// Skip the current test, with the reason, when a real-data file is missing.
#define APTUS_REQUIRE_REAL_DATA(path)                                                       \
    do {                                                                                    \
        if ((path).empty()) GTEST_SKIP() << "real Debian data not found (APTUS_DATA_DIR='" \
                                         << APTUS_DATA_DIR << "')";                         \
    } while (0)
