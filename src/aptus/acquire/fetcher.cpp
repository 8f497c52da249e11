// The transfer loop: a queue of jobs, started while the per-host and total
// limits allow, driven by one curl multi handle; a failed attempt that may
// succeed later (no connection, a timeout, a 5xx) goes back into the queue
// with a delay that doubles each time.
#include "aptus/acquire/fetcher.hpp"

#include <curl/curl.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <memory>

#include "cdrom.hpp"
#include "transfer_loop.hpp"
#include "transfer_rate.hpp"
#include "transfer_sink.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::acquire {
namespace {

using Clock = std::chrono::steady_clock;

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

// The scheme and the host[:port] of a URI, which is what a connection is.
std::pair<std::string, std::string> scheme_host(std::string_view uri) {
    size_t colon = uri.find(':');
    if (colon == std::string_view::npos) return {"", ""};
    std::string scheme(uri.substr(0, colon));
    std::string_view rest = uri.substr(colon + 1);
    if (!rest.starts_with("//")) return {scheme, ""};
    rest.remove_prefix(2);
    size_t end = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, end);
    if (size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
    return {scheme, std::string(authority)};
}

// "host:port", "[::1]:port" -> "host", "::1": what apt's per-host keys name.
std::string_view host_name(std::string_view authority) {
    if (authority.starts_with('[')) return authority.substr(1, authority.find(']') - 1);
    return authority.substr(0, authority.find(':'));
}

// Whether the open file `fd` (of stat `st`) holds the bytes of `path`.
bool same_bytes(int fd, const struct stat& st, const std::string& path) {
    int other = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (other < 0) return false;
    struct stat ost{};
    bool same = ::fstat(other, &ost) == 0 && ost.st_size == st.st_size;
    std::string a(1 << 16, '\0'), b(1 << 16, '\0');
    for (off_t at = 0; same && at < st.st_size;) {
        ssize_t n = ::pread(fd, a.data(), a.size(), at);
        ssize_t m = n > 0 ? ::pread(other, b.data(), size_t(n), at) : -1;
        same = n > 0 && m == n && std::memcmp(a.data(), b.data(), size_t(n)) == 0;
        at += n;
    }
    ::close(other);
    return same;
}

struct Job {
    size_t index = 0;
    const FetchRequest* request = nullptr;
    std::string scheme, host;
    std::unique_ptr<TransferSink> sink;
    CURL* easy = nullptr;
    unsigned attempts = 0;
    Clock::time_point not_before{};
    Clock::time_point started{};
    char errbuf[CURL_ERROR_SIZE] = {};
    // Filled by the header callback for the response being received now.
    long status = 0;
    std::string reason;
    bool sink_failed = false;   // the sink refused a chunk: do not retry
    bool too_long = false;      // Content-Length beyond the limit
    uint64_t content_length = 0;  // as announced, when too_long
    uint64_t discarded = 0;     // body bytes of a non-2xx answer
    // Continue what the part file holds (the request's resume; off once the
    // transfer had to start again from zero, which happens once at most).
    bool resume = false;
    bool restarted = false;       // started again from zero (not a retry)
    bool restart_needed = false;  // a 206 for other bytes than asked
    bool body_started = false;
    uint64_t announced = 0;       // the file's size by Content-Length (resumed bytes added)
    FetchResult result;
};

// The first byte of "Content-Range: bytes N-M/T".
std::optional<uint64_t> range_start(std::string_view value) {
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (!value.starts_with("bytes ")) return std::nullopt;
    value.remove_prefix(6);
    uint64_t n = 0;
    size_t i = 0;
    for (; i < value.size() && value[i] >= '0' && value[i] <= '9'; ++i) n = n * 10 + uint64_t(value[i] - '0');
    if (i == 0 || i == value.size() || value[i] != '-') return std::nullopt;
    return n;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
    Job& job = *static_cast<Job*>(user);
    std::string_view line(data, size * n);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    if (line.starts_with("HTTP/")) {
        // A new response (after a redirect or a 100): forget the last one.
        job.status = 0;
        job.reason.clear();
        size_t sp = line.find(' ');
        if (sp != std::string_view::npos) {
            std::string_view rest = line.substr(sp + 1);
            job.status = std::strtol(std::string(rest.substr(0, 3)).c_str(), nullptr, 10);
            if (rest.size() > 4) job.reason = std::string(rest.substr(4));
        }
        return size * n;
    }
    if (job.status == 206 && line.size() > 14 && strncasecmp(line.data(), "Content-Range:", 14) == 0) {
        // Only the bytes asked for continue the part file.
        if (range_start(line.substr(14)) != job.sink->resumed_from()) {
            job.restart_needed = true;
            return 0;
        }
    }
    if (job.status >= 200 && job.status < 300 && line.size() > 15 &&
        strncasecmp(line.data(), "Content-Length:", 15) == 0) {
        uint64_t length = std::strtoull(std::string(line.substr(15)).c_str(), nullptr, 10);
        if (job.status == 206) length += job.sink->resumed_from();
        job.announced = length;
        if (!job.sink->accepts_length(length)) {
            job.too_long = true;
            job.content_length = length;
            return 0;  // aborts the transfer before the body
        }
    }
    return size * n;
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
    Job& job = *static_cast<Job*>(user);
    size_t len = size * n;
    if (job.status != 0 && (job.status < 200 || job.status >= 300)) {
        // An error page: read and drop, but not forever.
        job.discarded += len;
        return job.discarded > (1u << 20) ? 0 : len;
    }
    if (!job.body_started) {
        job.body_started = true;
        // Asked for the rest, sent the whole: the kept bytes go.
        if (job.status != 206 && job.sink->resumed_from() > 0 && !job.sink->restart()) {
            job.sink_failed = true;
            return 0;
        }
    }
    if (!job.sink->write({data, len})) {
        job.sink_failed = true;
        return 0;
    }
    return len;
}

bool transient_http(long status) { return status >= 500 || status == 408 || status == 429; }

bool transient_curl(CURLcode rc) {
    switch (rc) {
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_COULDNT_CONNECT:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_GOT_NOTHING:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM:
        case CURLE_SSL_CONNECT_ERROR:
        // apt counts a certificate it cannot verify among the network's
        // failures (a warning, retried), not the repository's: the lists
        // stay as they were either way.
        case CURLE_PEER_FAILED_VERIFICATION:
            return true;
        default:
            return false;
    }
}

// apt's words first, then what the TLS library found wrong (curl's
// "SSL certificate problem: " or "SSL: " prefix dropped, as it says less).
std::string certificate_failure(std::string_view detail) {
    for (std::string_view prefix : {"SSL certificate problem: ", "SSL: "})
        if (detail.starts_with(prefix)) detail.remove_prefix(prefix.size());
    return "Certificate verification failed: " + std::string(detail);
}

class Loop {
public:
    Loop(const std::vector<FetchRequest>& requests, const FetchOptions& options, const FetchCallback& callback,
         const PartFileHooksFor& hooks)
        : options_(options), callback_(callback), results_(requests.size()) {
        static CurlGlobal global;
        multi_ = curl_multi_init();
        if (!multi_) throw Error("cannot initialise libcurl");
        curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, long(options.max_per_host));
        curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, long(options.max_total));
        jobs_.reserve(requests.size());
        for (size_t i = 0; i < requests.size(); ++i) {
            auto job = std::make_unique<Job>();
            job->index = i;
            job->request = &requests[i];
            std::tie(job->scheme, job->host) = scheme_host(requests[i].uri);
            job->sink = std::make_unique<TransferSink>(requests[i], hooks ? hooks(i) : PartFileHooks{});
            job->resume = requests[i].resume;
            if (requests[i].expected_size) expected_ += *requests[i].expected_size;
            pending_.push_back(job.get());
            jobs_.push_back(std::move(job));
        }
    }
    ~Loop() {
        for (auto& job : jobs_) release(*job);
        curl_multi_cleanup(multi_);
    }

    std::vector<FetchResult> run() {
        while (!pending_.empty() || active_ > 0) {
            start_ready();
            int running = 0;
            curl_multi_perform(multi_, &running);
            const bool finished_some = collect();
            report_progress(false);
            // A finished transfer frees a place for a pending one: start it
            // now rather than after the poll's timeout (with one connection
            // per host that wait was 100 ms per file).
            if (finished_some && !pending_.empty()) continue;
            if (active_ > 0 || !pending_.empty()) curl_multi_poll(multi_, nullptr, 0, poll_ms(), nullptr);
        }
        report_progress(true);
        return std::move(results_);
    }

private:
    const FetchOptions& options_;
    const FetchCallback& callback_;
    std::vector<FetchResult> results_;
    std::vector<std::unique_ptr<Job>> jobs_;
    std::deque<Job*> pending_;
    std::map<std::string, unsigned> per_host_;
    unsigned active_ = 0;
    size_t finished_ = 0;
    uint64_t done_bytes_ = 0, done_received_ = 0, expected_ = 0;
    Clock::time_point last_progress_{};
    CURLM* multi_ = nullptr;

    int poll_ms() const {
        // Wake for progress reports and for the next retry that comes due.
        auto wait = std::chrono::milliseconds(100);
        auto now = Clock::now();
        for (const Job* job : pending_)
            if (job->not_before > now)
                wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(job->not_before - now));
        return int(std::max<long>(1, wait.count()));
    }

    void start_ready() {
        auto now = Clock::now();
        for (auto it = pending_.begin(); it != pending_.end();) {
            Job& job = **it;
            if (active_ >= options_.max_total) break;
            if (job.not_before > now || per_host_[job.host] >= options_.max_per_host) {
                ++it;
                continue;
            }
            it = pending_.erase(it);
            if (job.attempts == 0 && callback_) callback_({FetchEvent::Started, job.index});
            ++job.attempts;
            job.started = now;
            if (job.scheme == "file" || job.scheme == "copy") {
                run_local(job);
                continue;
            }
            start_curl(job);
        }
    }

    void start_curl(Job& job) {
        const FetchRequest& req = *job.request;
        job.sink->start(job.resume);
        if (job.sink->whole()) {
            // An earlier run got every byte and stopped before the rename:
            // the whole file is checked as any other.
            const uint64_t kept = job.sink->resumed_from();
            if (job.sink->commit()) {
                job.result.status = FetchStatus::Ok;
                job.result.resumed_from = kept;
                job.result.bytes = 0;
                done(job);
                return;
            }
            job.resume = false;
            job.restarted = true;
            job.sink->start(false);
        }
        job.status = 0;
        job.reason.clear();
        job.restart_needed = job.body_started = false;
        job.announced = 0;
        job.sink_failed = job.too_long = false;
        job.discarded = 0;
        job.errbuf[0] = 0;
        CURL* e = curl_easy_init();
        if (!e) throw Error("cannot initialise a libcurl transfer");
        job.easy = e;
        curl_easy_setopt(e, CURLOPT_URL, req.uri.c_str());
        curl_easy_setopt(e, CURLOPT_PRIVATE, &job);
        curl_easy_setopt(e, CURLOPT_ERRORBUFFER, job.errbuf);
        curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(e, CURLOPT_HEADERDATA, &job);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, &job);
        curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(e, CURLOPT_MAXREDIRS, long(options_.max_redirects));
        // A mirror must not redirect us into the local file system.
        curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, options_.timeout_s);
        // Timeout means "no progress for this long", as apt's, not a total limit.
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, options_.timeout_s);
        curl_easy_setopt(e, CURLOPT_USERAGENT, options_.user_agent.c_str());
        curl_easy_setopt(e, CURLOPT_FILETIME, 1L);
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
        // Lists are served compressed already; a transfer-encoding on top only costs.
        curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, nullptr);
        const TlsOptions& tls = options_.tls_for(host_name(job.host));
        if (!tls.ca_pem.empty()) {
            curl_blob blob{const_cast<char*>(tls.ca_pem.data()), tls.ca_pem.size(), CURL_BLOB_COPY};
            curl_easy_setopt(e, CURLOPT_CAINFO_BLOB, &blob);
        } else if (!tls.ca_info.empty()) {
            curl_easy_setopt(e, CURLOPT_CAINFO, tls.ca_info.c_str());
        }
        if (!tls.verify_peer) curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        if (!tls.verify_host) curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
        const auto& proxy = job.scheme == "https" ? options_.https_proxy : options_.http_proxy;
        if (proxy) curl_easy_setopt(e, CURLOPT_PROXY, proxy->c_str());
        if (job.sink->resumed_from() > 0) {
            const std::string range = std::to_string(job.sink->resumed_from()) + "-";
            curl_easy_setopt(e, CURLOPT_RANGE, range.c_str());
        }
        if (req.if_modified_since) {
            curl_easy_setopt(e, CURLOPT_TIMECONDITION, long(CURL_TIMECOND_IFMODSINCE));
            curl_easy_setopt(e, CURLOPT_TIMEVALUE_LARGE, curl_off_t(*req.if_modified_since));
        }
        curl_multi_add_handle(multi_, e);
        ++active_;
        ++per_host_[job.host];
    }

    void release(Job& job) {
        if (!job.easy) return;
        curl_multi_remove_handle(multi_, job.easy);
        curl_easy_cleanup(job.easy);
        job.easy = nullptr;
    }

    // Whether any transfer finished.
    bool collect() {
        int left = 0;
        bool any = false;
        while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
            if (msg->msg != CURLMSG_DONE) continue;
            Job* job = nullptr;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&job));
            finish_curl(*job, msg->data.result);
            any = true;
        }
        return any;
    }

    void finish_curl(Job& job, CURLcode rc) {
        FetchResult& r = job.result;
        CURL* e = job.easy;
        long status = 0;
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        char* ip = nullptr;
        long port = 0;
        curl_easy_getinfo(e, CURLINFO_PRIMARY_IP, &ip);
        curl_easy_getinfo(e, CURLINFO_PRIMARY_PORT, &port);
        r.peer = ip && *ip && options_.show_ip ? "[IP: " + std::string(ip) + " " + std::to_string(port) + "]" : "";
        curl_off_t filetime = -1;
        curl_easy_getinfo(e, CURLINFO_FILETIME_T, &filetime);
        if (filetime >= 0) r.last_modified = std::time_t(filetime);
        long unmet = 0;
        curl_easy_getinfo(e, CURLINFO_CONDITION_UNMET, &unmet);
        release(job);
        --active_;
        --per_host_[job.host];

        bool retry = false;
        // The kept bytes cannot be continued (416, a range other than
        // asked), or the continued file failed its checks: once more, all of it.
        bool restart = false;
        const uint64_t kept = job.sink->resumed_from();
        r.error.clear();
        r.not_found = false;
        r.transient = false;
        if (job.restart_needed || (status == 416 && kept > 0)) {
            restart = true;
        } else if (job.too_long) {
            // The Content-Length said it: against the Release's size, apt's
            // size message; against a mere bound, what the bound was.
            r.error = job.request->expected_size
                          ? "File has unexpected size (" + std::to_string(job.content_length) +
                                " != " + std::to_string(*job.request->expected_size) + "). Mirror sync in progress?"
                          : "File has unexpected size (announced more than " + std::to_string(job.sink->limit()) +
                                " bytes). Mirror sync in progress?";
        } else if (job.sink_failed) {
            r.error = job.sink->error();
        } else if (rc != CURLE_OK) {
            r.error = job.errbuf[0] ? job.errbuf : curl_easy_strerror(rc);
            if (rc == CURLE_PEER_FAILED_VERIFICATION) r.error = certificate_failure(r.error);
            retry = transient_curl(rc);
        } else if (status == 304 || unmet) {
            r.status = FetchStatus::NotModified;
        } else if (status >= 200 && status < 300) {
            r.status = job.sink->commit() ? FetchStatus::Ok : FetchStatus::Failed;
            if (r.status == FetchStatus::Failed) {
                r.error = job.sink->error();
                r.received_hash_hex = job.sink->received_hash_hex();
                restart = kept > 0 && failed_its_checks(r);
            }
        } else {
            r.error = std::to_string(status) + "  " + (job.reason.empty() ? "Error" : job.reason);
            r.not_found = status == 404 || status == 410;
            retry = transient_http(status);
        }
        if (restart && !job.restarted) {
            job.sink->discard(true);
            job.resume = false;
            job.restarted = true;
            r = FetchResult{};
            job.not_before = Clock::now();
            pending_.push_front(&job);
            return;
        }
        if (!r.error.empty()) r.status = FetchStatus::Failed;
        r.transient = retry;
        r.resumed_from = job.sink->resumed_from();
        r.bytes = job.sink->bytes() - r.resumed_from;
        if (r.status != FetchStatus::Ok) job.sink->discard(failed_its_checks(r));
        if (retry && job.attempts <= options_.retries + (job.restarted ? 1u : 0u)) {
            unsigned delay = 0;
            if (options_.retry_delay) {
                delay = 1000u << std::min(job.attempts - 1, 15u);
                delay = std::min(delay, options_.retry_delay_max_ms);
            }
            job.not_before = Clock::now() + std::chrono::milliseconds(delay);
            pending_.push_back(&job);
            return;
        }
        done(job);
    }

    // file: and copy: are read here, through the same sink as a download.
    void run_local(Job& job) {
        FetchResult& r = job.result;
        const FetchRequest& req = *job.request;
        std::string path = local_path(req.uri);
        struct stat st{};
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            int err = errno;
            if (fd >= 0) ::close(fd);
            r.status = FetchStatus::Failed;
            r.not_found = fd < 0 && err == ENOENT;
            r.error = r.not_found ? "File not found - " + path + " (" + std::to_string(err) + ": " + std::strerror(err) + ")"
                                  : system_error("cannot read", path, fd < 0 ? err : EISDIR).what();
            done(job);
            return;
        }
        r.last_modified = st.st_mtime;
        const bool unchanged = !req.if_same_as.empty() ? same_bytes(fd, st, req.if_same_as)
                                                       : req.if_modified_since && st.st_mtime <= *req.if_modified_since;
        if (unchanged) {
            ::close(fd);
            r.status = FetchStatus::NotModified;
            done(job);
            return;
        }
        // A local file of another size than the Release announces is the
        // wrong file: apt's file method hands it over whole and the hash
        // check says so, received hash and size included. Hashed here,
        // never copied.
        if (req.expected_size && uint64_t(st.st_size) != *req.expected_size && req.hash != HashAlgo::None) {
            Hasher hasher(req.hash);
            std::string chunk(1 << 18, '\0');
            ssize_t n;
            while ((n = ::read(fd, chunk.data(), chunk.size())) > 0 || (n < 0 && errno == EINTR))
                if (n > 0) hasher.update({chunk.data(), size_t(n)});
            ::close(fd);
            r.bytes = uint64_t(st.st_size);
            r.error = "Hash Sum mismatch";
            r.received_hash_hex = hasher.hex();
            r.status = FetchStatus::Failed;
            done(job);
            return;
        }
        job.sink->start();
        std::string buf(1 << 18, '\0');
        bool ok = true;
        for (;;) {
            ssize_t n = ::read(fd, buf.data(), buf.size());
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                r.error = system_error("cannot read", path, errno).what();
                ok = false;
                break;
            }
            if (n == 0) break;
            if (!job.sink->write({buf.data(), size_t(n)})) {
                r.error = job.sink->error();
                ok = false;
                break;
            }
        }
        ::close(fd);
        r.bytes = job.sink->bytes();
        if (ok && !job.sink->commit()) {
            r.error = job.sink->error();
            r.received_hash_hex = job.sink->received_hash_hex();
            ok = false;
        }
        r.status = ok ? FetchStatus::Ok : FetchStatus::Failed;
        if (!ok) job.sink->discard(failed_its_checks(r));
        done(job);
    }

    void done(Job& job) {
        job.result.attempts = job.attempts;
        job.result.seconds = std::chrono::duration<double>(Clock::now() - job.started).count();
        results_[job.index] = std::move(job.result);
        ++finished_;
        done_bytes_ += results_[job.index].bytes + results_[job.index].resumed_from;
        done_received_ += results_[job.index].bytes;
        // A file with no announced size counts once it is known.
        if (!job.request->expected_size) expected_ += results_[job.index].bytes;
        if (callback_) {
            FetchEvent ev{FetchEvent::Finished, job.index};
            ev.result = &results_[job.index];
            ev.finished = finished_;
            ev.total = results_.size();
            ev.bytes_done = done_bytes_;
            ev.bytes_expected = expected_;
            callback_(ev);
        }
    }

    void report_progress(bool force) {
        if (!callback_) return;
        auto now = Clock::now();
        if (!force && now - last_progress_ < std::chrono::milliseconds(100)) return;
        last_progress_ = now;
        FetchEvent ev{FetchEvent::Progress};
        ev.bytes_done = done_bytes_;
        ev.bytes_received = done_received_;
        std::vector<const Job*> running;
        for (const auto& job : jobs_)
            if (job->easy) running.push_back(job.get());
        std::stable_sort(running.begin(), running.end(),
                         [](const Job* a, const Job* b) { return a->started < b->started; });
        for (const Job* job : running) {
            const uint64_t bytes = job->sink->bytes();
            ev.bytes_done += bytes;
            ev.bytes_received += bytes - job->sink->resumed_from();
            ActiveTransfer a;
            a.index = job->index;
            a.bytes_done = bytes;
            a.bytes_total = job->request->expected_size.value_or(job->announced);
            ev.active.push_back(std::move(a));
        }
        ev.bytes_expected = expected_;
        ev.finished = finished_;
        ev.total = results_.size();
        callback_(ev);
    }
};

}  // namespace

std::vector<FetchResult> run_transfers(const std::vector<FetchRequest>& requests, const FetchOptions& options,
                                       const FetchCallback& callback, const PartFileHooksFor& hooks) {
    if (requests.empty()) return {};
    Loop loop(requests, options, callback, hooks);
    return loop.run();
}

// The last part of a URI's path: "InRelease", "hello_1.0_amd64.deb".
std::string uri_short_name(std::string_view uri) {
    uri = uri.substr(0, uri.find_first_of("?#"));
    while (uri.size() > 1 && uri.back() == '/') uri.remove_suffix(1);
    size_t slash = uri.rfind('/');
    return std::string(slash == std::string_view::npos ? uri : uri.substr(slash + 1));
}

std::vector<FetchResult> fetch(const std::vector<FetchRequest>& requests, const FetchOptions& options,
                               const FetchCallback& callback) {
    if (requests.empty()) return {};
    // Progress as a person reads it: names, the rate and the time left,
    // measured here, whichever process did the transfers.
    RateMeter meter;
    const auto start = Clock::now();
    FetchCallback told;
    if (callback)
        told = [&](const FetchEvent& ev) {
            if (ev.kind != FetchEvent::Progress) return callback(ev);
            FetchEvent e = ev;
            meter.add(std::chrono::duration<double>(Clock::now() - start).count(), e.bytes_received);
            e.bytes_per_second = meter.rate();
            e.eta_seconds = time_left(e.bytes_done, e.bytes_expected, e.bytes_per_second);
            for (ActiveTransfer& a : e.active)
                if (a.name.empty() && a.index < requests.size()) a.name = uri_short_name(requests[a.index].uri);
            callback(e);
        };
    if (std::any_of(requests.begin(), requests.end(), [](const FetchRequest& r) { return is_cdrom_uri(r.uri); })) {
        // Read as local files, after the disc is mounted (unmounted when done).
        const CdromRequests local(requests, options.cdrom);
        if (options.sandbox) return fetch_sandboxed(local.requests(), options, told);
        return run_transfers(local.requests(), options, told, {});
    }
    if (options.sandbox) return fetch_sandboxed(requests, options, told);
    return run_transfers(requests, options, told, {});
}

// "file:/a/b", "file:///a/b", "copy:/a/b" -> "/a/b".
std::string local_path(std::string_view uri) {
    std::string_view rest = uri.substr(uri.find(':') + 1);
    if (rest.starts_with("//")) {
        rest.remove_prefix(2);
        rest = rest.substr(std::min(rest.find('/'), rest.size()));
    }
    // Percent-escapes are how URIs carry odd bytes; undo them for the file system.
    std::string out;
    for (size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '%' && i + 2 < rest.size() + 0 && isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
            isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
            out += char(std::stoi(std::string(rest.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += rest[i];
        }
    }
    return out;
}

bool readable_by(const std::string& path, uid_t uid, gid_t gid) {
    // Every directory on the way needs search permission, the file read
    // permission, each for the owner, the group or others as they apply.
    auto allowed = [&](const struct stat& st, mode_t owner_bit, mode_t group_bit, mode_t other_bit) {
        if (st.st_uid == uid) return (st.st_mode & owner_bit) != 0;
        if (st.st_gid == gid) return (st.st_mode & group_bit) != 0;
        return (st.st_mode & other_bit) != 0;
    };
    struct stat st {};
    for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1))
        if (::stat(path.substr(0, slash).c_str(), &st) != 0 || !allowed(st, S_IXUSR, S_IXGRP, S_IXOTH)) return false;
    return ::stat(path.c_str(), &st) == 0 && allowed(st, S_IRUSR, S_IRGRP, S_IROTH);
}

std::string part_path(const FetchRequest& request) {
    return request.partial.empty() ? request.destination + ".part" : request.partial;
}

bool is_local_uri(std::string_view uri) { return uri.starts_with("file:") || uri.starts_with("copy:"); }

bool failed_its_checks(const FetchResult& r) {
    return r.status == FetchStatus::Failed &&
           (r.error == "Hash Sum mismatch" || r.error.starts_with("File has unexpected size") ||
            r.error.starts_with("Writing more data than expected") ||
            r.error.starts_with("Decompressed data larger than expected"));
}

FetchOptions fetch_options(const config::Config& config) {
    FetchOptions o;
    long per_host = config.find_int("Aptus::Acquire::Max-Per-Host", 4);
    o.max_per_host = unsigned(std::max(1L, per_host));
    o.max_total = unsigned(std::max(1L, config.find_int("Aptus::Acquire::Max-Total", o.max_total)));
    if (to_lower(config.find("Acquire::Queue-Mode", "host")) == "access") {
        // apt's "access" mode: one queue per method, so one transfer at a time.
        o.max_per_host = 1;
        o.max_total = 1;
    }
    o.show_ip = config.find_bool("Acquire::Failure::ShowIP", true);
    o.retries = unsigned(std::max(0L, config.find_int("Acquire::Retries", 3)));
    o.retry_delay = config.find_bool("Acquire::Retries::Delay", true);
    o.retry_delay_max_ms = unsigned(std::max(0L, config.find_int("Acquire::Retries::Delay::Maximum", 30))) * 1000u;
    o.timeout_s = std::max(1L, config.find_int("Acquire::http::Timeout", 30));
    auto proxy = [&](std::string_view scheme) -> std::optional<std::string> {
        std::string key = "Acquire::" + std::string(scheme) + "::Proxy";
        if (!config.exists(key)) return std::nullopt;
        std::string value = config.find(key);
        if (value == "DIRECT" || value.empty()) return std::string();
        return value;
    };
    o.http_proxy = proxy("http");
    o.https_proxy = proxy("https");
    o.user_agent = config.find("Acquire::http::User-Agent", "aptus/" "0.1");
    auto tls = [&](const std::string& prefix, const TlsOptions& fallback) {
        TlsOptions t;
        t.ca_info = config.find(prefix + "CAInfo", fallback.ca_info);
        t.verify_peer = config.find_bool(prefix + "Verify-Peer", fallback.verify_peer);
        t.verify_host = config.find_bool(prefix + "Verify-Host", fallback.verify_host);
        return t;
    };
    o.tls = tls("Acquire::https::", {});
    // With its slash, as apt's Acquire::cdrom::<mount>/:: keys spell it.
    o.cdrom.mount_point = config.find("Acquire::cdrom::mount", o.cdrom.mount_point);
    if (o.cdrom.mount_point.empty() || o.cdrom.mount_point.back() != '/') o.cdrom.mount_point += '/';
    o.cdrom.mount_command = config.find("Acquire::cdrom::" + o.cdrom.mount_point + "::Mount");
    o.cdrom.umount_command = config.find("Acquire::cdrom::" + o.cdrom.mount_point + "::UMount");
    if (::geteuid() == 0) {
        // apt's rule: as root, the downloads run as the sandbox user if it
        // exists; "" or "root" turns the sandbox off.
        std::string user = config.find("APT::Sandbox::User", "_apt");
        if (!user.empty() && user != "root") {
            if (const passwd* pw = ::getpwnam(user.c_str()))
                o.sandbox = SandboxUser{user, pw->pw_uid, pw->pw_gid};
            else
                o.sandbox_warning = "No sandbox user '" + user + "' on the system, can not drop privileges";
        }
    }
    for (const auto& [name, value] : config.children("Acquire::https")) {
        std::string prefix = "Acquire::https::" + name + "::";
        if (config.exists(prefix + "CAInfo") || config.exists(prefix + "Verify-Peer") ||
            config.exists(prefix + "Verify-Host"))
            o.tls_by_host[to_lower(name)] = tls(prefix, o.tls);
    }
    return o;
}

const TlsOptions& FetchOptions::tls_for(std::string_view host) const {
    auto it = tls_by_host.find(to_lower(host));
    return it == tls_by_host.end() ? tls : it->second;
}

}  // namespace aptus::acquire
