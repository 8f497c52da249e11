// A package as a command line names it: "name[:arch][=version|/release]",
// taken apart (apt's syntax for install, show, source, build-dep, ...).
#pragma once

#include <string>
#include <string_view>

namespace aptus::deb {

struct PackageWord {
    std::string name, arch;  // arch "" when not given
    std::string version;     // after '='
    std::string release;     // after '/'
};

PackageWord parse_package_word(std::string_view word);

}  // namespace aptus::deb
