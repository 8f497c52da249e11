// modernize-sources writing: everything or nothing, whichever step fails.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "aptus/base/error.hpp"
#include "aptus/sources/modernize.hpp"
#include "modernize_sandbox.hpp"

namespace {

using aptus::sources::commit_modernize;
using aptus::sources::ModernizePlan;
using aptus::test::ModernizeSandbox;

void fill(ModernizeSandbox& sb) {
    sb.dir.write("var/lib/apt/lists/deb.example.org_debian_dists_stable_Release", "Origin: Debian\n");
    sb.dir.write("etc/apt/sources.list.d/debian.sources",
                 "Types: deb\nURIs: http://old.example/\nSuites: x\nComponents: main\n");
    chmod(sb.dir.file("etc/apt/sources.list.d/debian.sources").c_str(), 0600);
    sb.dir.write("etc/apt/sources.list", "deb http://deb.example.org/debian stable main\n"
                                         "deb http://elsewhere.example/ stable main\n");
    sb.dir.write("etc/apt/sources.list.d/a.list", "deb [trusted=yes] http://a.example/ s main\n");
    sb.dir.write("etc/apt/sources.list.d/z.list", "# z\ndeb http://z.example/ s main\n");
    sb.dir.write("etc/apt/sources.list.d/untouched.sources", "Types: deb\nURIs: http://u.example/\nSuites: s\n"
                                                             "Components: main\n");
}

TEST(ModernizeCommit, WritesOutputsAndRenamesInputs) {
    ModernizeSandbox sb;
    fill(sb);
    auto before = sb.snapshot();
    ModernizePlan plan = sb.plan();
    commit_modernize(plan);
    auto after = sb.snapshot();

    std::map<std::string, std::string> expected = before;
    const std::string d = "/etc/apt/sources.list.d/";
    expected.erase("/etc/apt/sources.list");
    expected["/etc/apt/sources.list.bak"] = before["/etc/apt/sources.list"];
    for (const char* name : {"a.list", "z.list"}) {
        expected.erase(d + name);
        expected[d + name + ".bak"] = before[d + name];
    }
    for (const auto& out : plan.outputs) expected[out.path.substr(sb.dir.path().size())] = out.content();
    EXPECT_EQ(after, expected);
    EXPECT_EQ(expected.count(d + "moved-from-main.sources"), 1u);
    EXPECT_EQ(expected[d + "debian.sources"].find("Types: deb\nURIs: http://old.example/"), 0u);

    struct stat st {};
    ASSERT_EQ(stat(sb.dir.file("etc/apt/sources.list.d/debian.sources").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);  // appended to: keeps its mode
    ASSERT_EQ(stat(sb.dir.file("etc/apt/sources.list.d/a.sources").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644u);

    // A second run has nothing to do.
    EXPECT_TRUE(sb.plan().empty());
}

TEST(ModernizeCommit, AFailureAtAnyStepLeavesEveryFileAsItWas) {
    ModernizeSandbox sb;
    fill(sb);
    auto before = sb.snapshot();
    ModernizePlan plan = sb.plan();

    std::vector<std::string> steps;
    {
        ModernizeSandbox dry;  // count the steps on a copy, without failing
        fill(dry);
        commit_modernize(dry.plan(), [&](std::string_view s) {
            std::string step(s);
            for (size_t at; (at = step.find(dry.root())) != std::string::npos;) step.replace(at, dry.root().size(), sb.root());
            steps.push_back(step);
        });
    }
    ASSERT_GE(steps.size(), 10u);  // 4 temporaries, 1 kept, 4 renames, 3 backups, sync
    for (size_t k = 0; k < steps.size(); ++k) {
        size_t n = 0;
        try {
            commit_modernize(plan, [&](std::string_view s) {
                if (n++ == k) throw aptus::Error("injected failure before: " + std::string(s));
            });
            FAIL() << "no error at step " << k;
        } catch (const aptus::Error& e) {
            std::string what = e.what();
            EXPECT_NE(what.find("injected failure before: " + steps[k]), std::string::npos) << what;
            EXPECT_NE(what.find("no file was changed"), std::string::npos) << what;
        }
        EXPECT_EQ(sb.snapshot(), before) << "after a failure at step " << k << ": " << steps[k];
    }
    commit_modernize(plan);
    EXPECT_NE(sb.snapshot(), before);
}

TEST(ModernizeCommit, ARealFailureMidwayIsUndone) {
    ModernizeSandbox sb;
    fill(sb);
    // The last backup name cannot be created: rename() itself fails, after
    // every output is in place and the other inputs are renamed.
    std::string name(247, 'z');
    sb.dir.write("etc/apt/sources.list.d/" + name + ".list", "deb http://x.example/ s main\n");
    auto before = sb.snapshot();
    ModernizePlan plan = sb.plan();
    ASSERT_EQ(plan.inputs.back().path, sb.parts() + name + ".list");
    try {
        commit_modernize(plan);
        FAIL() << "no error";
    } catch (const aptus::Error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("Could not rename " + sb.parts() + name + ".list"), std::string::npos) << what;
        EXPECT_NE(what.find("no file was changed"), std::string::npos) << what;
    }
    EXPECT_EQ(sb.snapshot(), before);
}

}  // namespace
