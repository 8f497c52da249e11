// The Description-md5 of a package description, as apt and the archive
// compute it: the MD5 of the whole Description value (short line and long
// lines, as written in the stanza) followed by a newline. It is the key that
// links a Packages record to its Translation-* entries.
#pragma once

#include <string>
#include <string_view>

namespace aptus::deb {

// Lower-case hex.
std::string description_md5(std::string_view description);

}  // namespace aptus::deb
