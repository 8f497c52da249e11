// Writing a modernize plan all or nothing. Every change is a rename, so each
// one can be undone by another rename; the old content of an output that is
// appended to is kept under a hard link until the end, so even that
// replacement can be taken back.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/sources/modernize.hpp"

namespace aptus::sources {
namespace {

// A new, unique, hidden name beside `path` (apt skips dot files in parts
// directories, so a leftover never becomes a source).
std::string temp_name(const std::string& path, const char* tag) {
    std::string tmpl = parent_dir(path) + "/.aptus-" + tag + "-XXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) throw system_error("Could not create a temporary file", tmpl, errno);
    ::close(fd);
    return tmpl;
}

void write_all(int fd, std::string_view data, const std::string& path) {
    while (!data.empty()) {
        ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            throw system_error("Could not write", path, errno);
        }
        data.remove_prefix(size_t(n));
    }
}

void write_temp(const std::string& tmp, const ModernizeOutput& out) {
    int fd = ::open(tmp.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) throw system_error("Could not open", tmp, errno);
    try {
        write_all(fd, out.content(), tmp);
        if (::fchmod(fd, out.mode) != 0) throw system_error("Could not set the mode of", tmp, errno);
        if (::fsync(fd) != 0) throw system_error("Could not sync", tmp, errno);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) throw system_error("Could not close", tmp, errno);
}

void rename_or_throw(const std::string& from, const std::string& to) {
    if (::rename(from.c_str(), to.c_str()) != 0)
        throw Error("Could not rename " + from + " to " + to + ": " + std::strerror(errno));
}

class Transaction {
public:
    explicit Transaction(const CommitHook& hook) : hook_(hook) {}
    ~Transaction() {
        if (!done_) rollback();
    }

    void step(const std::string& what) {
        if (hook_) hook_(what);
    }
    // Temporary files, deleted whatever happens.
    void scratch(const std::string& path) { scratch_.push_back(path); }
    // Second names of old contents: deleted unless an undo failed, when they
    // may be the only copy left.
    void keep(const std::string& path) { keep_.push_back(path); }
    void on_undo(std::function<void()> undo) { undo_.push_back(std::move(undo)); }
    void touch_dir(const std::string& path) { dirs_.insert(parent_dir(path)); }

    void finish() {
        for (const auto& d : dirs_) sync_directory(d);
        done_ = true;
        for (const auto& s : scratch_) ::unlink(s.c_str());
        for (const auto& k : keep_) ::unlink(k.c_str());
    }
    // What could not be put back, if anything.
    std::string rollback() {
        done_ = true;
        std::string failed;
        for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
            try {
                (*it)();
            } catch (const Error& e) {
                failed += failed.empty() ? "" : "; ";
                failed += e.what();
            }
        }
        for (const auto& s : scratch_) ::unlink(s.c_str());
        if (failed.empty())
            for (const auto& k : keep_) ::unlink(k.c_str());
        else
            for (const auto& k : keep_) failed += "; old content possibly kept as " + k;
        // Undoing is already the failure path: a directory that will not sync
        // must not hide the error being reported.
        for (const auto& d : dirs_) sync_directory(d, SyncFailure::Ignore);
        return failed;
    }

private:
    const CommitHook& hook_;
    std::vector<std::string> scratch_, keep_;
    std::vector<std::function<void()>> undo_;
    std::set<std::string> dirs_;
    bool done_ = false;
};

void run(const ModernizePlan& plan, Transaction& tx) {
    // 1. Every new content in a temporary file; the old content of an
    //    existing output kept by a second name.
    std::vector<std::string> temps, kept(plan.outputs.size());
    for (size_t i = 0; i < plan.outputs.size(); ++i) {
        const ModernizeOutput& out = plan.outputs[i];
        tx.step("write a temporary file for " + out.path);
        temps.push_back(temp_name(out.path, "new"));
        tx.scratch(temps.back());
        tx.touch_dir(out.path);
        write_temp(temps.back(), out);
        if (out.existing) {
            tx.step("keep the old content of " + out.path);
            kept[i] = temp_name(out.path, "old");
            ::unlink(kept[i].c_str());
            tx.keep(kept[i]);
            if (::link(out.path.c_str(), kept[i].c_str()) != 0)
                throw system_error("Could not keep the old content of", out.path, errno);
        }
    }
    // 2. The outputs into place.
    for (size_t i = 0; i < plan.outputs.size(); ++i) {
        const std::string& path = plan.outputs[i].path;
        tx.step("rename the new " + path + " into place");
        rename_or_throw(temps[i], path);
        if (kept[i].empty())
            tx.on_undo([path] {
                if (::unlink(path.c_str()) != 0) throw system_error("Could not remove", path, errno);
            });
        else
            tx.on_undo([from = kept[i], path] { rename_or_throw(from, path); });
    }
    // 3. The old files out of the way.
    for (const ModernizeInput& in : plan.inputs) {
        tx.step("rename " + in.path + " to " + in.backup_path);
        rename_or_throw(in.path, in.backup_path);
        tx.touch_dir(in.path);
        tx.on_undo([from = in.backup_path, to = in.path] { rename_or_throw(from, to); });
    }
    tx.step("sync the directories");
}

}  // namespace

void commit_modernize(const ModernizePlan& plan, const CommitHook& before_step) {
    Transaction tx(before_step);
    try {
        run(plan, tx);
        tx.finish();
    } catch (const Error& e) {
        std::string failed = tx.rollback();
        if (failed.empty()) throw Error(std::string(e.what()) + "; no file was changed");
        throw Error(std::string(e.what()) + "; undoing the changes failed too, fix by hand: " + failed);
    }
}

}  // namespace aptus::sources
