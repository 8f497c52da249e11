// The control file of a binary package (.deb, .ddeb), read from the file
// itself: an ar archive whose control.tar member (in any compression dpkg
// writes) holds ./control. What `apt install ./foo.deb` and `apt show
// ./foo.deb` read before the package can join the cache.
#pragma once

#include <string>

namespace aptus::deb {

// The text of the package's control file as written in it. Throws
// aptus::Error with apt's lines ("Invalid archive signature", "Internal
// error, could not locate member control.tar{...}") for a file that is no
// .deb or has no control member; the caller adds which file it was.
std::string read_deb_control(const std::string& path);

}  // namespace aptus::deb
