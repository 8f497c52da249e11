#include "aptus/base/error.hpp"

#include <cstring>

namespace aptus {

Error Error::with_context(std::string_view context) const {
    std::string msg(context);
    msg += ": ";
    msg += what();
    Error e(msg, kind_);
    for (const auto& m : followed_by_) e.add_followup(m);
    e.apt_text_ = apt_text_;  // apt adds no such context
    return e;
}

Error file_error(std::string_view file, unsigned line, std::string_view message) {
    std::string msg(file);
    if (line != 0) {
        msg += ':';
        msg += std::to_string(line);
    }
    msg += ": ";
    msg += message;
    return Error(msg);
}

Error system_error(std::string_view what, std::string_view path, int errnum) {
    std::string msg(what);
    msg += ' ';
    msg += path;
    msg += ": ";
    msg += std::strerror(errnum);
    return Error(msg);
}

}  // namespace aptus
