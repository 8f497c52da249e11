// apt's history.log: the expected texts are entries apt-get 2.6 wrote on a
// sandbox (captured byte for byte), so format and parse are checked against
// apt itself.
#include "aptus/system/history_log.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <tuple>

#include "aptus/base/file.hpp"
#include "aptus/config/init.hpp"
#include "support/test_support.hpp"

using namespace aptus;
using system::HistoryEntry;
using system::HistoryItem;

namespace {

const char* const apt_install =
    "\nStart-Date: 2026-12-03  19:05:15\n"
    "Commandline: apt-get install -y -q ./pkgs/tiny_1.0_amd64.deb\n"
    "Install: tiny:amd64 (1.0), tinydep:amd64 (1.0, automatic)\n"
    "End-Date: 2026-12-03  19:05:15\n";

const char* const apt_sudo_upgrade =
    "\nStart-Date: 2026-12-03  19:05:20\n"
    "Commandline: apt-get install -y -q ./pkgs/tiny_2.0_amd64.deb other\n"
    "Requested-By: cloudsdk (1000)\n"
    "Install: other:amd64 (1.0)\n"
    "Upgrade: tiny:amd64 (1.0, 2.0)\n"
    "End-Date: 2026-12-03  19:05:21\n";

const char* const apt_mixed =
    "\nStart-Date: 2026-12-03  19:06:23\n"
    "Commandline: apt-get install -y -q --reinstall --allow-downgrades pa pb=0.9 pd- pg=2.0 pc\n"
    "Reinstall: pc:amd64 (1.0)\n"
    "Upgrade: pa:amd64 (1.0, 2.0), pg:amd64 (1.0, 2.0)\n"
    "Downgrade: pb:amd64 (1.0, 0.9)\n"
    "Remove: pd:amd64 (1.0)\n"
    "End-Date: 2026-12-03  19:06:25\n";

const char* const apt_error =
    "\nStart-Date: 2026-12-03  19:05:30\n"
    "Commandline: apt-get install -y -q ./pkgs/bad_1.0_amd64.deb ./pkgs/tiny_1.0_amd64.deb -o Foo::Bar='x y' -o Q=its\n"
    "Install: bad:amd64 (1.0), tiny:amd64 (1.0), tinydep:amd64 (1.0, automatic)\n"
    "Error: Sub-process /usr/bin/dpkg returned an error code (1)\n"
    "End-Date: 2026-12-03  19:05:31\n";

const char* const apt_purge =
    "\nStart-Date: 2026-12-03  19:05:23\n"
    "Commandline: apt-get autoremove -y --purge tiny other\n"
    "Purge: other:amd64 (1.0), tiny:amd64 (1.0), tinydep:amd64 (1.0)\n"
    "End-Date: 2026-12-03  19:05:24\n";

// An entry with apt's dates and command line; the caller adds the actions.
HistoryEntry entry(std::string start, std::string end, std::string commandline) {
    HistoryEntry e;
    e.start_date = std::move(start);
    e.end_date = std::move(end);
    e.commandline = std::move(commandline);
    return e;
}

HistoryItem item(std::string p, std::string old_v, std::string new_v, bool automatic = false) {
    return {std::move(p), std::move(old_v), std::move(new_v), automatic};
}

config::Config log_config(const test::TempDir& dir) {
    config::Config c;
    config::set_builtin_defaults(c);
    c.set("Dir", dir.path() + "/");
    return c;
}

// Puts an environment variable back as it was when the scope ends.
class KeepEnv {
public:
    explicit KeepEnv(const char* name) : name_(name), had_(std::getenv(name) != nullptr) {
        if (had_) value_ = std::getenv(name);
    }
    ~KeepEnv() {
        if (had_)
            ::setenv(name_, value_.c_str(), 1);
        else
            ::unsetenv(name_);
    }
    KeepEnv(const KeepEnv&) = delete;
    KeepEnv& operator=(const KeepEnv&) = delete;

private:
    const char* name_;
    bool had_;
    std::string value_;
};

}  // namespace

// Entries filled in as the code that logs fills them must come out as apt
// wrote them; format_history puts the actions in apt's order (Reinstall,
// Upgrade, Downgrade, Remove), not the order the fields were filled in.
TEST(HistoryLog, FormatsAsApt) {
    HistoryEntry install =
        entry("2026-12-03  19:05:15", "2026-12-03  19:05:15", "apt-get install -y -q ./pkgs/tiny_1.0_amd64.deb");
    install.install = {item("tiny:amd64", "", "1.0"), item("tinydep:amd64", "", "1.0", true)};
    HistoryEntry upgrade =
        entry("2026-12-03  19:05:20", "2026-12-03  19:05:21", "apt-get install -y -q ./pkgs/tiny_2.0_amd64.deb other");
    upgrade.requested_by = "cloudsdk (1000)";
    upgrade.install = {item("other:amd64", "", "1.0")};
    upgrade.upgrade = {item("tiny:amd64", "1.0", "2.0")};
    HistoryEntry mixed = entry("2026-12-03  19:06:23", "2026-12-03  19:06:25",
                               "apt-get install -y -q --reinstall --allow-downgrades pa pb=0.9 pd- pg=2.0 pc");
    mixed.remove = {item("pd:amd64", "1.0", "")};
    mixed.downgrade = {item("pb:amd64", "1.0", "0.9")};
    mixed.upgrade = {item("pa:amd64", "1.0", "2.0"), item("pg:amd64", "1.0", "2.0")};
    mixed.reinstall = {item("pc:amd64", "", "1.0")};
    for (const auto& [name, e, apt_text] : {std::tuple{"install", &install, apt_install},
                                            std::tuple{"Requested-By and Upgrade", &upgrade, apt_sudo_upgrade},
                                            std::tuple{"every action", &mixed, apt_mixed}})
        EXPECT_EQ(system::format_history(*e), apt_text) << name;
}

TEST(HistoryLog, FormatsErrorAndComment) {
    HistoryEntry e = system::parse_history(apt_error).at(0);
    EXPECT_EQ(system::format_history(e), apt_error);
    e.comment = "a note";
    e.requested_by = "root (0)";
    std::string text = system::format_history(e);
    // APT 3.0 writes Comment after Requested-By.
    EXPECT_NE(text.find("Requested-By: root (0)\nComment: a note\nInstall: "), std::string::npos) << text;
}

TEST(HistoryLog, ParsesAptEntriesBack) {
    std::string all = std::string(apt_install) + apt_sudo_upgrade + apt_mixed + apt_error + apt_purge;
    auto entries = system::parse_history(all);
    ASSERT_EQ(entries.size(), 5u);
    EXPECT_EQ(entries[0].install.size(), 2u);
    EXPECT_EQ(entries[0].install[1].package, "tinydep:amd64");
    EXPECT_EQ(entries[0].install[1].new_version, "1.0");
    EXPECT_TRUE(entries[0].install[1].automatic);
    EXPECT_FALSE(entries[0].install[0].automatic);
    EXPECT_EQ(entries[1].requested_by, "cloudsdk (1000)");
    EXPECT_EQ(entries[1].upgrade.at(0).old_version, "1.0");
    EXPECT_EQ(entries[1].upgrade.at(0).new_version, "2.0");
    EXPECT_EQ(entries[2].downgrade.at(0).new_version, "0.9");
    EXPECT_EQ(entries[2].remove.at(0).old_version, "1.0");
    EXPECT_EQ(entries[2].reinstall.at(0).new_version, "1.0");
    EXPECT_EQ(entries[3].error, "Sub-process /usr/bin/dpkg returned an error code (1)");
    EXPECT_EQ(entries[4].purge.size(), 3u);
    std::string again;
    for (const auto& e : entries) again += system::format_history(e);
    EXPECT_EQ(again, all);
}

TEST(HistoryLog, ParseToleratesOddEntries) {
    auto entries = system::parse_history(
        "Start-Date: 2024-01-01  10:00:00\nCommandline: apt install a\nInstall: a:amd64 (1)\n"
        // dpkg was killed: no End-Date, and the next run's entry follows at once
        "Start-Date: 2024-01-02  10:00:00\r\nCommandline: apt install b\r\nX-Future: whatever\r\n"
        "Install: b:amd64 (2:1.0-1~bpo12+1, automatic), c:amd64\r\nEnd-Date: 2024-01-02  10:00:01\r\n\n\n"
        "garbage without colon\n\nCommandline: no start date\n");
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].end_date, "");
    EXPECT_EQ(entries[0].install.at(0).new_version, "1");
    EXPECT_EQ(entries[1].install.at(0).new_version, "2:1.0-1~bpo12+1");
    EXPECT_TRUE(entries[1].install.at(0).automatic);
    EXPECT_EQ(entries[1].install.at(1).package, "c:amd64");
}

TEST(HistoryLog, CommandlineAsApt) {
    // What apt-get 2.6 logged for these argv vectors.
    struct Case {
        std::vector<std::string> argv;
        const char* logged;
    };
    const Case cases[] = {
        {{"apt-get", "install", "-y", "-q", "./pkgs/bad_1.0_amd64.deb", "-o", "Foo::Bar=x y", "-o", "Q=it's"},
         "apt-get install -y -q ./pkgs/bad_1.0_amd64.deb -o Foo::Bar='x y' -o Q=its"},
        {{"apt-get", "install", "other", "-oA=b\"c d"}, "apt-get install other -oA=bc d"},
        {{"apt-get", "install", "--option", "Z=a b", "-o", "Y=a'b c", "-oX=a'b", "-o", "W=\"q\"", "-o", "V=a\"b",
          "-q=1"},
         "apt-get install --option Z=a b -o Y='ab c' -oX=ab -o W=q -o V=ab -q=1"},
        {{"/usr/bin/apt-get", "-o", "Y=a b=c"}, "/usr/bin/apt-get -o Y='a b=c'"},
    };
    for (const Case& c : cases) EXPECT_EQ(system::history_commandline(c.argv), c.logged) << c.argv.back();
}

TEST(HistoryLog, DateAsApt) {
    {
        KeepEnv tz("TZ");
        ::setenv("TZ", "UTC", 1);
        ::tzset();
        EXPECT_EQ(system::history_date(1706704496), "2024-01-31  12:34:56");
    }
    ::tzset();  // the zone KeepEnv put back
}

TEST(HistoryLog, RequestedByFromSudoOrPkexec) {
    KeepEnv sudo("SUDO_UID"), pkexec("PKEXEC_UID"), sudo_user("SUDO_USER");
    ::unsetenv("SUDO_UID");
    ::unsetenv("PKEXEC_UID");
    EXPECT_EQ(system::history_requested_by(), "");
    // Debian's base-passwd gives uid 1 to daemon and 2 to bin.
    ::setenv("PKEXEC_UID", "1", 1);
    EXPECT_EQ(system::history_requested_by(), "daemon (1)");
    ::setenv("SUDO_UID", "2", 1);
    ::setenv("SUDO_USER", "someone-else", 1);  // apt takes the name from the uid
    EXPECT_EQ(system::history_requested_by(), "bin (2)");
    ::setenv("SUDO_UID", "0", 1);  // root as root: apt 2.6 writes no line
    EXPECT_EQ(system::history_requested_by(), "");
    ::setenv("SUDO_UID", "4242999", 1);  // no such user: no line either
    EXPECT_EQ(system::history_requested_by(), "");
}

TEST(HistoryLog, AppendCreatesLogAndReadsBack) {
    test::TempDir dir("history");
    config::Config c = log_config(dir);
    EXPECT_EQ(system::history_log_path(c), dir.file("var/log/apt/history.log"));
    EXPECT_TRUE(system::read_history(c).empty());
    system::append_history(c, system::parse_history(apt_install).at(0));
    system::append_history(c, system::parse_history(apt_sudo_upgrade).at(0));
    EXPECT_EQ(read_file(dir.file("var/log/apt/history.log")), std::string(apt_install) + apt_sudo_upgrade);
    struct stat st {};
    ASSERT_EQ(::stat(dir.file("var/log/apt/history.log").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
    auto back = system::read_history(c);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[1].requested_by, "cloudsdk (1000)");
}

// apt's dpkgpm sets 0644 on history.log every time it opens it, whatever
// the umask or an earlier chmod made of it; a root run creates it root:root.
TEST(HistoryLog, ModeIsAptsWhateverTheUmask) {
    test::TempDir dir("history");
    config::Config c = log_config(dir);
    mode_t old = ::umask(077);
    system::append_history(c, system::parse_history(apt_install).at(0));
    std::string path = dir.file("var/log/apt/history.log");
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644u);
    if (::getuid() == 0) {
        EXPECT_EQ(st.st_uid, 0u);
        EXPECT_EQ(st.st_gid, 0u);
    }
    ::chmod(path.c_str(), 0600);
    system::append_history(c, system::parse_history(apt_sudo_upgrade).at(0));
    ::umask(old);
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644u);
    EXPECT_EQ(system::read_history(c).size(), 2u);
}

TEST(HistoryLog, ReadsRotatedLogsOldestFirst) {
    test::TempDir dir("history");
    config::Config c = log_config(dir);
    // logrotate's layout: .1 stays plain one round (delaycompress), older ones are gzipped.
    struct Log {
        const char* suffix;
        const char* text;
        bool gzipped;
    };
    for (const Log& log : {Log{".3", apt_install, true}, Log{".2", apt_sudo_upgrade, true}, Log{".10", apt_purge, true},
                           Log{".1", apt_mixed, false}, Log{"", apt_error, false},
                           Log{".old", apt_install, false}}) {  // .old: not a rotation, ignored
        std::string path = "var/log/apt/history.log" + std::string(log.suffix);
        dir.write(path, log.text);
        if (log.gzipped) {
            ASSERT_EQ(std::system(("gzip -9n " + dir.file(path)).c_str()), 0) << path;
        }
    }
    auto entries = system::read_history(c);
    ASSERT_EQ(entries.size(), 5u);
    EXPECT_EQ(entries[0].start_date, "2026-12-03  19:05:23");  // .10.gz
    EXPECT_EQ(entries[1].start_date, "2026-12-03  19:05:15");  // .3.gz
    EXPECT_EQ(entries[2].start_date, "2026-12-03  19:05:20");  // .2.gz
    EXPECT_EQ(entries[3].start_date, "2026-12-03  19:06:23");  // .1
    EXPECT_EQ(entries[4].start_date, "2026-12-03  19:05:30");  // history.log
}

TEST(HistoryLog, DevNullWritesNothing) {
    test::TempDir dir("history");
    config::Config c = log_config(dir);
    c.set("Dir::Log::History", "/dev/null");
    system::append_history(c, system::parse_history(apt_install).at(0));
    EXPECT_FALSE(path_exists(dir.file("var/log/apt")));
}

TEST(HistoryLog, CommandSummaryKeepsWhatWasDone) {
    using system::history_command_summary;
    EXPECT_EQ(history_command_summary("/usr/bin/aptus --root /srv/chroot install -y hello"), "install hello");
    EXPECT_EQ(history_command_summary("aptus --root=/srv/x -o Dir::Cache=/c -o Debug::NoLocking=1 -qq remove foo"),
              "remove foo");
    EXPECT_EQ(history_command_summary("apt-get -c /tmp/apt.conf --config-file=/x -oDir=/r -qy --yes install a b"),
              "install a b");
    // Settings that say what was done stay; a quoted value is one word.
    EXPECT_EQ(history_command_summary("apt-get install -o APT::Install-Recommends=false -o A='x y' -o Dir='/a b' hello"),
              "install -o APT::Install-Recommends=false -o A='x y' hello");
    EXPECT_EQ(history_command_summary("apt-get --purge -s remove nano"), "--purge -s remove nano");
    EXPECT_EQ(history_command_summary("aptus history rollback 1 -y --allow-downgrades"),
              "history rollback 1 --allow-downgrades");
    // Nothing left: the line as it is.
    EXPECT_EQ(history_command_summary("unattended-upgrade"), "unattended-upgrade");
    EXPECT_EQ(history_command_summary(""), "");
}
