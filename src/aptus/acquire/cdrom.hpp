// cdrom: sources, as apt-cdrom writes them ("deb cdrom:[Debian 12 Disc 1]/
// bookworm main", which the sources turn into "cdrom://Debian 12 Disc 1/").
// A disc is read as a local directory: the one Acquire::cdrom::mount names.
//
// As apt's cdrom method: an index file apt-cdrom already copied into the
// lists is a hit without touching the disc (update works with the disc out
// of the drive); anything else (a .deb, a source file, an index not copied)
// is read from the disc, mounted for the run by Acquire::cdrom::<mount>/::Mount
// (a shell command; else mount(8)) when it is not there, and unmounted again
// afterwards (::UMount, else umount(8)).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/acquire/fetcher.hpp"

namespace aptus::acquire {

bool is_cdrom_uri(std::string_view uri);

// The fetch requests with every cdrom: URI made a file: one (an index's
// stored copy, or the file on the mounted disc); the disc is unmounted when
// this goes, if it was mounted for it.
class CdromRequests {
public:
    CdromRequests(const std::vector<FetchRequest>& requests, const CdromOptions& options);
    ~CdromRequests();
    CdromRequests(const CdromRequests&) = delete;
    CdromRequests& operator=(const CdromRequests&) = delete;

    const std::vector<FetchRequest>& requests() const { return requests_; }

private:
    // The mount point with the disc labelled `label` in it; throws
    // aptus::Error when it cannot be mounted or holds another disc.
    const std::string& disc(std::string_view label);
    // Runs the unmount command, once, if the disc was mounted here.
    void unmount();

    CdromOptions options_;
    std::vector<FetchRequest> requests_;
    std::optional<std::string> mounted_;  // the mount point, once the disc is checked
    bool we_mounted_ = false;
};

}  // namespace aptus::acquire
