#include "aptus/deb/package_word.hpp"

namespace aptus::deb {

PackageWord parse_package_word(std::string_view word) {
    PackageWord w;
    std::string_view rest = word;
    if (size_t eq = rest.find('='); eq != std::string_view::npos) {
        w.version = std::string(rest.substr(eq + 1));
        rest = rest.substr(0, eq);
    } else if (size_t sl = rest.find('/'); sl != std::string_view::npos) {
        w.release = std::string(rest.substr(sl + 1));
        rest = rest.substr(0, sl);
    }
    if (size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
        w.arch = std::string(rest.substr(colon + 1));
        rest = rest.substr(0, colon);
    }
    w.name = std::string(rest);
    return w;
}

}  // namespace aptus::deb
