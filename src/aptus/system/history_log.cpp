// apt's history.log: written as apt's dpkgpm writes it, read back from the
// log and its rotations (logrotate's history.log.N and history.log.N.gz).
#include "aptus/system/history_log.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <ctime>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::system {
namespace {

void append_items(std::string& out, std::string_view tag, const std::vector<HistoryItem>& items, bool install) {
    if (items.empty()) return;
    out += tag;
    out += ": ";
    for (size_t i = 0; i < items.size(); ++i) {
        const HistoryItem& it = items[i];
        if (i) out += ", ";
        out += it.package;
        out += " (";
        if (!it.old_version.empty()) out += it.old_version;
        if (!it.old_version.empty() && !it.new_version.empty()) out += ", ";
        if (!it.new_version.empty()) out += it.new_version;
        if (install && it.automatic) out += ", automatic";
        out += ')';
    }
    out += '\n';
}

// "a:amd64 (1.0), b:amd64 (1.0, 2.0), c:amd64 (1.0, automatic)". Versions
// hold neither ',' nor ')', so the separators cannot be inside one.
std::vector<HistoryItem> parse_items(std::string_view value, bool two_versions, bool old_only) {
    std::vector<HistoryItem> out;
    size_t pos = 0;
    while (pos < value.size()) {
        while (pos < value.size() && (value[pos] == ' ' || value[pos] == ',')) ++pos;
        if (pos >= value.size()) break;
        size_t open = value.find(" (", pos);
        size_t close = open == std::string_view::npos ? open : value.find(')', open);
        HistoryItem item;
        if (close == std::string_view::npos) {  // a name without versions: keep what there is
            size_t comma = value.find(", ", pos);
            item.package = std::string(trim(value.substr(pos, comma == std::string_view::npos ? comma : comma - pos)));
            out.push_back(std::move(item));
            if (comma == std::string_view::npos) break;
            pos = comma + 2;
            continue;
        }
        item.package = std::string(trim(value.substr(pos, open - pos)));
        std::vector<std::string> parts;
        std::string_view inner = value.substr(open + 2, close - open - 2);
        size_t start = 0;
        while (start <= inner.size()) {
            size_t comma = inner.find(',', start);
            std::string_view part = trim(inner.substr(start, comma == std::string_view::npos ? comma : comma - start));
            if (part == "automatic") item.automatic = true;
            else if (!part.empty()) parts.emplace_back(part);
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        if (two_versions && parts.size() >= 2) {
            item.old_version = parts[0];
            item.new_version = parts[1];
        } else if (!parts.empty()) {
            (old_only ? item.old_version : item.new_version) = parts[0];
        }
        out.push_back(std::move(item));
        pos = close + 1;
    }
    return out;
}

void apply_field(HistoryEntry& e, std::string_view name, std::string_view value) {
    if (name == "Start-Date") e.start_date = value;
    else if (name == "End-Date") e.end_date = value;
    else if (name == "Commandline") e.commandline = value;
    else if (name == "Requested-By") e.requested_by = value;
    else if (name == "Comment") e.comment = value;
    else if (name == "Error") e.error = value;
    else if (name == "Install") e.install = parse_items(value, false, false);
    else if (name == "Reinstall") e.reinstall = parse_items(value, false, false);
    else if (name == "Upgrade") e.upgrade = parse_items(value, true, false);
    else if (name == "Downgrade") e.downgrade = parse_items(value, true, false);
    else if (name == "Remove") e.remove = parse_items(value, false, true);
    else if (name == "Purge") e.purge = parse_items(value, false, true);
}

// logrotate's names: history.log.N and history.log.N.gz; 0 for anything else.
unsigned rotation_number(std::string_view file, std::string_view base) {
    if (file.size() <= base.size() + 1 || file.substr(0, base.size()) != base || file[base.size()] != '.') return 0;
    std::string_view rest = file.substr(base.size() + 1);
    if (rest.size() > 3 && rest.substr(rest.size() - 3) == ".gz") rest.remove_suffix(3);
    if (rest.empty() || rest.size() > 6) return 0;
    unsigned n = 0;
    for (char c : rest) {
        if (c < '0' || c > '9') return 0;
        n = n * 10 + unsigned(c - '0');
    }
    return n;
}

void make_directories(const std::string& dir) {
    if (dir.empty() || is_directory(dir)) return;
    size_t slash = dir.find_last_of('/', dir.size() > 1 && dir.back() == '/' ? dir.size() - 2 : std::string::npos);
    if (slash != std::string::npos && slash > 0) make_directories(dir.substr(0, slash));
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) throw system_error("Unable to create directory", dir, errno);
}

}  // namespace

std::string history_log_path(const config::Config& config) { return config.find_file("Dir::Log::History"); }

std::string history_date(long long unix_time) {
    std::time_t t = static_cast<std::time_t>(unix_time);
    std::tm tm{};
    ::localtime_r(&t, &tm);
    char buf[64];
    size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%d  %H:%M:%S", &tm);
    return std::string(buf, n);
}

std::string history_commandline(const std::vector<std::string>& argv) {
    std::string out;
    for (size_t i = 0; i < argv.size(); ++i) {
        std::string arg;
        for (char c : argv[i])
            if (c != '\'' && c != '"') arg += c;
        if (i > 0) {
            out += ' ';
            size_t eq = arg.find('=');
            if (argv[i - 1] == "-o" && arg.find(' ') != std::string::npos && eq != std::string::npos)
                arg = arg.substr(0, eq + 1) + "'" + arg.substr(eq + 1) + "'";
        }
        out += arg;
    }
    return out;
}

namespace {

// A Commandline's words: spaces separate them, except inside '...' (apt
// quotes an -o value with a space so).
std::vector<std::string> command_words(std::string_view line) {
    std::vector<std::string> out;
    std::string word;
    bool quoted = false, any = false;
    for (char c : line) {
        if (c == '\'') quoted = !quoted;
        if (c == ' ' && !quoted) {
            if (any) out.push_back(std::move(word));
            word.clear();
            any = false;
            continue;
        }
        word += c;
        any = true;
    }
    if (any) out.push_back(std::move(word));
    return out;
}

// An -o setting that says where or how verbosely, not what.
bool setting_of_place(std::string_view setting) {
    auto key = setting.substr(0, setting.find('='));
    auto starts = [&](std::string_view prefix) {
        return key.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), key.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
               });
    };
    return starts("Dir") || starts("Debug::") || starts("quiet") || starts("APT::Status-Fd") || starts("APT::Keep-Fds");
}

}  // namespace

std::string history_command_summary(std::string_view commandline) {
    const std::vector<std::string> words = command_words(commandline);
    std::string out;
    auto keep = [&](const std::string& w) {
        if (!out.empty()) out += ' ';
        out += w;
    };
    for (size_t i = 1; i < words.size(); ++i) {
        const std::string& w = words[i];
        const bool has_next = i + 1 < words.size();
        if (w == "--root" || w == "-c" || w == "--config-file") {
            i += has_next;  // its value
            continue;
        }
        if (w.starts_with("--root=") || w.starts_with("--config-file=") || (w.starts_with("-c") && w.size() > 2 && w[1] == 'c'))
            continue;
        if (w == "-o" || w == "--option") {
            if (has_next && setting_of_place(words[i + 1])) ++i;
            else keep(w);
            continue;
        }
        if (w.starts_with("--option=") && setting_of_place(std::string_view(w).substr(9))) continue;
        if (w.starts_with("-o") && w.size() > 2 && !w.starts_with("--") && setting_of_place(std::string_view(w).substr(2)))
            continue;
        if (w == "--yes" || w == "--assume-yes" || w == "--quiet" || w.starts_with("--quiet=") || w.starts_with("-q="))
            continue;
        // -y, -q, -qq, -qy: short flags that are all y and q.
        if (w.size() > 1 && w[0] == '-' && w[1] != '-' &&
            std::all_of(w.begin() + 1, w.end(), [](char c) { return c == 'y' || c == 'q'; }))
            continue;
        keep(w);
    }
    return out.empty() ? std::string(commandline) : out;
}

std::string history_requested_by() {
    for (const char* var : {"SUDO_UID", "PKEXEC_UID"}) {
        const char* value = std::getenv(var);
        if (value == nullptr || *value == 0) continue;
        char* end = nullptr;
        errno = 0;
        unsigned long uid = std::strtoul(value, &end, 10);
        if (errno != 0 || *end != 0) return "";
        // apt names no one when root asked as root.
        if (uid == 0) return "";
        passwd pw{};
        passwd* found = nullptr;
        char buf[4096];
        if (::getpwuid_r(uid_t(uid), &pw, buf, sizeof buf, &found) != 0 || found == nullptr) return "";
        return std::string(found->pw_name) + " (" + std::to_string(uid) + ")";
    }
    return "";
}

std::string format_history(const HistoryEntry& e) {
    std::string out = "\nStart-Date: " + e.start_date + "\n";
    out += "Commandline: " + e.commandline + "\n";
    if (!e.requested_by.empty()) out += "Requested-By: " + e.requested_by + "\n";
    if (!e.comment.empty()) out += "Comment: " + e.comment + "\n";
    append_items(out, "Install", e.install, true);
    append_items(out, "Reinstall", e.reinstall, false);
    append_items(out, "Upgrade", e.upgrade, false);
    append_items(out, "Downgrade", e.downgrade, false);
    append_items(out, "Remove", e.remove, false);
    append_items(out, "Purge", e.purge, false);
    if (!e.error.empty()) out += "Error: " + e.error + "\n";
    out += "End-Date: " + e.end_date + "\n";
    return out;
}

void append_history(const config::Config& config, const HistoryEntry& entry) {
    const std::string path = history_log_path(config);
    if (path.empty() || path == "/dev/null") return;
    size_t slash = path.find_last_of('/');
    if (slash != std::string::npos && slash > 0) make_directories(path.substr(0, slash));
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw system_error("Could not open file", path, errno);
    // apt sets 0644 on every open, whatever the umask made of a new file
    // (the owner is whoever created it: root for a root run, as apt's).
    ::fchmod(fd, 0644);
    const std::string text = format_history(entry);
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int err = errno;
            ::close(fd);
            throw system_error("Write error", path, err);
        }
        done += size_t(n);
    }
    if (::fsync(fd) != 0) {
        int err = errno;
        ::close(fd);
        throw system_error("Could not sync", path, err);
    }
    ::close(fd);
}

std::vector<HistoryEntry> parse_history(std::string_view text) {
    std::vector<HistoryEntry> out;
    HistoryEntry current;
    bool open = false;
    auto finish = [&] {
        if (open && !current.start_date.empty()) out.push_back(std::move(current));
        current = HistoryEntry{};
        open = false;
    };
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (trim(line).empty()) {
            finish();
        } else if (size_t colon = line.find(": "); colon != std::string_view::npos) {
            std::string_view name = line.substr(0, colon);
            // An entry interrupted before its End-Date is followed directly by the next one.
            if (name == "Start-Date" && open) finish();
            apply_field(current, name, line.substr(colon + 2));
            open = true;
        }
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    finish();
    return out;
}

std::vector<HistoryEntry> read_history(const config::Config& config) {
    const std::string path = history_log_path(config);
    std::vector<HistoryEntry> out;
    if (path.empty()) return out;
    size_t slash = path.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);

    std::vector<std::pair<unsigned, std::string>> rotated;  // (N, file name)
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* ent = ::readdir(d))
            if (unsigned n = rotation_number(ent->d_name, base)) rotated.emplace_back(n, ent->d_name);
        ::closedir(d);
    }
    // Oldest first: the highest number; for one number (a plain and a .gz
    // file both present during a rotation) the compressed one first.
    std::sort(rotated.begin(), rotated.end(), [](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return a.second.size() > b.second.size();
    });
    auto add = [&](const std::string& file) {
        std::string text = read_decompressed(file);
        for (HistoryEntry& e : parse_history(text)) out.push_back(std::move(e));
    };
    for (const auto& r : rotated) add(dir + "/" + r.second);
    if (path_exists(path)) add(path);
    return out;
}

}  // namespace aptus::system
