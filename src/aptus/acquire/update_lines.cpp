// apt's numbered item lines, the words of its failure messages and the
// level a check's finding is reported at.
#include "updater.hpp"

#include <ctime>

namespace aptus::acquire {

unsigned Lines::emit(UpdateLine::Kind kind, const std::string& description, uint64_t size,
                     std::vector<std::string> details, unsigned number) {
    UpdateLine line{kind, number ? number : ++last_, description, size, std::move(details)};
    if (observer_.line) observer_.line(line);
    return line.number;
}

bool redirect_loop(const FetchResult& r) {
    // curl's words for CURLE_TOO_MANY_REDIRECTS: "Maximum (10) redirects followed".
    return r.status == FetchStatus::Failed && r.error.starts_with("Maximum (") &&
           r.error.find(") redirects followed") != std::string::npos;
}

namespace {

// apt's reason first ("Redirection loop encountered"), curl's after it.
std::string reason(const FetchResult& r) {
    return redirect_loop(r) ? "Redirection loop encountered (" + r.error + ")" : r.error;
}

// apt names the server of a transport failure; a file that arrived and
// then failed its checks is the file's fault, said without it.
bool checked_after_transfer(const FetchResult& r) {
    return r.error == "Hash Sum mismatch" || r.error.starts_with("File has unexpected size (");
}

std::string rfc1123(std::time_t t) {
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    return buf;
}

}  // namespace

std::vector<std::string> failure_details(const FetchResult& r) {
    std::string line = reason(r);
    if (!r.peer.empty() && !checked_after_transfer(r)) line += " " + r.peer;
    return {line};
}

std::string failed_to_fetch(const std::string& uri, const FetchResult& r) {
    std::string text = "Failed to fetch " + uri + "  " + reason(r);
    if (!r.peer.empty() && !checked_after_transfer(r)) text += " " + r.peer;
    return text;
}

void append_hash_details(const FetchRequest& request, const FetchResult& r, const std::string& release_date,
                         std::vector<std::string>& details) {
    details.push_back("Hashes of expected file:");
    if (request.expected_size) details.push_back(" - Filesize:" + std::to_string(*request.expected_size) + " [weak]");
    details.push_back(" - " + std::string(hash_algo_name(request.hash)) + ":" + request.hash_hex);
    if (!r.received_hash_hex.empty()) {
        details.push_back("Hashes of received file:");
        details.push_back(" - " + std::string(hash_algo_name(request.hash)) + ":" + r.received_hash_hex);
        details.push_back(" - Filesize:" + std::to_string(r.bytes) + " [weak]");
    }
    if (r.last_modified) details.push_back("Last modification reported: " + rfc1123(*r.last_modified));
    if (auto date = parse_release_date(release_date)) details.push_back("Release file created at: " + rfc1123(std::time_t(*date)));
}

UpdateMessage::Level level_of(CheckResult::Level l) {
    switch (l) {
        case CheckResult::Level::Error: return UpdateMessage::Error;
        case CheckResult::Level::Warning: return UpdateMessage::Warning;
        default: return UpdateMessage::Notice;
    }
}

}  // namespace aptus::acquire
