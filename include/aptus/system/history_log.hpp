// apt's history log (Dir::Log::History, by default
// /var/log/apt/history.log): one entry per run that changed packages, in
// apt's exact text, so apt's tools and users' greps read aptus's entries and
// `aptus history` reads apt's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"

namespace aptus::system {

struct HistoryItem {
    std::string package;  // "name:arch"
    std::string old_version, new_version;  // Install: new only; Remove/Purge: old only
    bool automatic = false;                // ", automatic" (Install only, as apt writes it)
};

struct HistoryEntry {
    std::string start_date, end_date;  // "2024-01-31  12:34:56" (two spaces, local time)
    std::string commandline;           // "apt-get install hello"
    std::string requested_by;          // "user (1000)"; "" when not run through sudo
    std::string comment;               // APT::History::Comment; "" for none
    std::vector<HistoryItem> install, reinstall, upgrade, downgrade, remove, purge;
    std::string error;                 // "Sub-process /usr/bin/dpkg returned an error code (1)"
};

// Dir::Log::History resolved under Dir::Log, as apt resolves it.
std::string history_log_path(const config::Config& config);

// apt's date form for Start-Date and End-Date, in local time.
std::string history_date(long long unix_time);

// apt's Commandline text for a program's argv: every ' and " dropped, and
// an argument after "-o" that holds a space written as key='value'
// (`apt-get install -o "A=x y"` logs `apt-get install -o A='x y'`).
std::string history_commandline(const std::vector<std::string>& argv);

// What a Commandline says was done, for a list of entries: the command and
// its words, without the program and the options that say where or how
// quietly it ran rather than what it did: --root DIR, -c/--config-file
// FILE, -o of Dir..., Debug::... and quiet, -y/--yes/--assume-yes,
// -q/--quiet (also joined, "-qy"). Quoted values ("-o A='x y'") are one
// word. "aptus --root /srv/x -o Dir::Cache=/c install -y hello" gives
// "install hello"; a line of nothing else gives itself.
std::string history_command_summary(std::string_view commandline);

// apt's Requested-By: "user (1000)" for the uid in SUDO_UID, else
// PKEXEC_UID (the user's name from the password database, not SUDO_USER);
// "" when neither is set, the uid is 0, or the uid has no user.
std::string history_requested_by();

// The entry's text as apt writes it, starting with its blank line.
std::string format_history(const HistoryEntry& entry);

// Appends the entry to the history log, creating the file (0644, as apt
// leaves it) and its directory when missing, and flushes it to disk.
// Nothing is written when Dir::Log::History is "/dev/null" or empty. Throws
// aptus::Error naming the file when it cannot be written.
void append_history(const config::Config& config, const HistoryEntry& entry);

// Every entry of history.log.N.gz (highest N first: the oldest), then
// history.log.N, then history.log, oldest entry first. Unknown fields are
// ignored, so apt's entries and future fields read back; an entry without
// Start-Date is skipped.
std::vector<HistoryEntry> read_history(const config::Config& config);

// Reads entries from one file's text (already decompressed).
std::vector<HistoryEntry> parse_history(std::string_view text);

}  // namespace aptus::system
