// apt's numbered item lines, the words of its failure messages and the
// level a check's finding is reported at.
#include "updater.hpp"

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

}  // namespace

std::vector<std::string> failure_details(const FetchResult& r) {
    std::string line = reason(r);
    if (!r.peer.empty()) line += " " + r.peer;
    return {line};
}

std::string failed_to_fetch(const std::string& uri, const FetchResult& r) {
    std::string text = "Failed to fetch " + uri + "  " + reason(r);
    if (!r.peer.empty()) text += " " + r.peer;
    return text;
}

void append_hash_details(const FetchRequest& r, std::vector<std::string>& details) {
    details.push_back("Hashes of expected file:");
    if (r.expected_size) details.push_back(" - Filesize:" + std::to_string(*r.expected_size) + " [weak]");
    details.push_back(" - " + std::string(hash_algo_name(r.hash)) + ":" + r.hash_hex);
}

UpdateMessage::Level level_of(CheckResult::Level l) {
    switch (l) {
        case CheckResult::Level::Error: return UpdateMessage::Error;
        case CheckResult::Level::Warning: return UpdateMessage::Warning;
        default: return UpdateMessage::Notice;
    }
}

}  // namespace aptus::acquire
