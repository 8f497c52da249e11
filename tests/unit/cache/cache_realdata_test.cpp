// The cache over the real bookworm + trixie lists in a make-sandbox tree,
// checked against independent counts (awk/grep over the files) and against
// real apt (apt-cache on the same sandbox, read-only).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>

#include "aptus/cache/build.hpp"
#include "aptus/deb/tagfile.hpp"
#include "support/test_support.hpp"

using namespace aptus::cache;

namespace {

std::string shell(const std::string& cmd) {
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    if (p) pclose(p);
    return out;
}

struct Sandbox {
    aptus::test::TempDir dir{"cache-real"};
    std::string root, lists, apt;
    CacheInputs inputs;
    std::unique_ptr<OpenResult> opened;
};

Sandbox* g_sandbox = nullptr;

class CacheRealData : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (aptus::test::real_data_path("bookworm-InRelease").empty()) return;
        std::string root = aptus::test::real_sandbox("server");
        if (root.empty()) return;
        auto* s = new Sandbox;
        s->root = root;
        s->lists = s->root + "/var/lib/apt/lists/";
        s->apt = "APT_CONFIG=" + s->root + "/apt.conf ";
        CacheInputs& in = s->inputs;
        in.native_architecture = "amd64";
        in.status_path = s->root + "/var/lib/dpkg/status";
        in.extended_states_path = s->root + "/var/lib/apt/extended_states";
        in.fingerprint = "APT::Architectures=amd64;Acquire::Languages=en";
        for (std::string suite : {"bookworm", "trixie"}) {
            std::string base = "archive.example_debian_dists_" + suite + "_";
            in.releases.push_back({s->lists + base + "InRelease"});
            auto r = uint32_t(in.releases.size() - 1);
            in.indices.push_back({*find_list_file(s->lists, base + "main_binary-amd64_Packages"), IndexKind::Packages, r,
                                  "main", "amd64", "", "archive.example", ""});
            in.indices.push_back({*find_list_file(s->lists, base + "main_i18n_Translation-en"), IndexKind::Translation,
                                  r, "main", "", "en", "archive.example", ""});
        }
        // Sources are not in the sandbox: read the snapshot in place.
        in.indices.push_back({aptus::test::real_data_path("bookworm-main-Sources.xz"), IndexKind::Sources, 0, "main",
                              "", "", "archive.example", ""});
        s->opened = std::make_unique<OpenResult>(open_or_build(in, s->dir.file("aptus.bin")));
        g_sandbox = s;
    }
    static void TearDownTestSuite() {
        delete g_sandbox;
        g_sandbox = nullptr;
    }
    void SetUp() override {
        if (g_sandbox == nullptr) GTEST_SKIP() << "real data or make-sandbox not available";
        s = g_sandbox;
        c = &s->opened->cache;
    }
    std::string s_(StringId id) { return std::string(c->str(id)); }

    Sandbox* s = nullptr;
    const Cache* c = nullptr;
};

TEST_F(CacheRealData, CountsMatchIndependentCounts) {
    EXPECT_EQ(s->opened->origin, CacheOrigin::Rebuilt);
    EXPECT_TRUE(s->opened->diagnostics.empty());
    // Stanzas per Packages file: grep; each is one version-file association.
    size_t from_packages = 0;
    for (const VersionFile& f : c->version_files())
        if (c->index_files()[f.index_file].kind == IndexKind::Packages) ++from_packages;
    EXPECT_EQ(from_packages, 63440u + 68829u);
    EXPECT_EQ(std::stoul(shell("cat " + s->lists + "*_Packages | grep -c '^Package:'")), from_packages);
    // Packages: distinct (name, architecture with all filed under amd64) over
    // the Packages files and the status, by awk.
    std::string awk =
        "cat " + s->lists + "*_Packages " + s->inputs.status_path +
        " | awk '/^Package:/{p=$2} /^Architecture:/{a=$2; if(a==\"all\")a=\"amd64\"} "
        "/^$/{if(p!=\"\")print p\":\"a; p=\"\"; a=\"amd64\"} END{if(p!=\"\")print p\":\"a}' | sort -u | wc -l";
    EXPECT_EQ(c->packages().size(), std::stoul(shell(awk)));
    // Distinct versions, as apt counts them.
    std::string stats = shell(s->apt + "apt-cache stats");
    auto pos = stats.find("Total distinct versions: ");
    ASSERT_NE(pos, std::string::npos) << stats;
    EXPECT_EQ(c->versions().size(), std::stoul(stats.substr(pos + 25)));
    size_t sources = std::stoul(shell("xz -dc " + s->inputs.indices.back().path + " | grep -c '^Package:'"));
    EXPECT_EQ(c->sources().size(), sources);
}

TEST_F(CacheRealData, BashVersionsAndDependenciesMatchApt) {
    const Package* bash = c->find_package("bash", "amd64");
    ASSERT_NE(bash, nullptr);
    // apt-cache madison lists the versions newest first: "bash | <version> | <source>".
    std::istringstream in(shell(s->apt + "apt-cache madison bash"));
    std::vector<std::string> apt_versions;
    for (std::string line; std::getline(in, line);) {
        size_t a = line.find("| ") + 2;
        apt_versions.push_back(line.substr(a, line.find(' ', a) - a));
    }
    std::vector<std::string> ours;
    for (const Version& v : c->versions_of(*bash)) ours.push_back(s_(v.version));
    EXPECT_EQ(ours, apt_versions);

    // apt-cache depends prints the candidate's (here: the newest) dependencies.
    const Version& newest = c->versions_of(*bash)[0];
    static constexpr const char* kType[] = {"Depends", "PreDepends", "Recommends", "Suggests",
                                            "Enhances", "Breaks", "Conflicts", "Replaces"};
    std::string mine = "bash\n";
    for (const Dependency& d : c->dependencies_of(newest))
        mine += std::string(d.flags & kDepOrNext ? " |" : "  ") + kType[int(d.type)] + ": " +
                s_(c->names()[d.target].name) + "\n";
    // apt prints Pre-Depends first; our records keep the field order of the stanza.
    auto sorted_lines = [](const std::string& text) {
        std::vector<std::string> v;
        std::istringstream is(text);
        for (std::string l; std::getline(is, l);) v.push_back(l);
        std::sort(v.begin(), v.end());
        return v;
    };
    EXPECT_EQ(sorted_lines(mine), sorted_lines(shell(s->apt + "apt-cache depends bash")));

    EXPECT_EQ(s_(newest.section), "shells");
    EXPECT_EQ(newest.priority, Priority::Required);
    EXPECT_TRUE(newest.flags & kVersionEssential);
    EXPECT_EQ(newest.multi_arch, MultiArch::Foreign);
    EXPECT_EQ(s_(newest.source_name), "bash");
    EXPECT_EQ(s_(newest.short_description), "GNU Bourne Again SHell");
    // The long description from Translation-en, byte for byte as apt shows it.
    std::string show = shell(s->apt + "apt-cache show bash=" + s_(newest.version) +
                             " | awk '/^Description-en:/{f=1} f&&/^[A-Z][A-Za-z0-9-]*:/&&!/^Description-en:/{f=0} f'");
    EXPECT_EQ("Description-en: " + std::string(c->long_description(newest)) + "\n", show);
    EXPECT_EQ(c->index_files()[newest.description_file].kind, IndexKind::Translation);
    // Release data of the file it comes from.
    const VersionFile& f = c->files_of(newest)[0];
    const Release& r = c->releases()[c->index_files()[f.index_file].release];
    EXPECT_EQ(s_(r.codename), "trixie");
    EXPECT_EQ(s_(r.origin), "Debian");
    EXPECT_EQ(c->stanza(f).substr(0, 14), "Package: bash\n");
}

TEST_F(CacheRealData, ReverseDependenciesMatchApt) {
    for (const char* name : {"bash", "libc6", "python3"}) {
        auto n = c->find_name(name);
        ASSERT_TRUE(n);
        std::set<std::string> ours;
        // apt files "x:any" under a separate package, so its rdepends of x
        // leave those out; compare like with like.
        for (const RevDep& r : c->rdepends(*n))
            if (c->dependencies()[r.dependency].arch_qualifier == 0)
                ours.insert(std::string(c->name_of(c->package_of(c->versions()[r.version]))));
        std::set<std::string> apt;
        std::istringstream in(shell(s->apt + "apt-cache rdepends " + name + " | tail -n +3"));
        for (std::string l; std::getline(in, l);) {
            size_t p = l.find_first_not_of(" |");
            if (p != std::string::npos) apt.insert(l.substr(p));
        }
        EXPECT_EQ(ours, apt) << name;
    }
}

TEST_F(CacheRealData, ProvidersMatchApt) {
    // mail-transport-agent is purely virtual; apt-cache showpkg lists its providers.
    auto n = c->find_name("mail-transport-agent");
    ASSERT_TRUE(n);
    EXPECT_TRUE(c->packages_of(*n).empty());
    std::set<std::string> ours;
    for (uint32_t p : c->providers(*n))
        ours.insert(std::string(c->name_of(c->package_of(c->versions()[c->provides()[p].version]))) + " " +
                    s_(c->versions()[c->provides()[p].version].version));
    std::string showpkg = shell(s->apt + "apt-cache showpkg mail-transport-agent");
    std::istringstream in(showpkg.substr(showpkg.find("Reverse Provides: \n") + 19));
    std::set<std::string> apt;
    for (std::string l; std::getline(in, l) && !l.empty();) apt.insert(l.substr(0, l.find(" (")));
    EXPECT_EQ(ours, apt);
}

TEST_F(CacheRealData, InstalledAndAutoMarksMatchStatus) {
    size_t installed = 0, auto_marked = 0;
    for (const Package& p : c->packages()) {
        if (p.state == InstallState::Installed && p.selection == Selection::Install) ++installed;
        if (p.flags & kPackageAuto) ++auto_marked;
    }
    EXPECT_EQ(installed, std::stoul(shell("grep -c '^Status: install ok installed' " + s->inputs.status_path)));
    EXPECT_EQ(auto_marked, std::stoul(shell(s->apt + "apt-mark showauto | wc -l")));
    std::istringstream in(shell(s->apt + "apt-mark showauto"));
    for (std::string l; std::getline(in, l);) {
        std::string name = l.substr(0, l.find(':'));
        const Package* p = c->find_package(name, "amd64");
        ASSERT_NE(p, nullptr) << name;
        EXPECT_TRUE(p->flags & kPackageAuto) << name;
    }
    const Package* bash = c->find_package("bash", "amd64");
    ASSERT_NE(c->current_version(*bash), nullptr);
    std::string status_version =
        shell("awk '/^Package: bash$/{f=1} f&&/^Version:/{print $2; exit}' " + s->inputs.status_path);
    EXPECT_EQ(s_(c->current_version(*bash)->version) + "\n", status_version);
    EXPECT_FALSE(bash->flags & kPackageAuto);
}

TEST_F(CacheRealData, ReopenIsReusedAndIdentical) {
    OpenResult again = open_or_build(s->inputs, s->dir.file("aptus.bin"));
    EXPECT_EQ(again.origin, CacheOrigin::Reused);
    EXPECT_EQ(again.cache.image(), c->image());
}

}  // namespace
