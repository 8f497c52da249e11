#include "cdrom.hpp"

#include <sys/stat.h>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/base/subprocess.hpp"

namespace aptus::acquire {
namespace {

// "cdrom://Debian 12 Disc 1/pool/x.deb" -> {"Debian 12 Disc 1", "/pool/x.deb"}.
std::pair<std::string, std::string> label_and_path(std::string_view uri) {
    std::string_view rest = uri.substr(uri.find(':') + 1);
    if (rest.starts_with("//")) rest.remove_prefix(2);
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return {std::string(rest), "/"};
    return {std::string(rest.substr(0, slash)), std::string(rest.substr(slash))};
}

// A file: URI for a path as it is: '%' is the one byte local_path() reads
// specially (a lists file name holds "%20" for the blanks of a label).
std::string file_uri(std::string_view path) {
    std::string out = "file:";
    for (char c : path) out += c == '%' ? std::string("%25") : std::string(1, c);
    return out;
}

// A disc is there when it looks like one: what apt-cdrom reads (.disk/, dists/).
bool disc_present(const std::string& mount_point) {
    return path_exists(mount_point + ".disk") || path_exists(mount_point + "dists");
}

void run_shell(const std::string& command, const std::string& what) {
    SubprocessOptions o;
    o.inherit_stderr = true;
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", command}, o);
    if (!r.success()) throw Error(what + ": '" + command + "' failed");
}

}  // namespace

bool is_cdrom_uri(std::string_view uri) { return uri.starts_with("cdrom:"); }

CdromRequests::CdromRequests(const std::vector<FetchRequest>& requests, const CdromOptions& options)
    : options_(options), requests_(requests) {
    try {
        for (FetchRequest& r : requests_) {
            if (!is_cdrom_uri(r.uri)) continue;
            // An index apt-cdrom copied: the copy is what the disc holds.
            if (!r.if_same_as.empty() && path_exists(r.if_same_as)) {
                r.uri = file_uri(r.if_same_as);
                continue;
            }
            auto [label, path] = label_and_path(r.uri);
            r.uri = file_uri(disc(label) + path.substr(1));
        }
    } catch (const Error&) {
        unmount();  // a wrong disc goes out again
        throw;
    }
}

CdromRequests::~CdromRequests() { unmount(); }

void CdromRequests::unmount() {
    if (!we_mounted_) return;
    we_mounted_ = false;
    try {
        if (!options_.umount_command.empty()) run_shell(options_.umount_command, "Unable to unmount the CD-ROM");
        else run_subprocess({"umount", options_.mount_point});
    } catch (const Error&) {
        // apt goes on too: the files are read, the disc merely stays in.
    }
}

const std::string& CdromRequests::disc(std::string_view label) {
    if (!mounted_) {
        const std::string& mount_point = options_.mount_point;
        if (!disc_present(mount_point)) {
            if (!options_.mount_command.empty())
                run_shell(options_.mount_command, "Unable to mount the CD-ROM at " + mount_point);
            else if (!run_subprocess({"mount", mount_point}).success())
                throw Error("Unable to mount the CD-ROM at " + mount_point);
            we_mounted_ = true;
        }
        mounted_ = mount_point;
    }
    // apt-cdrom names a disc by its .disk/info; a disc without one cannot
    // be told apart, as with apt.
    if (const std::string info_file = *mounted_ + ".disk/info"; path_exists(info_file)) {
        const std::string info(trim(read_file(info_file)));
        if (info != label)
            throw Error("Wrong CD-ROM in " + *mounted_ + ": it is '" + info + "', not '" + std::string(label) + "'");
    }
    return *mounted_;
}

}  // namespace aptus::acquire
