// APT 3.0's plan display: the captured examples of the reference (section
// 1.8), rebuilt by hand as PlanViews and compared byte for byte, and the
// layout rules around them (columns, -V, colours, purge marks, the essential
// warning, the size lines).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/plan_view.hpp"

namespace aptus::cli {
namespace {

PlanEntry pkg(std::string name, std::string old_version = "", std::string new_version = "") {
    PlanEntry e;
    e.name = std::move(name);
    e.old_version = std::move(old_version);
    e.new_version = std::move(new_version);
    return e;
}

// apt's screen width without a terminal: 79 (the lists get 76).
PlanViewOptions plain() {
    PlanViewOptions o;
    o.width = 79;
    o.native_arch = "amd64";
    return o;
}

std::vector<PlanEntry> many(int n) {
    std::vector<PlanEntry> out;
    // Given in reverse to show the renderer sorts by name.
    for (int i = n; i >= 1; --i) out.push_back(pkg("many-package-name-" + std::to_string(i), "", "1"));
    return out;
}

TEST(PlanView, ExampleA_InstallWithConflictAndHints) {
    PlanView p;
    p.autoremovable_hint = {"autopkg"};
    p.install = {pkg("foo", "", "1")};
    p.install_deps = {pkg("libfoo1", "", "1"), pkg("libbar2", "", "1"), pkg("foo-data", "", "1")};
    p.suggested = {"foo-doc"};
    p.remove = {pkg("conflicted", "1")};
    p.not_upgraded_count = 4;
    p.download_bytes = 0;
    p.archive_bytes = 168;
    p.space_change_bytes = 129000;
    p.space_available = 82500000000ULL;
    EXPECT_EQ(render_plan(p, plain()),
              "The following package was automatically installed and is no longer required:\n"
              "  autopkg\n"
              "Use 'apt autoremove' to remove it.\n"
              "\n"
              "Installing:\n"
              "  foo\n"
              "\n"
              "Installing dependencies:\n"
              "  foo-data  libbar2  libfoo1\n"
              "\n"
              "Suggested packages:\n"
              "  foo-doc\n"
              "\n"
              "REMOVING:\n"
              "  conflicted\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 0, Installing: 4, Removing: 1, Not Upgrading: 4\n"
              "  Download size: 0 B / 168 B\n"
              "  Space needed: 129 kB / 82.5 GB available\n"
              "\n");
}

TEST(PlanView, ExampleB_FullUpgradeSimulated) {
    PlanView p;
    p.autoremovable_hint = {"autopkg"};
    p.upgrade = {pkg("upgr2", "1", "2"), pkg("keepme", "1", "2"), pkg("upgr1", "1", "2")};
    p.install_deps = {pkg("newdep", "", "1")};
    p.not_upgraded = {pkg("held", "1", "2")};
    p.remove = {pkg("conflicted", "1")};
    p.space_change_bytes = 1000;  // not shown when simulating
    PlanViewOptions o = plain();
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "The following package was automatically installed and is no longer required:\n"
              "  autopkg\n"
              "Use 'apt autoremove' to remove it.\n"
              "\n"
              "Upgrading:\n"
              "  keepme  upgr1  upgr2\n"
              "\n"
              "Installing dependencies:\n"
              "  newdep\n"
              "\n"
              "Not upgrading:\n"
              "  held\n"
              "\n"
              "REMOVING:\n"
              "  conflicted\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 3, Installing: 1, Removing: 1, Not Upgrading: 1\n");
}

TEST(PlanView, ExampleC_UpgradeWithPhasing) {
    PlanView p;
    p.upgrade = {pkg("upgr1", "1", "2")};
    p.phased = {pkg("phased", "1", "2")};
    p.not_upgraded = {pkg("keepme", "1", "2")};
    p.archive_bytes = 42;
    p.space_change_bytes = 0;
    p.space_available = 82500000000ULL;
    EXPECT_EQ(render_plan(p, plain()),
              "Upgrading:\n"
              "  upgr1\n"
              "\n"
              "Not upgrading yet due to phasing:\n"
              "  phased\n"
              "\n"
              "Not upgrading:\n"
              "  keepme\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 1, Installing: 0, Removing: 0, Not Upgrading: 2\n"
              "  Download size: 0 B / 42 B\n"
              "  Space needed: 0 B / 82.5 GB available\n"
              "\n");
}

TEST(PlanView, ExampleD_ThirtyDependenciesInColumns) {
    PlanView p;
    p.install_deps = many(30);
    PlanViewOptions o = plain();
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "Installing dependencies:\n"
              "  many-package-name-1   many-package-name-19  many-package-name-28\n"
              "  many-package-name-10  many-package-name-2   many-package-name-29\n"
              "  many-package-name-11  many-package-name-20  many-package-name-3\n"
              "  many-package-name-12  many-package-name-21  many-package-name-30\n"
              "  many-package-name-13  many-package-name-22  many-package-name-4\n"
              "  many-package-name-14  many-package-name-23  many-package-name-5\n"
              "  many-package-name-15  many-package-name-24  many-package-name-6\n"
              "  many-package-name-16  many-package-name-25  many-package-name-7\n"
              "  many-package-name-17  many-package-name-26  many-package-name-8\n"
              "  many-package-name-18  many-package-name-27  many-package-name-9\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 0, Installing: 30, Removing: 0, Not Upgrading: 0\n");
}

TEST(PlanView, ExampleD_ColumnsSixtyMakeTwoColumnsOfFifteen) {
    PlanView p;
    p.install_deps = many(30);
    PlanViewOptions o = plain();
    o.width = 60;  // COLUMNS=60 is used as it is
    o.simulate = true;
    std::string out = render_plan(p, o);
    EXPECT_NE(out.find("Installing dependencies:\n"
                       "  many-package-name-1   many-package-name-23\n"
                       "  many-package-name-10  many-package-name-24\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("  many-package-name-22  many-package-name-9\n\n"), std::string::npos) << out;
    // Title, 15 rows, the blank line, the two summary lines.
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1 + 15 + 1 + 2);
}

TEST(PlanView, ExampleD_NoListColumnsWrapsWords) {
    PlanView p;
    p.install_deps = many(30);
    PlanViewOptions o = plain();
    o.list_columns = false;
    o.simulate = true;
    std::string out = render_plan(p, o);
    EXPECT_EQ(out.substr(0, out.find('\n', 25) + 1),
              "Installing dependencies:\n"
              "  many-package-name-1 many-package-name-10 many-package-name-11\n");
    // Every line stays below the 76 columns a list gets.
    size_t start = 0;
    for (size_t end; (end = out.find('\n', start)) != std::string::npos; start = end + 1)
        EXPECT_LT(end - start, 76u) << out.substr(start, end - start);
    EXPECT_NE(out.find("  many-package-name-7 many-package-name-8 many-package-name-9\n\n"), std::string::npos)
        << out;
}

TEST(PlanView, ExampleE_Downgrade) {
    PlanView p;
    p.downgrade = {pkg("downgr", "2", "1")};
    p.not_upgraded_count = 4;
    PlanViewOptions o = plain();
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "DOWNGRADING:\n"
              "  downgr\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 0, Installing: 0, Downgrading: 1, Removing: 0, Not Upgrading: 4\n");
}

TEST(PlanView, ExampleE_HeldPackageUnderUpgradingAndHeld) {
    PlanView p;
    p.upgrade = {pkg("held", "1", "2")};
    p.held_changes = {pkg("held", "1", "2")};
    PlanViewOptions o = plain();
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "Upgrading:\n"
              "  held\n"
              "\n"
              "Changing held packages:\n"
              "  held\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 1, Installing: 0, Removing: 0, Not Upgrading: 0\n");
}

TEST(PlanView, ExampleE_AutopurgeMarksPurgesAndFreesSpace) {
    PlanView p;
    PlanEntry a = pkg("autopkg2", "1"), b = pkg("autopkg", "1");
    a.purge = b.purge = true;
    p.remove = {a, b};
    p.space_change_bytes = -86000;
    p.space_available = 1000;  // not shown for freed space
    EXPECT_EQ(render_plan(p, plain()),
              "REMOVING:\n"
              "  autopkg*  autopkg2*\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 0, Installing: 0, Removing: 2, Not Upgrading: 0\n"
              "  Freed space: 86.0 kB\n"
              "\n");
}

TEST(PlanView, ExampleE_EssentialWarningAfterRemoving) {
    PlanView p;
    PlanEntry ess = pkg("ess", "1"), dep = pkg("libess", "1"), other = pkg("aaa", "1");
    ess.essential = true;
    dep.essential = true;
    dep.due_to = "ess";
    p.remove = {dep, other, ess};
    p.space_change_bytes = -12000;
    EXPECT_EQ(render_plan(p, plain()),
              "REMOVING:\n"
              "  aaa  ess  libess\n"
              "\n"
              "WARNING: The following essential packages will be removed.\n"
              "This should NOT be done unless you know exactly what you are doing!\n"
              "  ess  libess (due to ess)\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 0, Installing: 0, Removing: 3, Not Upgrading: 0\n"
              "  Freed space: 12.0 kB\n"
              "\n");
}

TEST(PlanView, ExampleG_ColourAroundTheWholeColumnBlock) {
    PlanView p;
    p.upgrade = {pkg("upgr1", "1", "2")};
    PlanViewOptions o = plain();
    o.color = true;
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "Upgrading:\n"
              "\x1b[32m  upgr1\n"
              "\x1b[0m\n"
              "Summary:\n"
              "  Upgrading: 1, Installing: 0, Removing: 0, Not Upgrading: 0\n");
}

TEST(PlanView, ColoursPerBlockAsApt) {
    PlanView p;
    p.upgrade = {pkg("u", "1", "2")};
    p.install = {pkg("i", "", "1")};
    p.install_deps = {pkg("d", "", "1")};
    p.suggested = {"s"};
    p.recommended = {"r"};
    p.not_upgraded = {pkg("k", "1", "2")};
    p.held_changes = {pkg("h", "1", "2")};
    p.downgrade = {pkg("g", "2", "1")};
    PlanEntry x = pkg("x", "1");
    x.essential = true;
    p.remove = {x};
    PlanViewOptions o = plain();
    o.color = true;
    o.simulate = true;
    o.colors.install_deps = "\x1b[36m";  // a user's APT::Color::Action::Install-Dependencies
    EXPECT_EQ(render_plan(p, o),
              "Upgrading:\n\x1b[32m  u\n\x1b[0m\n"
              "Installing:\n\x1b[32m  i\n\x1b[0m\n"
              "Installing dependencies:\n\x1b[36m  d\n\x1b[0m\n"
              "Suggested packages:\n  s\n\n"
              "Recommended packages:\n  r\n\n"
              "Not upgrading:\n  k\n\n"
              "Changing held packages:\n  h\n\n"
              "DOWNGRADING:\n\x1b[33m  g\n\x1b[0m\n"
              "REMOVING:\n\x1b[31m  x\n\x1b[0m\n"
              "WARNING: The following essential packages will be removed.\n"
              "This should NOT be done unless you know exactly what you are doing!\n\x1b[31m  x\n\x1b[0m\n"
              "Summary:\n"
              "  Upgrading: 1, Installing: 2, Downgrading: 1, Removing: 1, Not Upgrading: 1\n");
    o.color = false;
    EXPECT_EQ(render_plan(p, o).find('\x1b'), std::string::npos);
}

TEST(PlanView, VerboseVersionsOnePerLine) {
    PlanView p;
    p.upgrade = {pkg("upgr1", "1.0-1", "1.0-2")};
    p.install = {pkg("foo", "", "2.1")};
    p.suggested = {"foo-doc", "| foo-extra"};
    p.suggested_versions = {"2.1", "0.5"};
    p.not_upgraded = {pkg("keepme", "1", "3")};
    p.downgrade = {pkg("downgr", "2", "1")};
    PlanEntry purged = pkg("conflicted", "4.2");
    purged.purge = true;
    p.remove = {purged};
    PlanViewOptions o = plain();
    o.show_versions = true;
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "Upgrading:\n"
              "   upgr1 (1.0-1 => 1.0-2)\n"
              "\n"
              "Installing:\n"
              "   foo (2.1)\n"
              "\n"
              "Suggested packages:\n"
              "   foo-doc (2.1)\n"
              "   | foo-extra (0.5)\n"
              "\n"
              "Not upgrading:\n"
              "   keepme (1 => 3)\n"
              "\n"
              "DOWNGRADING:\n"
              "   downgr (2 => 1)\n"
              "\n"
              "REMOVING:\n"
              "   conflicted* (4.2)\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 1, Installing: 1, Downgrading: 1, Removing: 1, Not Upgrading: 1\n");
}

TEST(PlanView, VerboseVersionsColourOnlyTheName) {
    PlanView p;
    p.install = {pkg("foo", "", "2.1")};
    p.recommended = {"bar"};  // no versions given: no parentheses
    PlanViewOptions o = plain();
    o.show_versions = true;
    o.color = true;
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "Installing:\n"
              "   \x1b[32mfoo\x1b[0m (2.1)\n"
              "\n"
              "Recommended packages:\n"
              "   bar\n"
              "\n"
              "Summary:\n"
              "  Upgrading: 0, Installing: 1, Removing: 0, Not Upgrading: 0\n");
}

TEST(PlanView, WallOfTextColoursEachName) {
    PlanView p;
    p.remove = {pkg("a", "1"), pkg("b", "1")};
    PlanViewOptions o = plain();
    o.list_columns = false;
    o.color = true;
    o.simulate = true;
    std::string out = render_plan(p, o);
    EXPECT_EQ(out.substr(0, out.find("Summary:")), "REMOVING:\n  \x1b[31ma\x1b[0m \x1b[31mb\x1b[0m\n\n");
}

TEST(PlanView, ForeignArchitecturesShowTheirArch) {
    PlanView p;
    PlanEntry a = pkg("libc6", "", "2"), b = pkg("libc6", "", "2"), c = pkg("tzdata", "", "1");
    a.arch = "i386";
    b.arch = "amd64";
    c.arch = "all";
    p.install_deps = {a, c, b};
    PlanViewOptions o = plain();
    o.simulate = true;
    std::string out = render_plan(p, o);
    EXPECT_EQ(out.substr(0, out.find("Summary:")), "Installing dependencies:\n  libc6  libc6:i386  tzdata\n\n");
}

TEST(PlanView, AutoremoveHintPluralAndSudo) {
    PlanView p;
    p.autoremovable_hint = {"old1", "old2"};
    PlanViewOptions o = plain();
    o.autoremove_command = "sudo apt autoremove";
    o.simulate = true;
    std::string out = render_plan(p, o);
    EXPECT_EQ(out.substr(0, out.find("Summary:")),
              "The following packages were automatically installed and are no longer required:\n"
              "  old1  old2\n"
              "Use 'sudo apt autoremove' to remove them.\n"
              "\n");
}

TEST(PlanView, SummaryCountsReinstallsAndBroken) {
    PlanView p;
    p.reinstall = {pkg("r", "1", "1")};
    p.broken_count = 2;
    p.download_bytes = 12345678;
    p.space_change_bytes = 5;
    EXPECT_EQ(render_plan(p, plain()),
              "Summary:\n"
              "  Upgrading: 0, Installing: 0, Reinstalling: 1, Removing: 0, Not Upgrading: 0\n"
              "  2 not fully installed or removed.\n"
              "  Download size: 12.3 MB\n"
              "  Space needed: 5 B\n"
              "\n");
}

TEST(PlanView, DownloadLineOnlyWhenSomethingToFetch) {
    PlanView p;
    p.install = {pkg("foo", "", "1")};
    p.download_bytes = 9216;
    p.archive_bytes = 9216;  // the same: one number
    p.space_change_bytes = 7369000;
    p.space_available = 4229000000;
    std::string out = render_plan(p, plain());
    EXPECT_NE(out.find("  Download size: 9216 B\n  Space needed: 7369 kB / 4229 MB available\n\n"), std::string::npos)
        << out;
    p.download_bytes = 0;
    p.archive_bytes.reset();
    out = render_plan(p, plain());
    EXPECT_EQ(out.find("Download size"), std::string::npos) << out;
}

TEST(PlanView, BootLine) {
    PlanView p;
    p.install = {pkg("linux-image", "", "1")};
    p.space_change_bytes = 400000000;
    p.space_available = 9000000000;
    p.boot = BootSpace{"/boot", 70000000, 200000000};
    std::string out = render_plan(p, plain());
    EXPECT_NE(out.find("  Space needed: 400 MB / 9000 MB available\n"
                       "  \u2514\u2500 in /boot:  70.0 MB / 200 MB available\n\n"),
              std::string::npos)
        << out;
    PlanViewOptions o = plain();
    o.utf8 = false;
    out = render_plan(p, o);
    EXPECT_NE(out.find("   - in /boot:  70.0 MB / 200 MB available\n"), std::string::npos) << out;
}

TEST(PlanView, NothingToDoStopsAfterTheCounts) {
    PlanView p;
    p.not_upgraded_count = 3;
    p.space_available = 1000;
    EXPECT_EQ(render_plan(p, plain()), "Summary:\n  Upgrading: 0, Installing: 0, Removing: 0, Not Upgrading: 3\n");
}

TEST(PlanView, BlockOrder) {
    PlanView p;
    p.remove = {pkg("r", "1")};
    p.downgrade = {pkg("g", "2", "1")};
    p.held_changes = {pkg("h", "1", "2")};
    p.not_upgraded = {pkg("k", "1", "2")};
    p.phased = {pkg("f", "1", "2")};
    p.recommended = {"rec"};
    p.suggested = {"sug"};
    p.install_deps = {pkg("d", "", "1")};
    p.install = {pkg("i", "", "1")};
    p.upgrade = {pkg("u", "1", "2")};
    p.autoremovable_hint = {"a"};
    std::string out = render_plan(p, plain());
    std::vector<std::string> titles = {"no longer required:", "Upgrading:", "Installing:", "Installing dependencies:",
                                       "Suggested packages:", "Recommended packages:",
                                       "Not upgrading yet due to phasing:", "Not upgrading:",
                                       "Changing held packages:", "DOWNGRADING:", "REMOVING:", "Summary:"};
    size_t last = 0;
    for (const auto& t : titles) {
        size_t at = out.find(t + "\n");
        ASSERT_NE(at, std::string::npos) << t;
        EXPECT_GT(at + 1, last) << t;
        last = at + 1;
    }
}

// Column fitting: the most columns whose widths add up to less than the
// list width (screen width - 3), column-major, two spaces between columns.
std::vector<std::string> names(int n, const std::string& stem) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.push_back(stem + char('a' + i));
    return out;
}

size_t widest_line(const std::string& text) {
    size_t widest = 0, start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        widest = std::max(widest, end - start);
    return widest;
}

TEST(PlanColumns, Width40) {
    // 10 names of 8 characters in a list 37 wide: 3 columns take
    // 10 + 10 + 8 = 28, 4 would take 10 + 10 + 10 + 8 = 38; so 4 rows.
    PlanView p;
    for (const auto& n : names(10, "package")) p.install.push_back(pkg(n, "", "1"));
    PlanViewOptions o = plain();
    o.width = 40;
    o.simulate = true;
    std::string out = render_plan(p, o);
    EXPECT_EQ(out.substr(0, out.find("\n\n") + 2),
              "Installing:\n"
              "  packagea  packagee  packagei\n"
              "  packageb  packagef  packagej\n"
              "  packagec  packageg\n"
              "  packaged  packageh\n"
              "\n");
}

TEST(PlanColumns, Width80And200) {
    std::vector<std::string> items = names(10, "package");
    // A list 77 wide: 10 columns would take 9 * 10 + 8 = 98; 9 columns
    // make 2 rows, filling only 5 columns (5 * 10 + 4 * 2 = 58 < 77).
    std::string at80 = render_columns(items, 77);
    EXPECT_EQ(at80,
              "  packagea  packagec  packagee  packageg  packagei\n"
              "  packageb  packaged  packagef  packageh  packagej\n");
    EXPECT_LT(widest_line(at80), 80u);
    std::string at200 = render_columns(items, 197);
    EXPECT_EQ(at200, "  packagea  packageb  packagec  packaged  packagee  packagef  packageg  packageh  packagei  packagej\n");
}

TEST(PlanColumns, NeverWiderThanTheScreenWhenSomethingFits) {
    std::vector<std::string> items;
    for (int i = 0; i < 57; ++i) items.push_back(std::string(size_t(3 + (i * 7) % 23), char('a' + i % 26)) + std::to_string(i));
    for (unsigned width : {30u, 37u, 40u, 77u, 120u, 197u}) {
        std::string out = render_columns(items, width);
        EXPECT_LT(widest_line(out), width + 2) << width;  // the indent is not counted
        size_t lines = std::count(out.begin(), out.end(), '\n');
        EXPECT_LE(lines, items.size());
        for (const auto& item : items) EXPECT_NE(out.find(item), std::string::npos) << item;
    }
}

TEST(PlanColumns, TooLongNameGetsOneColumn) {
    std::string out = render_columns({std::string(50, 'x'), "b"}, 20);
    EXPECT_EQ(out, "  " + std::string(50, 'x') + "\n  b\n");
}

TEST(PlanColumns, Empty) { EXPECT_EQ(render_columns({}, 76), ""); }

}  // namespace
}  // namespace aptus::cli

namespace aptus::cli {
namespace {

// apt-get's classic layout (APT::Output-Version below 30), as the APT test
// suite expects it: no blank lines, names wrapped one space apart, apt-get's
// order of blocks and its counts and size sentences.
TEST(PlanView, ClassicLayoutAsAptGet) {
    PlanView p;
    p.autoremovable_hint = {"autopkg"};
    p.install = {pkg("foo", "", "1")};
    p.install_deps = {pkg("libfoo1", "", "1"), pkg("foo-data", "", "1")};
    p.suggested = {"foo-doc"};
    p.remove = {pkg("conflicted", "1")};
    p.remove[0].purge = true;
    p.upgrade = {pkg("up", "1", "2")};
    p.not_upgraded_count = 4;
    p.download_bytes = 100;
    p.archive_bytes = 168;
    p.space_change_bytes = 129000;
    PlanViewOptions o = plain();
    o.classic = true;
    EXPECT_EQ(render_plan(p, o),
              "The following package was automatically installed and is no longer required:\n"
              "  autopkg\n"
              "Use 'apt autoremove' to remove it.\n"
              "The following additional packages will be installed:\n"
              "  foo-data libfoo1\n"
              "Suggested packages:\n"
              "  foo-doc\n"
              "The following packages will be REMOVED:\n"
              "  conflicted*\n"
              "The following NEW packages will be installed:\n"
              "  foo foo-data libfoo1\n"
              "The following packages will be upgraded:\n"
              "  up\n"
              "1 upgraded, 3 newly installed, 1 to remove and 4 not upgraded.\n"
              "Need to get 100 B/168 B of archives.\n"
              "After this operation, 129 kB of additional disk space will be used.\n");
    p.space_change_bytes = -5000;
    o.simulate = true;
    std::string simulated = render_plan(p, o);
    EXPECT_TRUE(simulated.ends_with("1 upgraded, 3 newly installed, 1 to remove and 4 not upgraded.\n")) << simulated;
    o.simulate = false;
    EXPECT_TRUE(render_plan(p, o).ends_with("After this operation, 5000 B disk space will be freed.\n"));
}

// apt-get's words for the upgrades phasing defers: after the new packages,
// before those kept back, counted with them.
TEST(PlanView, ClassicPhasedBlock) {
    PlanView p;
    p.install = {pkg("phased-new", "", "3")};
    p.phased = {pkg("phased", "1", "3"), pkg("phased-dep", "1", "3")};
    p.not_upgraded = {pkg("depends-phased-dep", "1", "3")};
    p.upgrade = {pkg("phased-security", "1", "3")};
    PlanViewOptions o = plain();
    o.classic = true;
    o.simulate = true;
    EXPECT_EQ(render_plan(p, o),
              "The following NEW packages will be installed:\n"
              "  phased-new\n"
              "The following upgrades have been deferred due to phasing:\n"
              "  phased phased-dep\n"
              "The following packages have been kept back:\n"
              "  depends-phased-dep\n"
              "The following packages will be upgraded:\n"
              "  phased-security\n"
              "1 upgraded, 1 newly installed, 0 to remove and 3 not upgraded.\n");
}

}  // namespace
}  // namespace aptus::cli
