// apt's history.log: the expected texts are entries apt-get 2.6 wrote on a
// sandbox (captured byte for byte), so format and parse are checked against
// apt itself.
#include "aptus/system/history_log.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>

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

HistoryItem item(std::string p, std::string old_v, std::string new_v, bool automatic = false) {
    return {std::move(p), std::move(old_v), std::move(new_v), automatic};
}

config::Config log_config(const test::TempDir& dir) {
    config::Config c;
    config::set_builtin_defaults(c);
    c.set("Dir", dir.path() + "/");
    return c;
}

}  // namespace

TEST(HistoryLog, FormatsInstallAsApt) {
    HistoryEntry e;
    e.start_date = e.end_date = "2026-12-03  19:05:15";
    e.commandline = "apt-get install -y -q ./pkgs/tiny_1.0_amd64.deb";
    e.install = {item("tiny:amd64", "", "1.0"), item("tinydep:amd64", "", "1.0", true)};
    EXPECT_EQ(system::format_history(e), apt_install);
}

TEST(HistoryLog, FormatsRequestedByAndUpgradeAsApt) {
    HistoryEntry e;
    e.start_date = "2026-12-03  19:05:20";
    e.end_date = "2026-12-03  19:05:21";
    e.commandline = "apt-get install -y -q ./pkgs/tiny_2.0_amd64.deb other";
    e.requested_by = "cloudsdk (1000)";
    e.install = {item("other:amd64", "", "1.0")};
    e.upgrade = {item("tiny:amd64", "1.0", "2.0")};
    EXPECT_EQ(system::format_history(e), apt_sudo_upgrade);
}

TEST(HistoryLog, FormatsEveryActionInAptsOrder) {
    HistoryEntry e;
    e.start_date = "2026-12-03  19:06:23";
    e.end_date = "2026-12-03  19:06:25";
    e.commandline = "apt-get install -y -q --reinstall --allow-downgrades pa pb=0.9 pd- pg=2.0 pc";
    // Filled in another order than apt writes them: the order is format_history's.
    e.remove = {item("pd:amd64", "1.0", "")};
    e.downgrade = {item("pb:amd64", "1.0", "0.9")};
    e.upgrade = {item("pa:amd64", "1.0", "2.0"), item("pg:amd64", "1.0", "2.0")};
    e.reinstall = {item("pc:amd64", "", "1.0")};
    EXPECT_EQ(system::format_history(e), apt_mixed);
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
    EXPECT_EQ(system::history_commandline({"apt-get", "install", "-y", "-q", "./pkgs/bad_1.0_amd64.deb", "-o",
                                           "Foo::Bar=x y", "-o", "Q=it's"}),
              "apt-get install -y -q ./pkgs/bad_1.0_amd64.deb -o Foo::Bar='x y' -o Q=its");
    EXPECT_EQ(system::history_commandline({"apt-get", "install", "other", "-oA=b\"c d"}), "apt-get install other -oA=bc d");
    EXPECT_EQ(system::history_commandline({"apt-get", "install", "--option", "Z=a b", "-o", "Y=a'b c", "-oX=a'b", "-o",
                                           "W=\"q\"", "-o", "V=a\"b", "-q=1"}),
              "apt-get install --option Z=a b -o Y='ab c' -oX=ab -o W=q -o V=ab -q=1");
    EXPECT_EQ(system::history_commandline({"/usr/bin/apt-get", "-o", "Y=a b=c"}), "/usr/bin/apt-get -o Y='a b=c'");
}

TEST(HistoryLog, DateAsApt) {
    const char* old_tz = std::getenv("TZ");
    std::string saved = old_tz ? old_tz : "";
    ::setenv("TZ", "UTC", 1);
    ::tzset();
    EXPECT_EQ(system::history_date(1706704496), "2024-01-31  12:34:56");
    if (old_tz) ::setenv("TZ", saved.c_str(), 1);
    else ::unsetenv("TZ");
    ::tzset();
}

TEST(HistoryLog, RequestedByFromSudoOrPkexec) {
    const char* sudo = std::getenv("SUDO_UID");
    const char* pkexec = std::getenv("PKEXEC_UID");
    const char* sudo_user = std::getenv("SUDO_USER");
    std::string saved_user = sudo_user ? sudo_user : "";
    std::string saved_sudo = sudo ? sudo : "", saved_pkexec = pkexec ? pkexec : "";
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
    if (sudo) ::setenv("SUDO_UID", saved_sudo.c_str(), 1);
    else ::unsetenv("SUDO_UID");
    if (pkexec) ::setenv("PKEXEC_UID", saved_pkexec.c_str(), 1);
    else ::unsetenv("PKEXEC_UID");
    if (sudo_user) ::setenv("SUDO_USER", saved_user.c_str(), 1);
    else ::unsetenv("SUDO_USER");
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

TEST(HistoryLog, ReadsRotatedLogsOldestFirst) {
    test::TempDir dir("history");
    config::Config c = log_config(dir);
    // logrotate's layout: .1 stays plain one round (delaycompress), older ones are gzipped.
    dir.write("var/log/apt/history.log.3", apt_install);
    ASSERT_EQ(std::system(("gzip -9n " + dir.file("var/log/apt/history.log.3")).c_str()), 0);
    dir.write("var/log/apt/history.log.2", apt_sudo_upgrade);
    ASSERT_EQ(std::system(("gzip -9n " + dir.file("var/log/apt/history.log.2")).c_str()), 0);
    dir.write("var/log/apt/history.log.10", apt_purge);
    ASSERT_EQ(std::system(("gzip -9n " + dir.file("var/log/apt/history.log.10")).c_str()), 0);
    dir.write("var/log/apt/history.log.1", apt_mixed);
    dir.write("var/log/apt/history.log", apt_error);
    dir.write("var/log/apt/history.log.old", apt_install);  // not a rotation: ignored
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
