#include "cli/json_error.hpp"

#include <nlohmann/json.hpp>

namespace aptus::cli {

std::string_view error_kind_name(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Other: return "other";
    case ErrorKind::Locked: return "locked";
    case ErrorKind::Network: return "network";
    case ErrorKind::Verification: return "verification";
    case ErrorKind::Unsolvable: return "unsolvable";
    case ErrorKind::Dpkg: return "dpkg";
    }
    return "other";
}

std::string error_json(std::string_view command, const Error& error) {
    std::string message = error.what();
    for (const std::string& more : error.followed_by()) message += "\n" + more;
    nlohmann::ordered_json out;
    out["schema_version"] = 1;
    out["command"] = command;
    out["error"] = {{"kind", error_kind_name(error.kind())}, {"message", message}};
    return out.dump(2) + "\n";
}

}  // namespace aptus::cli
