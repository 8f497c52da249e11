// The dpkg driver: how operations become dpkg calls, how --status-fd lines
// become progress, what the Pre-Install-Pkgs hooks read, and whole runs of
// real dpkg on .debs built here, in a sandbox root with its own database
// (never the host's).
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/subprocess.hpp"
#include "aptus/system/dpkg_lock.hpp"
#include "aptus/system/dpkg_run.hpp"
#include "aptus/system/dpkg_run_detail.hpp"
#include "support/test_support.hpp"

namespace aptus::system {
namespace {

using Lines = std::vector<std::vector<std::string>>;

DpkgOperation op(DpkgAction a, std::string package, std::string version = "1", std::string archive = "") {
    DpkgOperation o;
    o.action = a;
    o.package = std::move(package);
    o.version = std::move(version);
    o.archive = std::move(archive);
    return o;
}

config::Config plain_config() {
    config::Config c;
    c.set("Dir::Bin::dpkg", "/usr/bin/dpkg");
    c.set("DPkg::Options::", "--root=/r");
    return c;
}

TEST(DpkgCommandLines, ConsecutiveActionsShareACallAndTriggersWaitForTheEnd) {
    auto c = plain_config();
    std::vector<DpkgOperation> ops = {
        op(DpkgAction::Remove, "old:amd64"),        op(DpkgAction::Unpack, "a:all", "1", "/d/a.deb"),
        op(DpkgAction::Unpack, "b:amd64", "2", "/d/b.deb"), op(DpkgAction::Configure, "a:all"),
        op(DpkgAction::Configure, "b:amd64"),       op(DpkgAction::Purge, "gone:amd64"),
    };
    Lines expected = {
        {"/usr/bin/dpkg", "--root=/r", "--no-triggers", "--force-depends", "--remove", "old:amd64"},
        {"/usr/bin/dpkg", "--root=/r", "--no-triggers", "--unpack", "--auto-deconfigure", "/d/a.deb", "/d/b.deb"},
        {"/usr/bin/dpkg", "--root=/r", "--no-triggers", "--configure", "a:all", "b:amd64"},
        {"/usr/bin/dpkg", "--root=/r", "--no-triggers", "--force-depends", "--purge", "gone:amd64"},
        {"/usr/bin/dpkg", "--root=/r", "--configure", "--pending"},
    };
    EXPECT_EQ(dpkg_command_lines(c, ops), expected);
}

TEST(DpkgCommandLines, EssentialRemovalIsForcedOnlyWhereAllowed) {
    auto c = plain_config();
    auto ess = op(DpkgAction::Remove, "ess:amd64");
    ess.essential = true;
    auto lines = dpkg_command_lines(c, {op(DpkgAction::Remove, "plain:amd64")});
    EXPECT_EQ(std::count(lines[0].begin(), lines[0].end(), "--force-remove-essential"), 0);
    lines = dpkg_command_lines(c, {op(DpkgAction::Remove, "plain:amd64"), ess});
    EXPECT_EQ(std::count(lines[0].begin(), lines[0].end(), "--force-remove-essential"), 1);
}

TEST(DpkgCommandLines, LongListsAreSplitAtMaxArgBytes) {
    auto c = plain_config();
    c.set("Dpkg::MaxArgBytes", "200");
    c.set("DPkg::NoTriggers", "false");
    c.set("DPkg::ConfigurePending", "false");
    std::vector<DpkgOperation> ops;
    for (int i = 0; i < 10; ++i)
        ops.push_back(op(DpkgAction::Unpack, "p" + std::to_string(i) + ":amd64", "1",
                         "/var/cache/apt/archives/package-number-" + std::to_string(i) + ".deb"));
    auto lines = dpkg_command_lines(c, ops);
    ASSERT_GT(lines.size(), 1u);
    size_t files = 0;
    for (const auto& l : lines) {
        size_t bytes = std::string_view("--status-fd").size() + 2;
        for (const auto& a : l) bytes += a.size();
        // The call stops at the first file that reaches the limit.
        EXPECT_LT(bytes - l.back().size(), 200u);
        files += l.size() - 4;
    }
    EXPECT_EQ(files, 10u);
}

TEST(DpkgCommandLines, RelativeArchivesAreRefused) {
    EXPECT_THROW(dpkg_command_lines(plain_config(), {op(DpkgAction::Unpack, "a:all", "1", "a.deb")}), Error);
}

TEST(DpkgStatusTracker, CountsStepsAsAptDoes) {
    std::vector<DpkgOperation> ops = {op(DpkgAction::Unpack, "aa:all", "1.0", "/d/aa.deb"),
                                      op(DpkgAction::Configure, "aa:all", "1.0")};
    detail::DpkgStatusTracker t(ops, {});
    EXPECT_EQ(t.total(), 5u);  // 2 + 2 + the step that never comes
    auto u = t.line("processing: install: aa");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "Preparing aa (all)");
    EXPECT_DOUBLE_EQ(u->percent, 0.0);
    u = t.line("status: aa: half-installed");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "Unpacking aa (all)");
    EXPECT_DOUBLE_EQ(u->percent, 20.0);
    EXPECT_TRUE(t.line("status: aa: unpacked"));
    EXPECT_FALSE(t.line("status: aa: unpacked"));  // dpkg repeats the state it starts from
    EXPECT_TRUE(t.line("status: aa: half-configured"));
    u = t.line("status: aa: installed");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "Installed aa (all)");
    EXPECT_DOUBLE_EQ(u->percent, 80.0);
    EXPECT_FALSE(t.line("status: /d/bb.deb : error : pre-dependency problem - not installing bb"));
    ASSERT_EQ(t.errors().size(), 1u);
    EXPECT_EQ(t.errors()[0], "/d/bb.deb: pre-dependency problem - not installing bb");
    EXPECT_FALSE(t.line("garbage"));
}

TEST(DpkgStatusTracker, PurgeOfAnInstalledPackagePassesTheRemoveStatesFirst) {
    std::map<std::string, detail::DpkgInstalled> installed = {{"aa:all", {"1.0", "all", "none", "installed"}}};
    detail::DpkgStatusTracker t({op(DpkgAction::Purge, "aa:all", "1.0")}, installed);
    EXPECT_EQ(t.total(), 5u);
    for (auto s : {"half-configured", "half-installed", "config-files", "not-installed"})
        EXPECT_TRUE(t.line(std::string("status: aa: ") + s)) << s;
    EXPECT_EQ(t.done(), 4u);
    // Nothing to wait for when dpkg does not know the package at all.
    detail::DpkgStatusTracker none({op(DpkgAction::Purge, "zz:all", "1"), op(DpkgAction::Remove, "zz:all", "1")},
                                   installed);
    EXPECT_EQ(none.total(), 1u);
    // An unpacked package skips half-configured on removal; apt does not count it.
    installed["aa:all"].state = "unpacked";
    detail::DpkgStatusTracker r({op(DpkgAction::Remove, "aa:all", "1.0")}, installed);
    EXPECT_EQ(r.total(), 2u);
    EXPECT_TRUE(r.line("status: aa: half-installed"));
}

TEST(PreInstallInfo, VersionTwoAndThreeLines) {
    config::Config c;
    c.set("Some::Key", "a value=with \"quotes\"");
    std::map<std::string, detail::DpkgInstalled> installed = {
        {"up:amd64", {"1.0", "amd64", "same", "installed"}},
        {"gone:all", {"3", "all", "none", "installed"}},
    };
    auto unpack = op(DpkgAction::Unpack, "up:amd64", "2.0", "/d/up.deb");
    unpack.multi_arch = "same";
    auto configure = op(DpkgAction::Configure, "up:amd64", "2.0");
    configure.multi_arch = "same";
    std::vector<DpkgOperation> ops = {unpack, op(DpkgAction::Unpack, "new:amd64", "1", "/d/new.deb"), configure,
                                      op(DpkgAction::Remove, "gone:all", "3")};
    EXPECT_EQ(detail::pre_install_info(c, ops, installed, 2),
              "VERSION 2\n"
              "Some::Key=a%20value=with%20\"quotes\"\n"
              "\n"
              "up 1.0 < 2.0 /d/up.deb\n"
              "new - < 1 /d/new.deb\n"
              "up 1.0 < 2.0 **CONFIGURE**\n"
              "gone 3 > - **REMOVE**\n");
    EXPECT_EQ(detail::pre_install_info(c, ops, installed, 3),
              "VERSION 3\n"
              "Some::Key=a%20value=with%20\"quotes\"\n"
              "\n"
              "up 1.0 amd64 same < 2.0 amd64 same /d/up.deb\n"
              "new - - none < 1 amd64 none /d/new.deb\n"
              "up 1.0 amd64 same < 2.0 amd64 same **CONFIGURE**\n"
              "gone 3 all none > - - none **REMOVE**\n");
}

// ---- real dpkg in a sandbox root ----

// A small .deb: one file, one conffile, a postinst running `postinst_body`.
std::string make_deb(const test::TempDir& dir, const std::string& name, const std::string& version,
                     const std::string& arch, const std::string& extra_control = "",
                     const std::string& postinst_body = "exit 0") {
    std::string tree = dir.mkdir("build/" + name);
    dir.write("build/" + name + "/DEBIAN/control", "Package: " + name + "\nVersion: " + version +
                                                        "\nArchitecture: " + arch +
                                                        "\nMaintainer: Test <test@example.org>\n" + extra_control +
                                                        "Description: test package " + name + "\n");
    dir.write("build/" + name + "/DEBIAN/conffiles", "/etc/" + name + ".conf\n");
    dir.write("build/" + name + "/DEBIAN/postinst", "#!/bin/sh\n" + postinst_body + "\n");
    ::chmod(dir.file("build/" + name + "/DEBIAN/postinst").c_str(), 0755);
    dir.write("build/" + name + "/etc/" + name + ".conf", "setting=1\n");
    dir.write("build/" + name + "/usr/share/" + name + "/data", name + " " + version + "\n");
    std::string deb = dir.file(name + "_" + version + "_" + arch + ".deb");
    auto r = run_subprocess({"dpkg-deb", "--root-owner-group", "-Zgzip", "-b", tree, deb});
    if (!r.success()) throw std::runtime_error("dpkg-deb failed: " + r.err);
    return deb;
}

struct Sandbox {
    test::TempDir dir{"dpkgrun"};
    std::string root = dir.path();
    config::Config config;

    Sandbox() {
        for (auto d : {"var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "var/log/apt"})
            dir.mkdir(d);
        dir.write("var/lib/dpkg/status", "");
        dir.write("var/lib/dpkg/available", "");
        config.set("Dir::State::status", root + "/var/lib/dpkg/status");
        config.set("Dir::Log::Terminal", root + "/var/log/apt/term.log");
        config.set("Dir::Bin::dpkg", "/usr/bin/dpkg");
        config.set("DPkg::Options::", "--root=" + root);
        // Maintainer scripts run with the host's /bin/sh: the sandbox has none.
        config.set("DPkg::Options::", "--force-script-chrootless");
        config.set("DPkg::Options::", "--log=" + root + "/var/log/dpkg.log");
        if (::geteuid() != 0) config.set("DPkg::Options::", "--force-not-root");
    }
    SubprocessResult dpkg(std::vector<std::string> args) const {
        std::vector<std::string> argv = {"dpkg", "--root=" + root, "--force-script-chrootless"};
        if (::geteuid() != 0) argv.push_back("--force-not-root");
        argv.insert(argv.end(), args.begin(), args.end());
        return run_subprocess(argv);
    }
    std::string state(const std::string& package) const {
        auto r = run_subprocess({"dpkg-query", "--admindir=" + root + "/var/lib/dpkg", "-W", "-f=${db:Status-Abbrev}",
                                 package});
        return r.out;
    }
};

struct Recorder {
    std::vector<double> percents;
    std::vector<std::string> texts;
    std::string output;
    DpkgObserver observer() {
        DpkgObserver o;
        o.progress = [this](double p, std::string_view t) {
            percents.push_back(p);
            texts.emplace_back(t);
        };
        o.output = [this](std::string_view b) { output.append(b); };
        return o;
    }
};

TEST(RunDpkg, InstallsTwoPackagesWithAPreDependsAndRemovesAndPurgesThem) {
    Sandbox s;
    std::string aa = make_deb(s.dir, "aa", "1.0", "all");
    std::string bb = make_deb(s.dir, "bb", "2.0", "amd64", "Pre-Depends: aa\n");
    Recorder rec;
    DpkgLock lock(s.config);
    run_dpkg(s.config,
             {op(DpkgAction::Unpack, "aa:all", "1.0", aa), op(DpkgAction::Configure, "aa:all", "1.0"),
              op(DpkgAction::Unpack, "bb:amd64", "2.0", bb), op(DpkgAction::Configure, "bb:amd64", "2.0")},
             rec.observer(), &lock);
    EXPECT_EQ(s.state("aa"), "ii ");
    EXPECT_EQ(s.state("bb"), "ii ");
    EXPECT_NE(rec.output.find("Setting up bb (2.0)"), std::string::npos) << rec.output;
    ASSERT_FALSE(rec.percents.empty());
    EXPECT_TRUE(std::is_sorted(rec.percents.begin(), rec.percents.end()));
    EXPECT_LT(rec.percents.back(), 100.0);
    EXPECT_DOUBLE_EQ(rec.percents.back(), 800.0 / 9.0);  // 8 of 9 steps
    EXPECT_NE(std::find(rec.texts.begin(), rec.texts.end(), "Installed bb (amd64)"), rec.texts.end());
    EXPECT_TRUE(s.dpkg({"--audit"}).out.empty());

    // term.log: apt's framing around dpkg's own words.
    std::string log = read_file(s.root + "/var/log/apt/term.log");
    EXPECT_EQ(log.rfind("\nLog started: ", 0), 0u) << log;
    EXPECT_NE(log.find("Unpacking aa (1.0) ...\n"), std::string::npos);
    EXPECT_NE(log.find("\nLog ended: "), std::string::npos);
    EXPECT_EQ(log.back(), '\n');

    run_dpkg(s.config, {op(DpkgAction::Remove, "bb:amd64", "2.0")}, rec.observer(), &lock);
    EXPECT_EQ(s.state("bb"), "rc ");
    EXPECT_TRUE(path_exists(s.root + "/etc/bb.conf"));
    run_dpkg(s.config, {op(DpkgAction::Purge, "bb:amd64", "2.0"), op(DpkgAction::Purge, "aa:all", "1.0")},
             rec.observer(), &lock);
    EXPECT_FALSE(path_exists(s.root + "/etc/bb.conf"));
    EXPECT_FALSE(path_exists(s.root + "/etc/aa.conf"));
    EXPECT_EQ(s.state("aa"), "");
    EXPECT_TRUE(s.dpkg({"--audit"}).out.empty());
}

TEST(RunDpkg, AFailingPostinstIsAptsErrorAndRecoverable) {
    Sandbox s;
    std::string cc = make_deb(s.dir, "cc", "1", "all", "", "echo cc postinst fails >&2\nexit 1");
    Recorder rec;
    try {
        run_dpkg(s.config, {op(DpkgAction::Unpack, "cc:all", "1", cc), op(DpkgAction::Configure, "cc:all", "1")},
                 rec.observer());
        FAIL() << "dpkg succeeded although the postinst fails";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "Sub-process /usr/bin/dpkg returned an error code (1)");
    }
    EXPECT_NE(rec.output.find("cc postinst fails"), std::string::npos) << rec.output;
    EXPECT_EQ(s.state("cc"), "iF ");
    EXPECT_FALSE(s.dpkg({"--audit"}).out.empty());
    // Fixed script, dpkg's own recovery.
    s.dir.write("var/lib/dpkg/info/cc.postinst", "#!/bin/sh\nexit 0\n");
    ::chmod(s.dir.file("var/lib/dpkg/info/cc.postinst").c_str(), 0755);
    EXPECT_TRUE(s.dpkg({"--configure", "-a"}).success());
    EXPECT_EQ(s.state("cc"), "ii ");
}

TEST(RunDpkg, HooksRunAroundDpkgAndReadTheirInput) {
    Sandbox s;
    std::string aa = make_deb(s.dir, "aa", "1.0", "all");
    std::string out = s.dir.mkdir("hooks");
    s.config.set("DPkg::Pre-Invoke::", "echo pre > " + out + "/pre; test ! -e " + s.root + "/etc/aa.conf");
    s.config.set("DPkg::Post-Invoke::", "test -e " + s.root + "/etc/aa.conf && echo post > " + out + "/post");
    s.config.set("DPkg::Pre-Install-Pkgs::", "cat > " + out + "/v1");
    s.config.set("DPkg::Pre-Install-Pkgs::", "sh -c 'cat > " + out + "/v2; echo $APT_HOOK_INFO_FD > " + out +
                                                 "/fd; echo ${DPKG_FRONTEND_LOCKED:-unset} > " + out + "/locked'");
    s.config.set("DPkg::Tools::Options::sh::Version", "2");
    Recorder rec;
    DpkgLock lock(s.config);
    run_dpkg(s.config, {op(DpkgAction::Unpack, "aa:all", "1.0", aa), op(DpkgAction::Configure, "aa:all", "1.0")},
             rec.observer(), &lock);
    EXPECT_EQ(read_file(out + "/pre"), "pre\n");
    EXPECT_EQ(read_file(out + "/post"), "post\n");
    EXPECT_EQ(read_file(out + "/v1"), aa + "\n");
    std::string v2 = read_file(out + "/v2");
    EXPECT_EQ(v2.rfind("VERSION 2\n", 0), 0u);
    EXPECT_NE(v2.find("\nDPkg::Tools::Options::sh::Version=2\n"), std::string::npos);
    EXPECT_NE(v2.find("\n\naa - < 1.0 " + aa + "\naa - < 1.0 **CONFIGURE**\n"), std::string::npos) << v2;
    EXPECT_EQ(read_file(out + "/fd"), "0\n");
    EXPECT_EQ(read_file(out + "/locked"), "true\n");
}

TEST(RunDpkg, AFailingPreInvokeStopsBeforeDpkg) {
    Sandbox s;
    std::string aa = make_deb(s.dir, "aa", "1.0", "all");
    s.config.set("DPkg::Pre-Invoke::", "exit 3");
    Recorder rec;
    try {
        run_dpkg(s.config, {op(DpkgAction::Unpack, "aa:all", "1.0", aa)}, rec.observer());
        FAIL() << "went on after a failing Pre-Invoke";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "Problem executing scripts DPkg::Pre-Invoke 'exit 3'\nE: Sub-process returned an error code");
    }
    EXPECT_EQ(s.state("aa"), "");
}

TEST(RunDpkg, AFailingPreInstallPkgsHookIsAptsError) {
    Sandbox s;
    std::string aa = make_deb(s.dir, "aa", "1.0", "all");
    s.config.set("DPkg::Pre-Install-Pkgs::", "cat >/dev/null; exit 2");
    Recorder rec;
    try {
        run_dpkg(s.config, {op(DpkgAction::Unpack, "aa:all", "1.0", aa)}, rec.observer());
        FAIL() << "went on after a failing Pre-Install-Pkgs hook";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "Sub-process cat >/dev/null; exit 2 returned an error code (2)\nE: Failure running script "
                  "cat >/dev/null; exit 2");
    }
    EXPECT_EQ(s.state("aa"), "");
}


// apt's dpkgpm opens term.log with mode 0640 (set on every open, whatever
// the umask or an earlier chmod made of it) and, as root, root:adm.
mode_t mode_of(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

struct Umask {
    explicit Umask(mode_t m) : old(::umask(m)) {}
    ~Umask() { ::umask(old); }
    mode_t old;
};

TEST(TermLog, ModeIsAptsWhateverTheUmask) {
    test::TempDir dir("termlog");
    Umask strict(077);
    std::string path = dir.file("term.log");
    int fd = detail::open_term_log(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    EXPECT_EQ(mode_of(path), 0640u);
    ::chmod(path.c_str(), 0666);
    fd = detail::open_term_log(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    EXPECT_EQ(mode_of(path), 0640u);
    EXPECT_EQ(detail::open_term_log(dir.file("no/such/dir/term.log")), -1);
}

TEST(TermLog, AsRootOwnedByRootAndGroupAdm) {
    if (::getuid() != 0) GTEST_SKIP() << "needs root (CI runs as root)";
    test::TempDir dir("termlog");
    std::string path = dir.write("term.log", "old\n");
    ASSERT_EQ(::chown(path.c_str(), 0, 0), 0);
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    int fd = detail::open_term_log(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 0u);
    const struct group* adm = ::getgrnam("adm");
    // apt leaves the group alone where there is no adm group.
    EXPECT_EQ(st.st_gid, adm ? adm->gr_gid : 0u);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    EXPECT_EQ(read_file(path), "old\n");  // appended to, never truncated
}

}  // namespace
}  // namespace aptus::system
