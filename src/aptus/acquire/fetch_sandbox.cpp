// Network transfers as apt runs them when started by root: in a child
// process that has dropped to the sandbox user (APT::Sandbox::User, _apt):
// one group, no capabilities, no_new_privs, no descriptor of the parent's
// but its socket. What a hostile mirror can reach through a bug in the TLS,
// HTTP or decompression code is then that user, not root.
//
// The child never opens a path for writing. For each transfer it asks the
// root side for the part file and gets a descriptor of a file root created
// afresh (create_part_file) in a directory the sandbox user cannot enter,
// so no local process running as that user can plant a link there or touch
// the bytes. It counts, hashes and decompresses, and reports each result;
// the root side renames a file into place only when the child reported its
// sizes and hash matched, and after checking that it is the file root
// created and holds as many bytes as announced.
//
// The protocol is a SOCK_SEQPACKET socket pair (one message per datagram),
// child to parent:
//   'O' index resume                   the part file of request `index`, please
//                                      (resume: the one an earlier run left, if any)
//   'S' index                          a transfer started
//   'P' progress                       bytes and files so far
//   'D' index result progress          a transfer finished
//   'X' text                           the whole run failed (an exception)
// and parent to child: 'F' with the descriptor (SCM_RIGHTS), or 'E' text.
// file: and copy: requests are read by the parent, as before: they are
// local, and the sandbox user may not be able to read them.
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "part_file.hpp"
#include "transfer_loop.hpp"

namespace aptus::acquire {
namespace {

constexpr size_t kMaxMessage = 1 << 16;

class Writer {
public:
    explicit Writer(char type) { buf_ += type; }
    Writer& u64(uint64_t v) {
        buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
        return *this;
    }
    Writer& str(std::string_view s) {
        // Bounded, so a message always fits in one datagram.
        s = s.substr(0, 4096);
        u64(s.size());
        buf_.append(s);
        return *this;
    }
    const std::string& data() const { return buf_; }

private:
    std::string buf_;
};

class Reader {
public:
    explicit Reader(std::string_view data) : data_(data.substr(1)) {}
    uint64_t u64() {
        uint64_t v = 0;
        need(sizeof v);
        std::memcpy(&v, data_.data(), sizeof v);
        data_.remove_prefix(sizeof v);
        return v;
    }
    std::string str() {
        uint64_t n = u64();
        need(n);
        std::string s(data_.substr(0, n));
        data_.remove_prefix(n);
        return s;
    }

private:
    std::string_view data_;
    void need(uint64_t n) const {
        if (data_.size() < n) throw Error("malformed message from the download process");
    }
};

void send_message(int sock, const std::string& msg, int fd = -1) {
    iovec iov{const_cast<char*>(msg.data()), msg.size()};
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (fd >= 0) {
        mh.msg_control = control;
        mh.msg_controllen = sizeof control;
        cmsghdr* cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(cm), &fd, sizeof(int));
    }
    while (::sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
        if (errno != EINTR) throw system_error("cannot talk to", "the download process", errno);
}

// One message; false at the end of the stream. A descriptor that came with
// it goes to *fd (when asked for; else it is closed).
bool receive_message(int sock, std::string& msg, int* fd = nullptr) {
    msg.resize(kMaxMessage);
    iovec iov{msg.data(), msg.size()};
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    mh.msg_control = control;
    mh.msg_controllen = sizeof control;
    ssize_t n;
    while ((n = ::recvmsg(sock, &mh, MSG_CMSG_CLOEXEC)) < 0)
        if (errno != EINTR) throw system_error("cannot talk to", "the download process", errno);
    int got = -1;
    for (cmsghdr* cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) std::memcpy(&got, CMSG_DATA(cm), sizeof(int));
    if (fd) *fd = got;
    else if (got >= 0) ::close(got);
    if (n == 0) return false;
    if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) throw Error("malformed message from the download process");
    msg.resize(size_t(n));
    return true;
}

// At most this many transfers under way are told (a message stays small).
constexpr size_t kMaxActive = 64;

void put_progress(Writer& w, const FetchEvent& ev) {
    w.u64(ev.bytes_done).u64(ev.bytes_expected).u64(ev.finished).u64(ev.total).u64(ev.bytes_received);
    const size_t n = std::min(ev.active.size(), kMaxActive);
    w.u64(n);
    for (size_t i = 0; i < n; ++i) w.u64(ev.active[i].index).u64(ev.active[i].bytes_done).u64(ev.active[i].bytes_total);
}

void get_progress(Reader& r, FetchEvent& ev, size_t requests) {
    ev.bytes_done = r.u64();
    ev.bytes_expected = r.u64();
    ev.finished = r.u64();
    ev.total = r.u64();
    ev.bytes_received = r.u64();
    const uint64_t n = r.u64();
    if (n > kMaxActive) throw Error("malformed message from the download process");
    for (uint64_t i = 0; i < n; ++i) {
        ActiveTransfer a;
        a.index = size_t(r.u64());
        a.bytes_done = r.u64();
        a.bytes_total = r.u64();
        if (a.index >= requests) throw Error("malformed message from the download process");
        ev.active.push_back(std::move(a));
    }
}

void put_result(Writer& w, const FetchResult& r) {
    uint64_t seconds_bits = 0;
    std::memcpy(&seconds_bits, &r.seconds, sizeof seconds_bits);
    w.u64(uint64_t(r.status)).str(r.error).u64(r.not_found).u64(r.transient).u64(r.bytes).u64(seconds_bits);
    w.u64(r.last_modified.has_value()).u64(uint64_t(r.last_modified.value_or(0))).str(r.peer).u64(r.attempts);
    w.str(r.received_hash_hex).u64(r.resumed_from);
}

FetchResult get_result(Reader& in) {
    FetchResult r;
    uint64_t status = in.u64();
    if (status > uint64_t(FetchStatus::Failed)) throw Error("malformed message from the download process");
    r.status = FetchStatus(status);
    r.error = in.str();
    r.not_found = in.u64() != 0;
    r.transient = in.u64() != 0;
    r.bytes = in.u64();
    uint64_t seconds_bits = in.u64();
    std::memcpy(&r.seconds, &seconds_bits, sizeof seconds_bits);
    bool has_time = in.u64() != 0;
    uint64_t time = in.u64();
    if (has_time) r.last_modified = std::time_t(time);
    r.peer = in.str();
    r.attempts = unsigned(in.u64());
    r.received_hash_hex = in.str();
    r.resumed_from = in.u64();
    return r;
}

void drop_privileges(const SandboxUser& user) {
    // apt's order: the groups, then the group, then the user; after the
    // last, no capability is left and root cannot be had back.
    if (::setgroups(1, &user.gid) != 0) throw system_error("setgroups", user.name, errno);
    if (::setresgid(user.gid, user.gid, user.gid) != 0) throw system_error("setresgid", user.name, errno);
    if (::setresuid(user.uid, user.uid, user.uid) != 0) throw system_error("setresuid", user.name, errno);
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) throw system_error("no_new_privs", user.name, errno);
    if (user.uid != 0 && (::setresuid(0, 0, 0) == 0 || ::geteuid() == 0))
        throw Error("the download process could become root again after dropping to " + user.name);
}

[[noreturn]] void child_main(int sock, pid_t parent, const std::vector<FetchRequest>& requests,
                             const FetchOptions& options, const SandboxUser& user) {
    try {
        // Die with the parent, whatever kills it.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
        // The parent's handlers (an install's Ctrl-C handling) mean nothing
        // here: Ctrl-C ends the downloader, and the parent sees it end.
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::signal(sig, SIG_DFL);
        // Nothing of root's stays open here: lock files, the cache, the
        // terminal's input. Only the socket and stdout/stderr remain.
        int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0) ::dup2(null, 0);
        if (sock > 3) ::close_range(3, unsigned(sock) - 1, 0);
        ::close_range(unsigned(sock) + 1, ~0U, 0);
        drop_privileges(user);
        auto hooks = [sock](size_t index) {
            PartFileHooks h;
            h.place = false;
            h.open = [sock, index](bool resume) {
                send_message(sock, Writer('O').u64(index).u64(resume).data());
                std::string reply;
                int fd = -1;
                if (!receive_message(sock, reply, &fd) || reply.empty()) ::_exit(1);
                if (reply[0] == 'E') throw Error(Reader(reply).str());
                if (reply[0] != 'F' || fd < 0) throw Error("no part file from the parent");
                return fd;
            };
            return h;
        };
        auto report = [sock](const FetchEvent& ev) {
            if (ev.kind == FetchEvent::Started) {
                send_message(sock, Writer('S').u64(ev.index).data());
            } else if (ev.kind == FetchEvent::Progress) {
                Writer w('P');
                put_progress(w, ev);
                send_message(sock, w.data());
            } else {
                Writer w('D');
                w.u64(ev.index);
                put_result(w, *ev.result);
                put_progress(w, ev);
                send_message(sock, w.data());
            }
        };
        run_transfers(requests, options, report, hooks);
        ::_exit(0);
    } catch (const std::exception& e) {
        try {
            send_message(sock, Writer('X').str(e.what()).data());
        } catch (...) {
        }
    } catch (...) {
    }
    ::_exit(1);
}

// The root side of one sandboxed run.
class Parent {
public:
    Parent(const std::vector<FetchRequest>& requests, const FetchCallback& callback)
        : requests_(requests), callback_(callback), fds_(requests.size(), -1), done_(requests.size(), false),
          results_(requests.size()) {}
    ~Parent() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        if (sock_ >= 0) ::close(sock_);
        // What did not finish stays for the next run where it may be continued.
        for (size_t i = 0; i < fds_.size(); ++i) drop_part(i, requests_[i].resume);
    }

    std::vector<FetchResult> run(const FetchOptions& options) {
        FetchOptions child_options = options;
        child_options.sandbox.reset();
        // The sandbox user may not be able to read a CA bundle root names.
        auto load = [](TlsOptions& t) {
            if (t.ca_info.empty() || !t.ca_pem.empty()) return;
            try {
                t.ca_pem = read_file(t.ca_info);
            } catch (const Error&) {
                // curl in the child then names the file it cannot use.
            }
        };
        load(child_options.tls);
        for (auto& [host, t] : child_options.tls_by_host) load(t);

        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
            throw system_error("cannot create", "a socket pair", errno);
        const pid_t self = ::getpid();
        pid_ = ::fork();
        if (pid_ < 0) {
            int err = errno;
            ::close(sv[0]);
            ::close(sv[1]);
            throw system_error("cannot start", "the download process", err);
        }
        if (pid_ == 0) {
            ::close(sv[0]);
            child_main(sv[1], self, requests_, child_options, *options.sandbox);
        }
        ::close(sv[1]);
        sock_ = sv[0];

        std::string msg, failure;
        while (receive_message(sock_, msg)) {
            if (msg.empty()) throw Error("malformed message from the download process");
            Reader in(msg);
            switch (msg[0]) {
                case 'O': {
                    const size_t i = index(in);
                    open_part(i, in.u64() != 0);
                    break;
                }
                case 'S': {
                    FetchEvent ev{FetchEvent::Started, index(in)};
                    if (callback_) callback_(ev);
                    break;
                }
                case 'P': {
                    FetchEvent ev{FetchEvent::Progress};
                    get_progress(in, ev, requests_.size());
                    if (callback_) callback_(ev);
                    break;
                }
                case 'D': finished(in); break;
                case 'X': failure = in.str(); break;
                default: throw Error("malformed message from the download process");
            }
        }
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
        if (!failure.empty()) throw Error(failure);
        std::string how = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                              : "exit status " + std::to_string(WEXITSTATUS(status));
        for (size_t i = 0; i < requests_.size(); ++i) {
            if (done_[i]) continue;
            FetchResult r;
            r.error = "The download process ended unexpectedly (" + how + ")";
            complete(i, std::move(r), {});
        }
        return std::move(results_);
    }

private:
    const std::vector<FetchRequest>& requests_;
    const FetchCallback& callback_;
    std::vector<int> fds_;
    std::vector<bool> done_;
    std::vector<FetchResult> results_;
    pid_t pid_ = -1;
    int sock_ = -1;
    size_t finished_ = 0;

    size_t index(Reader& in) {
        uint64_t i = in.u64();
        if (i >= requests_.size() || done_[i]) throw Error("malformed message from the download process");
        return size_t(i);
    }

    std::string part_of(size_t i) const { return part_path(requests_[i]); }

    // `keep`: the bytes stay under the name, to be continued.
    void drop_part(size_t i, bool keep = false) {
        if (fds_[i] < 0) return;
        ::close(fds_[i]);
        fds_[i] = -1;
        if (!keep) ::unlink(part_of(i).c_str());
    }

    void open_part(size_t i, bool resume) {
        // A retry asks again: the file of the failed attempt goes first,
        // unless the retry continues it. Only a request that may be
        // continued gets an earlier run's bytes.
        resume = resume && requests_[i].resume;
        drop_part(i, resume);
        try {
            fds_[i] = resume ? open_part_file_to_resume(part_of(i)) : create_part_file(part_of(i));
        } catch (const Error& e) {
            send_message(sock_, Writer('E').str(e.what()).data());
            return;
        }
        send_message(sock_, Writer('F').data(), fds_[i]);
    }

    void finished(Reader& in) {
        size_t i = index(in);
        FetchResult r = get_result(in);
        FetchEvent ev{FetchEvent::Finished, i};
        get_progress(in, ev, requests_.size());
        complete(i, std::move(r), ev);
    }

    // The child's word that a file checked out is taken, but the file must
    // still be the one root created and as long as announced before it is
    // renamed into place.
    void complete(size_t i, FetchResult r, FetchEvent ev) {
        const FetchRequest& req = requests_[i];
        if (r.status == FetchStatus::Ok) {
            std::optional<uint64_t> size =
                req.decompress == Compression::None ? req.expected_size : req.expected_output_size;
            struct stat st {};
            if (fds_[i] < 0 || ::fstat(fds_[i], &st) != 0 || (size && uint64_t(st.st_size) != *size)) {
                r.status = FetchStatus::Failed;
                r.error = "File has unexpected size. Mirror sync in progress?";
            } else {
                try {
                    place_part_file(part_of(i), req.destination, fds_[i]);
                    ::close(fds_[i]);
                    fds_[i] = -1;
                } catch (const Error& e) {
                    r.status = FetchStatus::Failed;
                    r.error = e.what();
                }
            }
        }
        if (r.status == FetchStatus::Failed && req.keep_failed && failed_its_checks(r)) {
            set_aside_failed(part_of(i), req.destination, fds_[i]);
            if (fds_[i] >= 0) ::close(fds_[i]);
            fds_[i] = -1;
        }
        // A transfer that failed on the way (not its checks) leaves its bytes
        // to be continued.
        drop_part(i, r.status == FetchStatus::Failed && req.resume && !failed_its_checks(r));
        done_[i] = true;
        results_[i] = std::move(r);
        ++finished_;
        if (!callback_) return;
        ev.kind = FetchEvent::Finished;
        ev.index = i;
        ev.result = &results_[i];
        if (ev.total == 0) {
            ev.finished = finished_;
            ev.total = requests_.size();
        }
        callback_(ev);
    }
};

}  // namespace

std::vector<FetchResult> fetch_sandboxed(const std::vector<FetchRequest>& requests, const FetchOptions& options,
                                         const FetchCallback& callback) {
    std::vector<size_t> local, network;
    for (size_t i = 0; i < requests.size(); ++i) (is_local_uri(requests[i].uri) ? local : network).push_back(i);
    std::vector<FetchResult> results(requests.size());
    // The two parts report as one run: indices into `requests`, files and
    // bytes counted over both.
    size_t finished_before = 0;
    uint64_t bytes_before = 0;
    auto part = [&](const std::vector<size_t>& which, auto&& run) {
        if (which.empty()) return;
        std::vector<FetchRequest> subset;
        for (size_t i : which) subset.push_back(requests[i]);
        FetchCallback remapped;
        if (callback)
            remapped = [&](const FetchEvent& ev) {
                FetchEvent e = ev;
                if (e.kind != FetchEvent::Progress) e.index = which[ev.index];
                for (ActiveTransfer& a : e.active) a.index = which[a.index];
                e.finished += finished_before;
                e.total = requests.size();
                e.bytes_done += bytes_before;
                e.bytes_received += bytes_before;
                e.bytes_expected += bytes_before;
                callback(e);
            };
        std::vector<FetchResult> got = run(subset, remapped);
        for (size_t k = 0; k < which.size(); ++k) {
            bytes_before += got[k].bytes;
            results[which[k]] = std::move(got[k]);
        }
        finished_before += which.size();
    };
    part(local, [&](const std::vector<FetchRequest>& subset, const FetchCallback& cb) {
        return run_transfers(subset, options, cb, {});
    });
    part(network, [&](const std::vector<FetchRequest>& subset, const FetchCallback& cb) {
        Parent parent(subset, cb);
        return parent.run(options);
    });
    return results;
}

}  // namespace aptus::acquire
